import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { errorTexts } from "@balcao/shared";
import en from "../locales/en.json";
import es from "../locales/es.json";
import pt from "../locales/pt.json";

export const LANGUAGES = ["pt", "en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
const LANGUAGE_KEY = "language";

function storedLanguage(): Language {
  const stored = typeof localStorage === "undefined" ? null : localStorage.getItem(LANGUAGE_KEY);
  return (LANGUAGES as readonly string[]).includes(stored ?? "") ? (stored as Language) : "pt";
}

type Messages = { [key: string]: string | Messages };

/** Each feature may keep its texts in features/<domain>/locales/<lang>.json, merged over the shared ones. */
const featureLocales = import.meta.glob<{ default: Messages }>("../features/*/locales/*.json", { eager: true });

function deepMerge(target: Messages, source: Messages): Messages {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    target[key] = typeof value === "object" && typeof current === "object" ? deepMerge({ ...current }, value) : value;
  }
  return target;
}

/** Server error codes are translated from the closed catalogue in @balcao/shared, never from locale files. */
function messagesFor(language: Language, base: Messages): Messages {
  let merged: Messages = structuredClone(base);
  for (const [path, module] of Object.entries(featureLocales)) if (path.endsWith(`/${language}.json`)) merged = deepMerge(merged, module.default);
  return deepMerge(merged, { backendErrors: errorTexts(language) });
}

void i18n.use(initReactI18next).init({
  resources: {
    pt: { translation: messagesFor("pt", pt as Messages) },
    en: { translation: messagesFor("en", en as Messages) },
    es: { translation: messagesFor("es", es as Messages) },
  },
  lng: storedLanguage(),
  fallbackLng: "pt",
  interpolation: { escapeValue: false },
  returnNull: false,
  showSupportNotice: false,
});

export function changeLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
  void i18n.changeLanguage(language);
}

export default i18n;
