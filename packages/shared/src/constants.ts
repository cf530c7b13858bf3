/** Business constants of spec §9, shared by server and web. */
/** Spec §1/§6: attendants (user), supervisors (a user plus the Kanban switch and show-all over its own queues), admins. */
export const PROFILES = ["admin", "supervisor", "user"] as const;
export type Profile = (typeof PROFILES)[number];

/** A stored profile as one of PROFILES; anything unknown is the least privileged. */
export function profileOf(value: string | null | undefined): Profile {
  return value === "admin" || value === "supervisor" ? value : "user";
}

export const RECURRENCES = ["MENSAL", "BIMESTRAL", "TRIMESTRAL", "SEMESTRAL", "ANUAL"] as const;
export type Recurrence = (typeof RECURRENCES)[number];
/** Months added to a due date for each recurrence. */
export const RECURRENCE_MONTHS: Record<Recurrence, number> = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
};

export const LIMITS = {
  nameMin: 2,
  nameMax: 50,
  passwordMin: 5,
  passwordMax: 50,
  numberMin: 8,
  numberMax: 50,
  searchMax: 200,
} as const;

export const SIGNUP_TRIAL_DAYS = 3;
export const SUBSCRIPTION_WARNING_DAYS = 5;
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
export const SOCKET_PING_MS = 18_000;
export const USER_STATUS_INTERVAL_MS = 300_000;
export const ANOTHER_LOGIN_LOGOUT_DELAY_MS = 1_000;
export const PAGE_SIZE = 20;
export const MOBILE_BREAKPOINT_PX = 600;

export const CONNECTION_STATUSES = ["qrcode", "PAIRING", "OPENING", "CONNECTED", "DISCONNECTED", "TIMEOUT"] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
/**
 * Statuses that make the drawer's connections item show an exclamation badge (spec §2). Here, not beside the
 * connection schemas: the web app's layout reads it, and a module of zod schemas would bring zod with it (issue 20).
 */
export const CONNECTION_ALERT_STATUSES: readonly ConnectionStatus[] = ["qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING"];

export const TICKET_STATUSES = ["pending", "open", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** Company setting keys (spec §3, §9) with the value a new company starts with. */
export const DEFAULT_COMPANY_SETTINGS: Record<string, string> = {
  userRating: "disabled",
  scheduleType: "disabled",
  call: "enabled",
  CheckMsgIsGroup: "enabled",
  sendGreetingAccepted: "disabled",
  sendMsgTransfTicket: "disabled",
  chatBotType: "text",
  userCreation: "disabled",
  campaignsEnabled: "true",
  // Minutes out of CONNECTED before the admins get a connection alert (issue 21).
  connectionAlertMinutes: "5",
  // Replies sent while a connection is down wait for it (issue 21); "fail" marks them failed with retry.
  sendWhileDisconnected: "queue",
};
