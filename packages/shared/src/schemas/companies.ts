import { z } from "zod";
import { RECURRENCES, type Recurrence } from "../constants";
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

export interface SignupResponse {
  companyId: number;
  userId: number;
}

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

export interface CompanyPlanRefDTO {
  id: number;
  name: string;
  value: number;
}

export interface CompanyDTO {
  id: number;
  name: string;
  email: string;
  phone: string;
  planId: number | null;
  plan: CompanyPlanRefDTO | null;
  status: boolean;
  campaignsEnabled: boolean;
  /** yyyy-MM-dd, or null when the company never expires. */
  dueDate: string | null;
  recurrence: Recurrence;
  timeZone: string;
  createdAt: string;
  updatedAt: string;
}

/** GET /companies (super): a page of 20, by name. */
export interface CompanyListResponse {
  companies: CompanyDTO[];
  hasMore: boolean;
}
