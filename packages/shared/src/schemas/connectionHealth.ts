import { z } from "zod";
import { CONNECTION_STATUSES, type ConnectionStatus } from "../constants";

/**
 * Why a connection changed status, in provider-neutral terms (issue 21). Providers map their own close codes
 * to these (Baileys: channels.md §2.3); the web app shows each in plain language.
 */
export const CONNECTION_REASONS = [
  "loggedOut",
  "replaced",
  "badSession",
  "restartRequired",
  "connectionLost",
  "unreachable",
  "connectionClosed",
  "serviceUnavailable",
  "multideviceMismatch",
  "forbidden",
  "qrTimeout",
  "pairingCodeExpired",
  "startFailed",
  "requested",
  "unknown",
] as const;
export type ConnectionReason = (typeof CONNECTION_REASONS)[number];

/** Reasons after which WhatsApp will not let the session back in: the admin must pair again (QR or code). */
export const SCAN_AGAIN_REASONS: readonly ConnectionReason[] = ["loggedOut", "badSession", "multideviceMismatch", "qrTimeout", "pairingCodeExpired"];

/** Company setting: minutes a connection may stay out of CONNECTED before its admins are alerted; "0" = never. */
export const CONNECTION_ALERT_SETTING = "connectionAlertMinutes";
export const CONNECTION_ALERT_MINUTES = ["0", "1", "2", "5", "10", "15", "30", "60"] as const;
export const CONNECTION_ALERT_DEFAULT_MINUTES = 5;

export const connectionHealthEventDto = z.object({
  at: z.string(),
  /** `status`: a status change, `alert`: the admins were alerted that the connection stayed down. */
  kind: z.enum(["status", "alert"]),
  status: z.enum(CONNECTION_STATUSES),
  reason: z.enum(CONNECTION_REASONS).nullable(),
  /** The provider's own words (e.g. "WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)"). */
  detail: z.string().nullable(),
  retries: z.number(),
});
export type ConnectionHealthEventDTO = z.infer<typeof connectionHealthEventDto>;

export const connectionHealthDto = z.object({
  connectionId: z.number(),
  status: z.enum(CONNECTION_STATUSES),
  retries: z.number(),
  /** The reason of the current status, when it has one. */
  reason: z.enum(CONNECTION_REASONS).nullable(),
  /** When the current status began (its first timeline entry), null when never recorded. */
  since: z.string().nullable(),
  /** The session will not come back by itself: pair again (QR or phone code). */
  needsScan: z.boolean(),
  /** Milliseconds spent CONNECTED in the last 24 hours and 7 days. */
  connectedMs: z.object({ last24h: z.number(), last7d: z.number() }),
  /** Messages received (in) and sent (out) through this connection. */
  messages: z.object({ last24h: z.object({ in: z.number(), out: z.number() }), last7d: z.object({ in: z.number(), out: z.number() }) }),
  lastError: z.object({ at: z.string(), reason: z.enum(CONNECTION_REASONS).nullable(), detail: z.string().nullable() }).nullable(),
  /** Newest first, at most 100 entries of the last 7 days. */
  timeline: z.array(connectionHealthEventDto),
});
export type ConnectionHealthDTO = z.infer<typeof connectionHealthDto>;

/** Socket event `whatsappHealthAlert` (admins of the company). */
export interface ConnectionHealthAlertDTO {
  connectionId: number;
  name: string;
  status: ConnectionStatus;
  reason: ConnectionReason | null;
  /** When the connection left CONNECTED. */
  since: string;
  minutes: number;
  needsScan: boolean;
}

/** POST /whatsappsession/:id/pairing-code: the company's number, with country code (digits; + and spaces allowed). */
export const pairingCodeBody = z.object({
  phoneNumber: z
    .string()
    .trim()
    .transform((v) => v.replace(/[\s()+-]/g, ""))
    .pipe(z.string().regex(/^\d{10,15}$/, "Invalid number")),
});
export type PairingCodeBody = z.input<typeof pairingCodeBody>;

export const pairingCodeDto = z.object({
  /** 8 characters, shown as XXXX-XXXX. */
  code: z.string(),
  expiresAt: z.string(),
});
export type PairingCodeDTO = z.infer<typeof pairingCodeDto>;
