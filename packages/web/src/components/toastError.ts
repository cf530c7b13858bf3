import { enqueueSnackbar } from "./toasts";
import i18n from "../app/i18n";
import { failureText } from "./failureText";
import { validationKeyOf } from "./validationKeys";

/**
 * The text of a failure (spec §8): a known server code → its translation `backendErrors.<code>`
 * (interpolating the error's meta), else the raw text, else 'An error occurred!'.
 */
export function errorText(err: unknown): string {
  return failureText(err, (key, values) => (i18n.exists(key) ? i18n.t(key, values) : undefined));
}

/** Translates a field message coming from a shared zod schema; unknown texts pass through. */
export function translateValidation(message: string | undefined): string | undefined {
  if (!message) return undefined;
  const key = validationKeyOf(message);
  return key ? i18n.t(key) : message;
}

export function toastError(err: unknown): void {
  enqueueSnackbar(errorText(err), { variant: "error" });
}
