import { LOCALES, type Language } from "@balcao/shared";
import type { TextLookup } from "../components/failureText";

/** Locale texts as in src/locales/<lang>.json: nested groups of strings. */
export type Messages = { [key: string]: string | Messages };

export interface Translator {
  /** The text of a key with its {{values}} (the key itself when missing, as i18next does). */
  t: (key: string, values?: Record<string, unknown>) => string;
  /** The text of a key, or undefined when missing (components/failureText.ts). */
  lookup: TextLookup;
}

/**
 * A minimal i18next look-alike for the light login page (app/loginShell.tsx), which shows before i18next and
 * the app's texts download (issue 20): dotted keys, {{name}} interpolation and _one/_other plural forms from
 * a `count`, over the same locale files.
 */
export function createTranslator(messages: Messages, language: Language): Translator {
  const plurals = new Intl.PluralRules(LOCALES[language]);
  const find = (key: string): string | undefined => {
    let node: string | Messages | undefined = messages;
    for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
    return typeof node === "string" ? node : undefined;
  };
  const lookup: TextLookup = (key, values = {}) => {
    const count = values.count;
    const text = (typeof count === "number" ? find(`${key}_${plurals.select(count)}`) : undefined) ?? find(key);
    return text?.replace(/\{\{\s*(\w+)\s*\}\}/g, (placeholder, name: string) => (values[name] === undefined ? placeholder : String(values[name])));
  };
  return { lookup, t: (key, values) => lookup(key, values) ?? key };
}
