import { z } from "zod";
import { CONNECTION_STATUSES } from "../constants";
import { CONNECTION_REASONS } from "./connectionHealth";
import { LANGUAGES } from "../languages";

/**
 * The admins' notification bell (issue 21, item 3): the connection alerts of the company (connection_events
 * of kind 'alert'), newest first, with a per-user read marker.
 */
export const notificationDto = z.object({
  /** The alert's connection_events id. */
  id: z.number(),
  connectionId: z.number(),
  /** The connection's current name. */
  name: z.string(),
  /** The status the connection was in when the admins were alerted. */
  status: z.enum(CONNECTION_STATUSES),
  reason: z.enum(CONNECTION_REASONS).nullable(),
  /** When the alert was raised (ISO). */
  at: z.string(),
  read: z.boolean(),
});
export type NotificationDTO = z.infer<typeof notificationDto>;

export const notificationListQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

export const notificationListResponse = z.object({
  notifications: z.array(notificationDto),
  /** Alerts newer than the caller's read marker (all pages). */
  unreadCount: z.number(),
  hasMore: z.boolean(),
});
export type NotificationListResponse = z.infer<typeof notificationListResponse>;

/** The id of the newest alert now read by the caller (0: none yet). */
export const notificationsReadResponse = z.object({ lastReadId: z.number() });
export type NotificationsReadResponse = z.infer<typeof notificationsReadResponse>;

/** Company SMTP setting for the connection-alert e-mails. The password is write-only. */
const emailList = z.array(z.string().trim().toLowerCase().email("Invalid email").max(254)).max(20);

export const smtpSettingsBody = z.object({
  enabled: z.boolean(),
  host: z
    .string()
    .trim()
    .max(253, "Too Long!")
    .regex(/^[A-Za-z0-9.:[\]-]*$/, "Invalid host"),
  port: z.coerce.number().int().min(1).max(65535),
  /** TLS from the start (port 465); otherwise STARTTLS when the server offers it. */
  secure: z.boolean(),
  user: z.string().trim().max(254, "Too Long!"),
  /** Omitted: keep the stored password; "" clears it. Never returned. */
  password: z.string().max(500, "Too Long!").optional(),
  from: z.union([z.literal(""), z.string().trim().email("Invalid email").max(254)]),
  /** Empty: the company's admins' e-mails. */
  recipients: emailList,
  /** Language of the e-mails (default pt). */
  language: z.enum(LANGUAGES).optional().default("pt"),
});
export type SmtpSettingsBody = z.input<typeof smtpSettingsBody>;

export const smtpSettingsDto = z.object({
  enabled: z.boolean(),
  host: z.string(),
  port: z.number(),
  secure: z.boolean(),
  user: z.string(),
  /** A password is stored (its value is never returned). */
  hasPassword: z.boolean(),
  from: z.string(),
  recipients: z.array(z.string()),
  language: z.enum(LANGUAGES),
});
export type SmtpSettingsDTO = z.infer<typeof smtpSettingsDto>;

export const smtpTestResponse = z.object({ recipients: z.array(z.string()) });
export type SmtpTestResponse = z.infer<typeof smtpTestResponse>;
