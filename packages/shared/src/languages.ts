/** Interface languages of the web app (issue 16); the server keeps each user's choice. */
import type { Language } from "./errors";

export const LANGUAGES = ["pt", "en", "es"] as const satisfies readonly Language[];

/** A stored or browser language tag as one of LANGUAGES ("pt-BR" → "pt", "en-US" → "en"), or null. */
export function languageOf(value: string | null | undefined): Language | null {
  const base = (value ?? "").toLowerCase().split(/[-_]/)[0];
  return (LANGUAGES as readonly string[]).includes(base ?? "") ? (base as Language) : null;
}

/** The BCP 47 locale used for dates, numbers and currency in each language. */
export const LOCALES: Record<Language, string> = { pt: "pt-BR", en: "en-US", es: "es-ES" };
