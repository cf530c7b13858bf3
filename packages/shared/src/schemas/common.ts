import { z } from "zod";
import { LIMITS } from "../constants";

/** Validation texts of spec §5 (shown to users verbatim). */
export const MSG = {
  required: "Required",
  tooShort: "Too Short!",
  tooLong: "Too Long!",
  invalidEmail: "Invalid email",
  obrigatorio: "Obrigatório",
  mensagemCurta: "Mensagem muito curta",
} as const;

/** A required trimmed string between min and max characters with the spec's texts. */
export const boundedText = (min: number, max: number) =>
  z
    .string({ error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .min(min, MSG.tooShort)
    .max(max, MSG.tooLong);

export const nameField = boundedText(LIMITS.nameMin, LIMITS.nameMax);

export const emailField = z
  .string({ error: MSG.required })
  .trim()
  .toLowerCase()
  .min(1, MSG.required)
  .max(254, MSG.tooLong)
  .pipe(z.email(MSG.invalidEmail));

export const passwordField = z
  .string({ error: MSG.required })
  .min(1, MSG.required)
  .min(LIMITS.passwordMin, MSG.tooShort)
  .max(LIMITS.passwordMax, MSG.tooLong);

/** Positive integer id in a path or body (strings from the URL are coerced). */
export const idField = z.coerce.number({ error: "Invalid id" }).int().positive().max(2_147_483_647);

export const idParams = z.object({ id: idField });

/** `?searchParam&pageNumber` of every paginated list (spec §7, §9). */
export const LIST_SEARCH_MAX = LIMITS.searchMax;

export const listQuery = z.object({
  searchParam: z.string().trim().max(LIMITS.searchMax, MSG.tooLong).optional().default(""),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type ListQuery = z.infer<typeof listQuery>;

/** Booleans that arrive as strings in query parameters. */
export const queryBoolean = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1");
