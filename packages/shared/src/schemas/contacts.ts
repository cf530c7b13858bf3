import { z } from "zod";
import { LIMITS } from "../constants";
import { boundedText, idField, listQuery, MSG, nameField } from "./common";

/** Shown when a number has the right length but is not a phone number (normalization failed). */
export const INVALID_NUMBER = "Invalid number";

/** Spec §5: 8 to 50 characters (country code + area code + number); masks like "(11) 9…" are accepted. */
export const contactNumberField = boundedText(LIMITS.numberMin, LIMITS.numberMax).regex(/^[0-9+()\-.\s/]+$/, INVALID_NUMBER);

/** Spec §5: "email valid when given": blank (or null) means none. */
export const optionalEmailField = z
  .union([z.null(), z.string().trim().toLowerCase().max(254, MSG.tooLong)])
  .transform((v) => v ?? "")
  .refine((v) => v === "" || z.email().safeParse(v).success, MSG.invalidEmail);

export const contactExtraInfoField = z.object({
  /** Ignored: rows are replaced as a whole on every save. */
  id: z.unknown().optional(),
  name: boundedText(1, 100),
  value: z.string().trim().max(1000, MSG.tooLong).optional().default(""),
});

export const contactCreateBody = z.object({
  name: nameField,
  number: contactNumberField,
  email: optionalEmailField.optional().default(""),
  extraInfo: z.array(contactExtraInfoField).max(50).optional().default([]),
});
export type ContactCreateBody = z.input<typeof contactCreateBody>;

/** PUT sends the whole form, but a partial body (e.g. only the name from the ticket drawer) is fine. */
export const contactUpdateBody = z.object({
  name: nameField.optional(),
  number: contactNumberField.optional(),
  email: optionalEmailField.optional(),
  /** When given, replaces the contact's extra info rows. */
  extraInfo: z.array(contactExtraInfoField).max(50).optional(),
});
export type ContactUpdateBody = z.input<typeof contactUpdateBody>;

export const contactListQuery = listQuery;
/** `companyId` is honoured for super users only. */
export const contactListSimpleQuery = z.object({ companyId: idField.optional() });

export const contactExtraInfoDto = z.object({
  id: z.number(),
  name: z.string(),
  value: z.string(),
});
export type ContactExtraInfoDTO = z.infer<typeof contactExtraInfoDto>;

export const contactDto = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  /** E.164 digits without '+' (group id for groups, null for contacts known only by a WhatsApp LID). */
  number: z.string().nullable(),
  email: z.string(),
  profilePicUrl: z.string(),
  isGroup: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Present on GET /contacts/:id, create and update answers. */
  extraInfo: z.array(contactExtraInfoDto).optional(),
});
export type ContactDTO = z.infer<typeof contactDto>;

export const contactListResponse = z.object({
  contacts: z.array(contactDto),
  hasMore: z.boolean(),
});
export type ContactListResponse = z.infer<typeof contactListResponse>;

export const contactImportResponse = z.object({
  /** Contacts created by this import. */
  created: z.number(),
  /** Address-book entries that matched an existing contact (identities attached, nothing else changed). */
  existing: z.number(),
  /** Entries that are not phone numbers (groups, LIDs without a phone). */
  skipped: z.number(),
});
export type ContactImportResponse = z.infer<typeof contactImportResponse>;
