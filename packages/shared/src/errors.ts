/** Error codes of spec §8 plus the few Balcão adds (documented in docs/api.md). */
export const ERROR_CODES = [
  "ERR_NO_OTHER_WHATSAPP",
  "ERR_NO_DEF_WAPP_FOUND",
  "ERR_WAPP_NOT_INITIALIZED",
  "ERR_WAPP_CHECK_CONTACT",
  "ERR_WAPP_INVALID_CONTACT",
  "ERR_WAPP_DOWNLOAD_MEDIA",
  "ERR_INVALID_CREDENTIALS",
  "ERR_SENDING_WAPP_MSG",
  "ERR_DELETE_WAPP_MSG",
  "ERR_OTHER_OPEN_TICKET",
  "ERR_SESSION_EXPIRED",
  "ERR_USER_CREATION_DISABLED",
  "ERR_NO_PERMISSION",
  "ERR_DUPLICATED_CONTACT",
  "ERR_NO_SETTING_FOUND",
  "ERR_NO_CONTACT_FOUND",
  "ERR_NO_TICKET_FOUND",
  "ERR_NO_USER_FOUND",
  "ERR_NO_WAPP_FOUND",
  "ERR_CREATING_MESSAGE",
  "ERR_CREATING_TICKET",
  "ERR_FETCH_WAPP_MSG",
  "ERR_QUEUE_COLOR_ALREADY_EXISTS",
  "ERR_WAPP_GREETING_REQUIRED",
  // Balcão additions
  "ERR_TOKEN_EXPIRED",
  "ERR_SUBSCRIPTION_EXPIRED",
  "ERR_TOO_MANY_ATTEMPTS",
  "ERR_DUPLICATED_EMAIL",
  "ERR_DUPLICATED_COMPANY",
  "ERR_NO_PLAN_FOUND",
  "ERR_NO_COMPANY_FOUND",
  "ERR_USER_LIMIT_REACHED",
  "ERR_CANNOT_DELETE_SELF",
  "ERR_NO_QUEUE_FOUND",
  "ERR_PAYLOAD_TOO_LARGE",
  "ERR_UNSUPPORTED_MEDIA_TYPE",
  "ERR_NOT_FOUND",
  "ERR_VALIDATION",
  "ERR_INTERNAL",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The JSON body of every 4xx/5xx answer. `error` is a code of ERROR_CODES or a spec text. */
export interface ApiErrorBody {
  error: string;
  /** Field-level messages for validation failures. */
  issues?: { path: string; message: string }[];
  /** Extra data some errors carry (dueDate for ERR_SUBSCRIPTION_EXPIRED, limit for ERR_USER_LIMIT_REACHED). */
  meta?: Record<string, string | number>;
}
