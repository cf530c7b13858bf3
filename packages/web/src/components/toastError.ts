import { enqueueSnackbar } from "notistack";
import i18n from "../app/i18n";
import { errorCodeOf } from "@balcao/shared";
import { ApiError } from "../api/client";

/**
 * The text of a failure (spec §8): a known server code → its translation `backendErrors.<code>`
 * (interpolating the error's meta), else the raw text, else 'An error occurred!'.
 */
export function errorText(err: unknown): string {
  const raw = err instanceof ApiError ? err.body.error : err instanceof Error ? err.message : typeof err === "string" ? err : "";
  if (raw) {
    const key = `backendErrors.${errorCodeOf(raw) ?? raw}`;
    if (i18n.exists(key)) return i18n.t(key, { ...(err instanceof ApiError ? err.body.meta : undefined) });
    const validationKey = validationKeys[raw];
    if (validationKey) return i18n.t(validationKey);
    return raw;
  }
  return i18n.t("errors.generic");
}

/** Validation texts of the shared schemas (spec §5) mapped to their i18n keys. */
const validationKeys: Record<string, string> = {
  Required: "validation.required",
  "Too Short!": "validation.tooShort",
  "Too Long!": "validation.tooLong",
  "Invalid email": "validation.invalidEmail",
  Obrigatório: "validation.obrigatorio",
  "Mensagem muito curta": "validation.mensagemCurta",
};

/** Translates a field message coming from a shared zod schema; unknown texts pass through. */
export function translateValidation(message: string | undefined): string | undefined {
  if (!message) return undefined;
  const key = validationKeys[message];
  return key ? i18n.t(key) : message;
}

export function toastError(err: unknown): void {
  enqueueSnackbar(errorText(err), { variant: "error" });
}
