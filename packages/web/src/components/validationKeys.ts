/**
 * Validation texts of the shared schemas (spec §5) mapped to their i18n keys. A module of its own, without
 * i18next or the error catalogue: the light login page (features/auth/LoginPage.tsx) translates with it too.
 */
const VALIDATION_KEYS: Record<string, string> = {
  Required: "validation.required",
  "Too Short!": "validation.tooShort",
  "Too Long!": "validation.tooLong",
  "Invalid email": "validation.invalidEmail",
  Obrigatório: "validation.obrigatorio",
  "Mensagem muito curta": "validation.mensagemCurta",
};

/** The i18n key of a shared schema's message, if it is one. */
export function validationKeyOf(message: string): string | undefined {
  return Object.hasOwn(VALIDATION_KEYS, message) ? VALIDATION_KEYS[message] : undefined;
}
