import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import i18n, { LANGUAGES, loadLanguage, loadPageTexts } from "../app/i18n";

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

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  if (i18n.language !== "pt") void i18n.changeLanguage("pt");
});
