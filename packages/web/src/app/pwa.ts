/**
 * Installable web app (issue 16): the hand-written public/sw.js gives the offline shell page and shows
 * notifications while the tab is hidden. Only the production build registers it (the dev server's modules
 * must never meet a worker).
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  void navigator.serviceWorker.register("/sw.js").catch(() => undefined);
}

/** The active worker's registration when one controls this page, else null. */
export function activeServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return Promise.resolve(null);
  return navigator.serviceWorker.ready.catch(() => null);
}
