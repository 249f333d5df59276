// Check-in at the door by QR code (issue 45, templates/concours/desk/sign_ups.html): where the
// browser has a barcode reader (BarcodeDetector) and a camera, the desk's "Scan a QR code" button
// films the team's phone, reads its registration's link from the code and sends the desk's own
// check-in form with it (the server finds the registration by the link or the short code). No
// library, no CDN: without the reader (Firefox, a desktop Chromium on Linux...) or a camera the
// button stays hidden and the desk types the team's short code, the form working as it is.
//
// An ES module: `scannedValue` is exported for its unit test (tests/js/scan.test.js).

/**
 * The value to send from what the reader found: the first code holding a registration's link
 * (`/r/<token>/`) or a short code (letters and digits), trimmed; "" when none does.
 * @param {ReadonlyArray<{ rawValue: string }>} codes
 */
export function scannedValue(codes) {
  for (const code of codes) {
    const value = code.rawValue.trim();
    if (/\/r\/[A-Za-z0-9_-]{16,40}\/?/.test(value) || /^[A-Za-z0-9 -]{4,12}$/.test(value)) {
      return value;
    }
  }
  return "";
}

/**
 * @typedef {{ detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>> }} Detector
 * @typedef {new (options: { formats: string[] }) => Detector} DetectorClass
 */

const EVERY_MS = 250; // a frame read four times a second: enough for a phone held up

/** @param {HTMLElement} box */
function wire(box) {
  const Reader = /** @type {DetectorClass | undefined} */ (
    /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (window)).BarcodeDetector
  );
  const form = /** @type {HTMLFormElement | null} */ (document.querySelector("[data-scan-form]"));
  const input = form?.querySelector("input[name=code]");
  const start = box.querySelector("button[data-scan-start]");
  const video = box.querySelector("video");
  const status = /** @type {HTMLElement | null} */ (box.querySelector("[data-scan-status]"));
  if (!Reader || !navigator.mediaDevices?.getUserMedia || !form || !input || !start || !video) {
    return; // no reader or no camera: the short code is typed
  }
  box.hidden = false;
  const say = (/** @type {string} */ text) => {
    if (status) status.textContent = text;
  };
  /** @type {MediaStream | null} */
  let stream = null;
  const stop = () => {
    stream?.getTracks().forEach((track) => track.stop());
    stream = null;
    video.hidden = true;
    start.hidden = false;
  };
  const reader = new Reader({ formats: ["qr_code"] });
  /** @returns {Promise<void>} */
  const look = async () => {
    if (!stream) return;
    const value = scannedValue(await reader.detect(video));
    if (!value) {
      setTimeout(() => look().catch(fail), EVERY_MS);
      return;
    }
    stop();
    input.value = value;
    say(box.dataset.scanFound ?? "");
    form.requestSubmit();
  };
  const fail = (/** @type {unknown} */ error) => {
    console.warn("check-in scan:", error); // the camera refused or the reader failed: type the code
    stop();
    say(box.dataset.scanFailed ?? "");
  };
  const begin = async () => {
    stream = await navigator.mediaDevices.getUserMedia({
      video: { facingMode: "environment" },
      audio: false,
    });
    video.srcObject = stream;
    video.hidden = false;
    start.hidden = true;
    await video.play();
    say(box.dataset.scanLooking ?? "");
    await look();
  };
  start.addEventListener("click", () => {
    begin().catch(fail);
  });
}

if (typeof document !== "undefined") {
  const box = /** @type {HTMLElement | null} */ (document.querySelector("[data-scan]"));
  if (box) wire(box);
}
