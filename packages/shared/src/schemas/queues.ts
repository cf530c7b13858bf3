import { z } from "zod";
import { boundedText, idField, MSG, nameField } from "./common";

/** Stable weekday keys, Monday first (spec §9: weekday slots Monday to Sunday). */
export const WEEKDAYS_EN = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type WeekdayEn = (typeof WEEKDAYS_EN)[number];

/** Portuguese labels shown by the product for each weekday key. */
export const WEEKDAY_LABELS: Record<WeekdayEn, string> = {
  monday: "Segunda-feira",
  tuesday: "Terça-feira",
  wednesday: "Quarta-feira",
  thursday: "Quinta-feira",
  friday: "Sexta-feira",
  saturday: "Sábado",
  sunday: "Domingo",
};

export const INVALID_TIME = "Horário inválido (HH:mm)";

/** "HH:mm" (00:00–23:59), or "" for a day without hours (open all day). */
export const timeField = z
  .string()
  .trim()
  .regex(/^(?:(?:[01]\d|2[0-3]):[0-5]\d)?$/, INVALID_TIME);

/**
 * One weekday's opening hours (queue and company schedules share it). Rules (docs/api.md):
 * both times empty = open all day; start = end (e.g. 00:00–00:00) = closed all day;
 * start < end = open from start until end; start > end = open overnight (e.g. 22:00–06:00).
 */
export const weeklySlotSchema = z
  .object({
    weekday: z.string().trim().max(20, MSG.tooLong).optional(),
    weekdayEn: z.enum(WEEKDAYS_EN),
    startTime: timeField.default(""),
    endTime: timeField.default(""),
  })
  .refine((s) => (s.startTime === "") === (s.endTime === ""), { message: INVALID_TIME, path: ["endTime"] })
  .transform((s) => ({ weekday: s.weekday || WEEKDAY_LABELS[s.weekdayEn], weekdayEn: s.weekdayEn, startTime: s.startTime, endTime: s.endTime }));

/** A weekday's opening hours as the API answers them (what weeklySlotSchema produces). */
export const weeklySlotDto = z.object({ weekday: z.string(), weekdayEn: z.enum(WEEKDAYS_EN), startTime: z.string(), endTime: z.string() });
export type WeeklySlotDTO = z.infer<typeof weeklySlotDto>;

export const DUPLICATED_WEEKDAY = "Dia da semana repetido";

export const weeklyScheduleSchema = z
  .array(weeklySlotSchema)
  .max(7)
  .refine((slots) => new Set(slots.map((s) => s.weekdayEn)).size === slots.length, DUPLICATED_WEEKDAY);

/** Spec §3 defaults of a new queue: Mon–Fri 08:00–18:00, Saturday 08:00–12:00, Sunday 00:00–00:00 (closed). */
export const DEFAULT_QUEUE_SCHEDULES: WeeklySlotDTO[] = WEEKDAYS_EN.map((weekdayEn) => ({
  weekday: WEEKDAY_LABELS[weekdayEn],
  weekdayEn,
  startTime: weekdayEn === "sunday" ? "00:00" : "08:00",
  endTime: weekdayEn === "sunday" ? "00:00" : weekdayEn === "saturday" ? "12:00" : "18:00",
}));

const messageText = z.string().max(10_000, MSG.tooLong);

/** Spec §5: name 2–50 required; colour 3–9 characters required; greetingMessage free. */
export const queueColorField = boundedText(3, 9);

export const queueCreateBody = z.object({
  name: nameField,
  color: queueColorField,
  greetingMessage: messageText.optional().default(""),
  outOfHoursMessage: messageText.optional().default(""),
  /** Fallbacks when the connection has none (the connection's own messages win). */
  complationMessage: messageText.optional().default(""),
  ratingMessage: messageText.optional().default(""),
  /** Omitted on create: DEFAULT_QUEUE_SCHEDULES. */
  schedules: weeklyScheduleSchema.optional(),
  /** Position in the bot's queue menu (lower first; empty = after the numbered ones, by creation). */
  orderQueue: z.coerce.number().int().min(0).max(10_000).nullable().optional(),
});
export type QueueCreateBody = z.input<typeof queueCreateBody>;

