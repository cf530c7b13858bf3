import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { languageOf, LANGUAGES, LOCALES, type Language } from "@balcao/shared";
import { initialLanguage, LANGUAGE_KEY } from "./language";

export { initialLanguage, LANGUAGE_KEY, LANGUAGES, type Language };

type Messages = { [key: string]: string | Messages };

/**
 * Each feature may keep its texts in features/<domain>/locales/<lang>.json, merged over the shared ones. A
 * language's texts are one chunk, loaded when that language is first used (issue 20): the app downloads the
 * language it shows, not all three.
 */
const bundles: Record<Language, () => Promise<{ default: object; features: Record<string, object>; errors: Record<string, string> }>> = {
  pt: () => import("../locales/bundle.pt"),
  en: () => import("../locales/bundle.en"),
  es: () => import("../locales/bundle.es"),
};

function deepMerge(target: Messages, source: Messages): Messages {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    target[key] = typeof value === "object" && typeof current === "object" ? deepMerge({ ...current }, value) : value;
  }
  return target;
}

/**
 * Server error codes are translated from the closed catalogue in @balcao/shared, never from locale files: the
 * language's bundle carries its texts (`errors`, cut from the catalogue at build time by vite.config.ts).
 */
function messagesFor(base: Messages, features: Messages[], errors: Record<string, string>): Messages {
  let merged: Messages = structuredClone(base);
  for (const messages of features) merged = deepMerge(merged, messages);
  return deepMerge(merged, { backendErrors: errors });
}

const loadedBundles = new Map<Language, Promise<void>>();

function loadBundle(language: Language): Promise<void> {
  let loading = loadedBundles.get(language);
  if (!loading) {
    loading = bundles[language]().then((bundle) => {
      // Shallow: the texts of pages (loadPageTexts) have top-level keys of their own.
      const messages = messagesFor(bundle.default as Messages, Object.values(bundle.features) as Messages[], bundle.errors);
      i18n.addResourceBundle(language, "translation", messages);
    });
    loading.catch(() => loadedBundles.delete(language));
    loadedBundles.set(language, loading);
  }
  return loading;
}

/**
 * The texts of the pages few open (campaigns, contact lists, Kanban, the messages API, settings, the simulator,
 * the to-do list…): not in a language's bundle but one small chunk per feature and language, which app/router.tsx
 * loads with those pages (loadPageTexts), so the tickets page and the layout do not download them (issue 20). The
 * bundles (locales/bundle.<lang>.ts) leave out the same features; pageTexts.test.ts checks both lists and that no
 * other feature reads these texts.
 */
const PAGE_TEXTS = import.meta.glob<Messages>(
  "../features/{campaigns,companies,contact-lists,helps,kanban,messages-api,plans,queues,quick-messages,settings,simulator,todolist,webhooks}/locales/*.json",
  { import: "default" },
);
/** The files of PAGE_TEXTS (pageTexts.test.ts). */
export const PAGE_TEXT_FILES = Object.keys(PAGE_TEXTS);
let pageTextsWanted = false;
const loadedPageTexts = new Map<Language, Promise<void>>();

function loadPageTextsOf(language: Language): Promise<void> {
  let loading = loadedPageTexts.get(language);
  if (!loading) {
    const files = Object.entries(PAGE_TEXTS).filter(([file]) => file.endsWith(`/${language}.json`));
    loading = Promise.all([loadBundle(language), ...files.map(([, load]) => load())]).then(([, ...texts]) => {
      for (const messages of texts) i18n.addResourceBundle(language, "translation", messages as Messages, true, true);
    });
    loading.catch(() => loadedPageTexts.delete(language));
    loadedPageTexts.set(language, loading);
  }
  return loading;
}

/**
 * Before a page whose texts are not in the bundles shows (app/router.tsx): its texts in the interface language
 * (or `languages`), Portuguese (the fallback) in the background; from then on a language loads them with its
 * bundle, so switching the language on such a page shows no untranslated key.
 */
export async function loadPageTexts(languages: readonly Language[] = [currentLanguage()]): Promise<void> {
  pageTextsWanted = true;
  void loadPageTextsOf("pt").catch(() => undefined);
  await Promise.all(languages.map(loadPageTextsOf));
}

/** Downloads a language's texts once and adds them to i18next (and the pages' texts, once a page needed them). */
export async function loadLanguage(language: Language): Promise<void> {
  await (pageTextsWanted ? loadPageTextsOf(language) : loadBundle(language));
}

/** Before the first render: the start-up language's texts; Portuguese (the fallback) follows in the background. */
export async function loadInitialLanguage(): Promise<void> {
  const language = initialLanguage();
  await loadLanguage(language);
  await i18n.changeLanguage(language);
  void loadLanguage("pt");
}

void i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  lng: initialLanguage(),
  fallbackLng: "pt",
  interpolation: { escapeValue: false },
  returnNull: false,
  showSupportNotice: false,
});

/** The active language, as one of LANGUAGES. */
export function currentLanguage(): Language {
  return languageOf(i18n.resolvedLanguage ?? i18n.language) ?? "pt";
}

/** The BCP 47 locale of the active language, for Intl and date-fns (dates, numbers, currency). */
export function currentLocale(): string {
  return LOCALES[currentLanguage()];
}

function syncDocumentLanguage(): void {
  if (typeof document !== "undefined") document.documentElement.lang = currentLocale();
}
i18n.on("languageChanged", syncDocumentLanguage);
syncDocumentLanguage();

/** Switches the interface language and remembers it in this browser. */
export async function changeLanguage(language: Language): Promise<unknown> {
  localStorage.setItem(LANGUAGE_KEY, language);
  await loadLanguage(language);
  return i18n.changeLanguage(language);
}

export default i18n;
