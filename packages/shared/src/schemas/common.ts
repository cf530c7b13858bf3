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
  z.string({ error: MSG.required }).trim().min(1, MSG.required).min(min, MSG.tooShort).max(max, MSG.tooLong);

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

/**
 * An optional field the spec's client forms send as "" when left empty (a tag colour not picked, an
 * unselected queue): blank means "not given", exactly like leaving the field out.
 */
export const blankAsUnset = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema.optional());

/**
 * Positive integer id in a path or body. A string (from the URL) must be plain decimal digits: "0x5", "1e3",
 * " 5" or "5.0" are not ids, though Number() would read them as one (issue 11).
 */
export const idField = z.preprocess(
  (v) => (typeof v === "string" ? (/^[0-9]{1,10}$/.test(v) ? Number(v) : Number.NaN) : v),
  z.number({ error: "Invalid id" }).int("Invalid id").positive("Invalid id").max(2_147_483_647, "Invalid id"),
);

/** A calendar day "YYYY-MM-DD" that exists (no 2024-02-30, no month 13, no year 0). */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Invalid date")
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return s >= "0001" && !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, "Invalid date");

export const idParams = z.object({ id: idField });

/** `?searchParam&pageNumber` of every paginated list (spec §7, §9). */
export const LIST_SEARCH_MAX = LIMITS.searchMax;

export const listQuery = z.object({
  searchParam: z.string().trim().max(LIMITS.searchMax, MSG.tooLong).optional().default(""),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type ListQuery = z.infer<typeof listQuery>;

/** Booleans that arrive as strings in query parameters. */
export const queryBoolean = z.union([z.boolean(), z.enum(["true", "false", "1", "0"])]).transform((v) => v === true || v === "true" || v === "1");

/** A position in a list sorted by (timestamp desc, id desc): the last row's timestamp and id. */
export interface KeysetPosition {
  /** Microseconds since 1970 (PostgreSQL's full precision, so no row in the same millisecond is skipped). */
  at: number;
  id: number;
}

/** The opaque `cursor` of a keyset-paged list (base64url of `[at, id]`); clients send back what they got. */
export function encodeKeysetCursor(position: KeysetPosition): string {
  return btoa(JSON.stringify([position.at, position.id]))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function decodeKeysetCursor(value: string): KeysetPosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(value)) return null;
  try {
    const parsed: unknown = JSON.parse(atob(value.replace(/-/g, "+").replace(/_/g, "/")));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [at, id] = parsed as unknown[];
    if (typeof at !== "number" || !Number.isSafeInteger(at) || at < 0) return null;
    if (typeof id !== "number" || !Number.isInteger(id) || id <= 0 || id > 2_147_483_647) return null;
    return { at, id };
  } catch {
    return null;
  }
}

/** Query param carrying a keyset cursor; anything that is not one the server made is a 400. */
export const keysetCursorParam = z
  .string()
  .max(200)
  .transform((value, ctx) => {
    const position = decodeKeysetCursor(value);
    if (!position) {
      ctx.addIssue({ code: "custom", message: "Invalid cursor" });
      return z.NEVER;
    }
    return position;
  });
