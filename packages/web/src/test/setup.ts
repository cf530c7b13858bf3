import "@testing-library/jest-dom/vitest";
import { __unsafe_useEmotionCache as useEmotionCache, type EmotionCache } from "@emotion/react";
import { cleanup, configure, render } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, vi } from "vitest";
import i18n, { LANGUAGES, loadLanguage, loadPageTexts } from "../app/i18n";
import { clearToasts } from "../components/toasts";

// The app loads a language's texts when it is first used, the texts of some pages with them (app/i18n.ts); the
// suites switch freely and render pages directly: load all.
await Promise.all(LANGUAGES.map(loadLanguage));
await loadPageTexts(LANGUAGES);
// jsdom's navigator says en-US; the suites read the Portuguese texts unless a test switches the language.
await i18n.changeLanguage("pt");

// The CI machine has 2 cores shared with other suites: allow slow renders before failing a findBy/waitFor.
configure({ asyncUtilTimeout: 4000 });

// jsdom lacks matchMedia and IntersectionObserver (DESIGN §2).
if (!window.matchMedia) {
  Object.defineProperty(window, "matchMedia", {
    writable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

class IntersectionObserverStub implements IntersectionObserver {
  readonly root = null;
  readonly rootMargin = "0px";
  readonly thresholds = [0];
  readonly scrollMargin = "0px";
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }
}
if (!("IntersectionObserver" in window)) {
  Object.defineProperty(window, "IntersectionObserver", { writable: true, value: IntersectionObserverStub });
  Object.defineProperty(globalThis, "IntersectionObserver", { writable: true, value: IntersectionObserverStub });
}

// MUI's styles go through emotion's default cache, one <style> per rule in document.head. The files of a worker
// share one document and one module graph (vitest.config.ts, isolate: false), so without this the head kept every
// rule of every earlier file: over 1000 after a dozen files. jsdom matches every rule against an element for each
// getComputedStyle, which getByRole and user-event call for the element and its ancestors, so a test slowed down
// with every file before it (ConnectionModal.test.tsx: 12 s alone, 60+ s late in a worker). After each test, with
// its trees unmounted, the rules are removed and the cache forgets them; whatever renders next inserts its own again.
let emotionCache: EmotionCache | null = null;
function CaptureEmotionCache() {
  emotionCache = useEmotionCache();
  return null;
}
render(createElement(CaptureEmotionCache));
cleanup();
function forgetStyles() {
  if (!emotionCache) return;
  emotionCache.sheet.flush();
  for (const name of Object.keys(emotionCache.inserted)) delete emotionCache.inserted[name];
}

afterEach(() => {
  cleanup();
  clearToasts();
  forgetStyles();
  localStorage.clear();
  vi.unstubAllGlobals();
  if (i18n.language !== "pt") void i18n.changeLanguage("pt");
});
