import { languageOf, type Language } from "@balcao/shared";

/** Where this browser keeps the picked interface language. */
export const LANGUAGE_KEY = "language";

/**
 * The language at start-up (issue 16): the one picked on this browser (localStorage), else the browser's own
 * (navigator.languages, first supported), else Portuguese. The user's stored choice on the server replaces it
 * once the session is known (SessionProvider). Kept apart from app/i18n.ts so the light login page
 * (app/loginShell.tsx) picks the same language without i18next.
 */
export function initialLanguage(): Language {
  const stored = typeof localStorage === "undefined" ? null : languageOf(localStorage.getItem(LANGUAGE_KEY));
  if (stored) return stored;
  const browser = typeof navigator === "undefined" ? [] : [...(navigator.languages ?? []), navigator.language];
  for (const tag of browser) {
    const language = languageOf(tag);
    if (language) return language;
  }
  return "pt";
}
