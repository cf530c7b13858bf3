import { z } from "zod";
import { boundedText, emailField, idField, MSG, nameField, passwordField } from "./common";

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
