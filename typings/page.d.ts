// What the page scripts (static/js/*.js, tsconfig.json) share that the DOM's own types do not say.
// Declarations only: nothing here runs.

// The browser's offer to install the app (Chromium; not in the DOM's standard types).
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: "accepted" | "dismissed"; platform: string }>;
}

interface WindowEventMap {
  beforeinstallprompt: BeforeInstallPromptEvent;
}

// The in-browser engine (static/js/offline-engine.js), which offline.js uses when it is there.
interface OfflineEngineApi {
  available(): Promise<boolean>;
  store(): Promise<void>;
  prepare(): Promise<void>;
  ready(): boolean;
  scoreMatch(matchFile: object | string, lang?: string): Promise<any>;
  dealFromForm(fields: Record<string, unknown>, matchFile: object | string): Promise<any>;
}

interface Window {
  OfflineEngine?: OfflineEngineApi;
}
