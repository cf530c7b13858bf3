import { z } from "zod";
import { MSG } from "./common";
import { looseBoolean } from "./companies";

/** Spec §9: 1 high (red), 2 medium (orange), 3 low (grey); new ones are low and active. */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
export type AnnouncementPriority = (typeof ANNOUNCEMENT_PRIORITIES)[number];
export const ANNOUNCEMENT_DEFAULT_PRIORITY: AnnouncementPriority = 3;
/** Attachments (spec §5): .png, .jpg, .jpeg, checked by their bytes too; at most this size. */
export const ANNOUNCEMENT_MEDIA_EXTENSIONS = [".png", ".jpg", ".jpeg"] as const;
export const ANNOUNCEMENT_MEDIA_TYPES = ["image/png", "image/jpeg"] as const;
export const ANNOUNCEMENT_MEDIA_MAX_BYTES = 5 * 1024 * 1024;

const required = (max: number) => z.string({ error: MSG.obrigatorio }).trim().min(1, MSG.obrigatorio).max(max, MSG.tooLong);

const priorityField = z.coerce
  .number({ error: "Invalid priority" })
  .int("Invalid priority")
  .min(1, "Invalid priority")
  .max(3, "Invalid priority")
  .transform((v) => v as AnnouncementPriority);

export const announcementCreateBody = z.object({
  title: required(200),
  text: required(5000),
  priority: priorityField.optional().default(ANNOUNCEMENT_DEFAULT_PRIORITY),
  status: looseBoolean.optional().default(true),
});
export type AnnouncementCreateBody = z.input<typeof announcementCreateBody>;

export const announcementUpdateBody = z.object({
  title: required(200).optional(),
  text: required(5000).optional(),
  priority: priorityField.optional(),
  status: looseBoolean.optional(),
});
export type AnnouncementUpdateBody = z.input<typeof announcementUpdateBody>;

export const announcementDto = z.object({
  id: z.number(),
  title: z.string(),
  text: z.string(),
  priority: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  /** Authorised URL of the attached image (any signed-in user may fetch it), or null. */
  mediaPath: z.string().nullable(),
  /** The attachment's original file name, or null ('Sem anexo'). */
  mediaName: z.string().nullable(),
  status: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Whether the signed-in user has opened it (list and show answers only, events carry no per-user state). */
  read: z.boolean().optional(),
});
export type AnnouncementDTO = z.infer<typeof announcementDto>;

/**
 * GET /announcements/: a page of 20, newest first. Super users see every announcement (the management page);
 * everyone else only active ones (the top-bar popover). `unreadCount` counts the caller's unread active ones.
 */
export const announcementListResponse = z.object({
  records: z.array(announcementDto),
  hasMore: z.boolean(),
  unreadCount: z.number(),
});
export type AnnouncementListResponse = z.infer<typeof announcementListResponse>;

/** `announcement` socket event, sent to every company (spec §7). */
export type AnnouncementEvent = { action: "create" | "update"; record: AnnouncementDTO } | { action: "delete"; id: number };
