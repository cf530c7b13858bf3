import { z } from "zod";
import { blankAsUnset, idField, listQuery, MSG } from "./common";

/**
 * Scheduled messages (spec §3 Schedule, §4, §5). States, as the reference names them:
 * PENDENTE waits for its time; AGENDADA is due and being sent by the process that runs its connection;
 * ENVIADA was handed to WhatsApp (sentAt); ERRO failed (lastError holds an error-catalogue code).
 */
export const SCHEDULE_STATUSES = ["PENDENTE", "AGENDADA", "ENVIADA", "ERRO"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** Spec §5: body at least 5 characters; §9 body preview 25 characters; default send time 1 hour ahead. */
export const SCHEDULE_BODY_MIN = 5;
export const SCHEDULE_BODY_MAX = 4096;
export const SCHEDULE_PREVIEW_CHARS = 25;
export const SCHEDULE_DEFAULT_DELAY_MS = 60 * 60 * 1000;
/**
 * A send time this far in the past is still accepted (the browser's clock may lag the server's by a few
 * seconds); anything older is refused with ERR_SCHEDULE_IN_PAST.
 */
export const SCHEDULE_PAST_TOLERANCE_MS = 60 * 1000;

/** Required text: "Obrigatório" when empty, "Mensagem muito curta" under 5 characters (spec §5). */
export const scheduleBodyField = z
  .string({ error: MSG.obrigatorio })
  .trim()
  .min(1, MSG.obrigatorio)
  .min(SCHEDULE_BODY_MIN, MSG.mensagemCurta)
  .max(SCHEDULE_BODY_MAX, MSG.tooLong);

/** An instant with its offset ("2030-01-01T10:00:00-03:00" or "…Z"); blank or missing is "Obrigatório". */
export const scheduleSendAtField = z.preprocess(
  (v) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v),
  z
    .string({ error: MSG.obrigatorio })
    .pipe(z.iso.datetime({ offset: true, error: "Invalid date" }))
    .transform((s) => new Date(s)),
);

const requiredId = z
  .preprocess((v) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v), idField.optional())
  .refine((v) => v !== undefined, MSG.obrigatorio);

export const scheduleCreateBody = z.object({
  body: scheduleBodyField,
  contactId: requiredId.transform((v) => v!),
  sendAt: scheduleSendAtField,
  /** From the ticket's options menu: the message goes out on that ticket's connection. */
  ticketId: blankAsUnset(idField),
});
export type ScheduleCreateBody = z.input<typeof scheduleCreateBody>;

/** PUT sends the whole dialog; a schedule already sent cannot change (ERR_SCHEDULE_ALREADY_SENT). */
export const scheduleUpdateBody = z.object({
  body: scheduleBodyField.optional(),
  contactId: requiredId.transform((v) => v!).optional(),
  sendAt: scheduleSendAtField.optional(),
  ticketId: blankAsUnset(idField),
});
export type ScheduleUpdateBody = z.input<typeof scheduleUpdateBody>;

export const scheduleListQuery = listQuery.extend({
  /** Only this contact's schedules. */
  contactId: idField.optional(),
});

export const scheduleContactDto = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string().nullable(),
});
export type ScheduleContactDTO = z.infer<typeof scheduleContactDto>;

export const scheduleDto = z.object({
  id: z.number(),
  companyId: z.number(),
  body: z.string(),
  /** ISO instants. */
  sendAt: z.string(),
  sentAt: z.string().nullable(),
  status: z.enum(SCHEDULE_STATUSES),
  contactId: z.number(),
  contact: scheduleContactDto.nullable(),
  ticketId: z.number().nullable(),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  connectionId: z.number().nullable(),
  /** Why the last attempt failed: an error-catalogue code (ERR_WAPP_NOT_INITIALIZED…), null otherwise. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ScheduleDTO = z.infer<typeof scheduleDto>;

export const scheduleListResponse = z.object({
  schedules: z.array(scheduleDto),
  hasMore: z.boolean(),
});
export type ScheduleListResponse = z.infer<typeof scheduleListResponse>;

/** Socket event `schedule` to the company room. */
export type ScheduleEvent = { action: "create" | "update"; schedule: ScheduleDTO } | { action: "delete"; scheduleId: number };
