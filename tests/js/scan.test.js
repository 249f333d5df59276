// What the check-in scanner (static/js/scan.js) sends from the codes the barcode reader found: a
// registration's link or a short code, never anything else a camera may see at a door.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { scannedValue } from "../../static/js/scan.js";

/** @param {string[]} values */
const codes = (values) => values.map((rawValue) => ({ rawValue }));

describe("scannedValue", () => {
  test("a registration's link, trimmed", () => {
    const link = "https://belote.example.org/r/AbCdEfGhIjKlMnOpQrStUv/";
    assert.equal(scannedValue(codes([` ${link}\n`])), link);
  });
  test("a short code", () => assert.equal(scannedValue(codes(["K7M3QX"])), "K7M3QX"));
  test("the first code that is one, past a poster's other codes", () => {
    const link = "http://192.168.1.20:8000/r/AbCdEfGhIjKlMnOpQrStUv";
    assert.equal(scannedValue(codes(["https://example.org/menu?table=3", link])), link);
  });
  test("nothing fitting: nothing sent", () => {
    assert.equal(scannedValue(codes([])), "");
    assert.equal(scannedValue(codes(["https://example.org/c/AbCdEfGhIjKlMnOpQrStUv/"])), "");
    assert.equal(scannedValue(codes(["WIFI:S:Salle des fêtes;T:WPA;P:secret;;"])), "");
  });
});
