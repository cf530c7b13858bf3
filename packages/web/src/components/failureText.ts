import wires from "virtual:error-wires";
import { ApiError } from "../api/client";
import { validationKeyOf } from "./validationKeys";

/** A text of the interface language, or undefined when the key has none. */
export type TextLookup = (key: string, values?: Record<string, unknown>) => string | undefined;

/**
 * The text of a failure (spec §8): a known server code → its translation `backendErrors.<code>`
 * (interpolating the error's meta), else the raw text, else 'An error occurred!'. `lookup` reads the texts:
 * i18next in the app (components/toastError.ts), the login shell's own translator before it loads.
 */
export function failureText(err: unknown, lookup: TextLookup): string {
  const raw = err instanceof ApiError ? err.body.error : err instanceof Error ? err.message : typeof err === "string" ? err : "";
  if (raw) {
    // The code behind a wire text (errorCodeOf of @balcao/shared, without the whole catalogue on every page).
    const code = Object.hasOwn(wires, raw) ? wires[raw] : raw;
    const known = lookup(`backendErrors.${code}`, { ...(err instanceof ApiError ? err.body.meta : undefined) });
    if (known !== undefined) return known;
    const validationKey = validationKeyOf(raw);
    return (validationKey && lookup(validationKey)) || raw;
  }
  return lookup("errors.generic") ?? "errors.generic";
}
