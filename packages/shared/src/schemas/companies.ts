import { z } from "zod";
import { RECURRENCES } from "../constants";
import { dueDateOrNull } from "../dueDates";
import { boundedText, emailField, idField, listQuery, MSG, nameField, passwordField } from "./common";

/**
 * Sign-up body (spec §7 POST /companies/cadastro). The spec's client also sends recurrence, dueDate,
 * status and campaignsEnabled: they are accepted and ignored, the server decides them (reference defect 5).
 */
export const signupBody = z.object({
  name: nameField,
  email: emailField,
  phone: z.string().trim().max(30, MSG.tooLong).optional().default(""),
  password: passwordField,
  planId: idField,
});
export type SignupBody = z.input<typeof signupBody>;

export const signupResponse = z.object({
  companyId: z.number(),
  userId: z.number(),
});
export type SignupResponse = z.infer<typeof signupResponse>;

export const companyNameField = boundedText(2, 100);

/** Booleans as the spec's clients send them: true/false, "true"/"false", or the sign-up's "t"/"f". */
export const looseBoolean = z
  .union([z.boolean(), z.enum(["true", "false", "t", "f", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "t" || v === "1");

/**
 * A company's due date: yyyy-MM-dd (a full ISO timestamp is cut to its date), or null for none. Spec §5 has
 * the client send empty or invalid dates as null; the server also takes "" as null and refuses anything else
 * that is not a real calendar date.
 */
export const dueDateField = z.union([z.null(), z.literal(""), z.string().trim().max(40)]).transform((v, ctx) => {
  if (v === null || v === "") return null;
  const date = dueDateOrNull(v);
  if (!date) {
    ctx.addIssue({ code: "custom", message: "Invalid date" });
    return z.NEVER;
  }
  return date;
});

export const recurrenceField = z.enum(RECURRENCES, { error: "Invalid recurrence" });

const companyFields = {
  name: companyNameField,
  email: emailField,
  phone: z.string().trim().max(30, MSG.tooLong).optional().default(""),
  planId: idField,
  status: looseBoolean.optional().default(true),
  dueDate: dueDateField.optional().default(null),
  recurrence: recurrenceField.optional().default("MENSAL"),
  campaignsEnabled: looseBoolean.optional().default(true),
};

/** POST /companies (super): the company and its first admin user (named after the company, logging in with `email`). */
export const companyCreateBody = z.object({ ...companyFields, password: passwordField });
export type CompanyCreateBody = z.input<typeof companyCreateBody>;

/** PUT /companies/:id (super): any subset; an omitted field keeps its value, `dueDate: null` clears it. */
export const companyUpdateBody = z.object({
  name: companyNameField.optional(),
  email: emailField.optional(),
  phone: z.string().trim().max(30, MSG.tooLong).optional(),
  planId: idField.optional(),
  status: looseBoolean.optional(),
  dueDate: dueDateField.optional(),
  recurrence: recurrenceField.optional(),
  campaignsEnabled: looseBoolean.optional(),
});
export type CompanyUpdateBody = z.input<typeof companyUpdateBody>;

export const companyListQuery = listQuery;

export const companyPlanRefDto = z.object({
  id: z.number(),
  name: z.string(),
  value: z.number(),
});
export type CompanyPlanRefDTO = z.infer<typeof companyPlanRefDto>;

export const companyDto = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  planId: z.number().nullable(),
  plan: companyPlanRefDto.nullable(),
  status: z.boolean(),
  campaignsEnabled: z.boolean(),
  /** yyyy-MM-dd, or null when the company never expires. */
  dueDate: z.string().nullable(),
  recurrence: z.enum(RECURRENCES),
  timeZone: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CompanyDTO = z.infer<typeof companyDto>;

/** GET /companies (super): a page of 20, by name. */
export const companyListResponse = z.object({
  companies: z.array(companyDto),
  hasMore: z.boolean(),
});
export type CompanyListResponse = z.infer<typeof companyListResponse>;