export const queueUpdateBody = z.object({
  name: nameField.optional(),
  color: queueColorField.optional(),
  greetingMessage: messageText.optional(),
  outOfHoursMessage: messageText.optional(),
  complationMessage: messageText.optional(),
  ratingMessage: messageText.optional(),
  schedules: weeklyScheduleSchema.optional(),
  orderQueue: z.coerce.number().int().min(0).max(10_000).nullable().optional(),
});
export type QueueUpdateBody = z.input<typeof queueUpdateBody>;

/** `GET /queue?companyId=` — companyId is honoured for super users only. */
export const queueListQuery = z.object({ companyId: idField.optional() });

export const queueDto = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  color: z.string(),
  greetingMessage: z.string(),
  outOfHoursMessage: z.string(),
  complationMessage: z.string(),
  ratingMessage: z.string(),
  schedules: z.array(weeklySlotDto),
  orderQueue: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type QueueDTO = z.infer<typeof queueDto>;

/** Socket `queue` event (company room). */
export type QueueEvent = { action: "create" | "update"; queue: QueueDTO } | { action: "delete"; queueId: number };

// ─── Queue options (the chatbot's option tree) ─────────────────────────────────────────────────

export const INVALID_OPTION = "A opção deve ser um número de 1 a 999";

/** The number the customer types: 1–999 ("0" and "#" are the bot's navigation keys). */
export const queueOptionNumberField = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .pipe(z.string().regex(/^0*[1-9]\d{0,2}$/, INVALID_OPTION))
  .transform((v) => String(Number(v)));

export const queueOptionCreateBody = z.object({
  queueId: idField,
  /** null/omitted/-1 = a root option of the queue. */
  parentId: z
    .union([idField, z.literal(-1), z.literal("-1"), z.null()])
    .optional()
    .transform((v) => (v === undefined || v === null || v === -1 || v === "-1" ? null : v)),
  title: boundedText(1, 100),
  message: messageText.optional().default(""),
  /** Omitted: the next free number among the siblings. */
  option: queueOptionNumberField.optional(),
});
export type QueueOptionCreateBody = z.input<typeof queueOptionCreateBody>;

export const queueOptionUpdateBody = z.object({
  /** Moves the option under another node of the same queue (null/-1 = to the root level). */
  parentId: z
    .union([idField, z.literal(-1), z.literal("-1"), z.null()])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v === -1 || v === "-1" ? null : v)),
  title: boundedText(1, 100).optional(),
  message: messageText.optional(),
  option: queueOptionNumberField.optional(),
});
export type QueueOptionUpdateBody = z.input<typeof queueOptionUpdateBody>;

/** `GET /queue-options?queueId&parentId`: parentId -1 = root options; omitted = the whole tree (roots with children). */
export const queueOptionListQuery = z.object({
  queueId: idField,
  parentId: z
    .union([z.literal("-1"), z.literal(-1), idField])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "-1" || v === -1 ? null : v)),
});

export const queueOptionDto = z
  .object({
    id: z.number(),
    queueId: z.number(),
    parentId: z.number().nullable(),
    title: z.string(),
    message: z.string(),
    option: z.string(),
    /** The whole subtree under this option, ordered by option number. */
    get children() {
      return z.array(queueOptionDto);
    },
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "QueueOption" });
export type QueueOptionDTO = z.infer<typeof queueOptionDto>;

// ─── Company opening hours ────────────────────────────────────────────────────────────────────

export const companySchedulesBody = z.object({ schedules: weeklyScheduleSchema });
export type CompanySchedulesBody = z.input<typeof companySchedulesBody>;

export const companySchedulesDto = z.object({
  companyId: z.number(),
  /** Always the seven weekdays, Monday first, a day never saved has empty times (open). */
  schedules: z.array(weeklySlotDto),
});
export type CompanySchedulesDTO = z.infer<typeof companySchedulesDto>;
