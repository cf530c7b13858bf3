import { z } from "zod";
import { blankAsUnset, boundedText, idField, listQuery, MSG } from "./common";

/**
 * Campaigns (spec §2, §3 Campaign / Campaign settings, §4 campaign states, §5, §7, §9). Routes under /api:
 *   GET    /campaigns/?searchParam&pageNumber      → CampaignListResponse { records, hasMore }
 *   GET    /campaigns/:id                          → CampaignDetailDTO (campaign + counts)
 *   GET    /campaigns/:id/shipping?pageNumber&searchParam → CampaignShippingListResponse { records, hasMore }
 *   GET    /campaigns/:id/export                   → text/csv (';') of the shipping rows
 *   POST   /campaigns          (CampaignBody)      → 201 CampaignDTO
 *   PUT    /campaigns/:id      (CampaignBody)      → CampaignDTO
 *   DELETE /campaigns/:id                          → 204
 *   POST   /campaigns/:id/cancel | /restart        → CampaignDTO
 *   POST   /campaigns/:id/media-upload (multipart `file`) → CampaignDTO;  DELETE …/media-upload → CampaignDTO
 *   GET    /campaign-settings                      → CampaignSettingRow[] (every key, defaults filled)
 *   POST   /campaign-settings  ({ settings })      → CampaignSettingRow[]
 * Socket event `campaign` (admins of the company): CampaignEvent.
 */
export const CAMPAIGN_STATUSES = ["INATIVA", "PROGRAMADA", "EM_ANDAMENTO", "CANCELADA", "FINALIZADA"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Spec §9: up to 5 messages and 5 confirmation messages. */
export const CAMPAIGN_MESSAGE_SLOTS = [1, 2, 3, 4, 5] as const;
export const CAMPAIGN_MESSAGE_MAX = 4096;
/** Spec §4/§9: a PROGRAMADA campaign is editable while its schedule is more than 1 hour away. */
export const CAMPAIGN_EDIT_LEAD_MS = 60 * 60 * 1000;
/** Spec §4/§9: the report refreshes 5 s after a FINALIZADA event. */
export const CAMPAIGN_REPORT_REFRESH_MS = 5_000;
export const CAMPAIGN_SHIPPING_PAGE_SIZE = 50;
export const CAMPAIGNS_PAGE_SIZE = 20;

/** Spec §9 options (seconds / messages) and defaults. */
export const CAMPAIGN_MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const;
export const CAMPAIGN_LONGER_INTERVAL_AFTER_OPTIONS = [0, 5, 10, 15, 20] as const;
export const CAMPAIGN_GREATER_INTERVAL_OPTIONS = [0, 20, 30, 40, 50, 60] as const;

/** The built-in variables every message may use (from the list item). */
export const CAMPAIGN_BUILTIN_VARIABLES = ["nome", "numero", "email"] as const;

/** Message texts of the campaign's form: "Required", "Too Short!", "Too Long!" (spec §5). */
export const CAMPAIGN_MSG = {
  ...MSG,
  /** A variable key already in the list (spec §5: an existing key is not added again). */
  duplicatedVariable: "ERR_CAMPAIGN_DUPLICATED_VARIABLE",
  invalidVariableKey: "Invalid key",
  invalidDate: "Invalid date",
} as const;

const messageField = z.string().max(CAMPAIGN_MESSAGE_MAX, MSG.tooLong).optional().default("");

/** "" or null = not scheduled; otherwise an instant with its offset ("2030-01-01T10:00:00-03:00" or "…Z"). */
export const campaignScheduledAtField = z.preprocess(
  (v) => (v === undefined ? undefined : v === null || (typeof v === "string" && v.trim() === "") ? null : v),
  z
    .string()
    .pipe(z.iso.datetime({ offset: true, error: CAMPAIGN_MSG.invalidDate }))
    .transform((s) => new Date(s))
    .nullable()
    .optional(),
);

const optionalId = z.preprocess((v) => (v === null || (typeof v === "string" && v.trim() === "") ? null : v), idField.nullable().optional());

const booleanish = z
  .union([z.boolean(), z.enum(["true", "false"])])
  .transform((v) => v === true || v === "true")
  .optional();

/**
 * POST and PUT body (the spec's form sends the whole campaign). `status` is not an input: a campaign with a
 * `scheduledAt` becomes PROGRAMADA, without one INATIVA. A scheduled campaign needs a connection
 * (`whatsappId`), a contact list and at least one message (issues on those fields, 'Obrigatório'); with
 * `confirmation` it also needs a confirmation message.
 */
export const campaignBody = z
  .object({
    name: boundedText(2, 50),
    message1: messageField,
    message2: messageField,
    message3: messageField,
    message4: messageField,
    message5: messageField,
    confirmationMessage1: messageField,
    confirmationMessage2: messageField,
    confirmationMessage3: messageField,
    confirmationMessage4: messageField,
    confirmationMessage5: messageField,
    confirmation: booleanish,
    scheduledAt: campaignScheduledAtField,
    whatsappId: optionalId,
    contactListId: optionalId,
  })
  .superRefine((b, ctx) => {
    if (!b.scheduledAt) return;
    if (!b.whatsappId) ctx.addIssue({ code: "custom", path: ["whatsappId"], message: MSG.obrigatorio });
    if (!b.contactListId) ctx.addIssue({ code: "custom", path: ["contactListId"], message: MSG.obrigatorio });
    if (![b.message1, b.message2, b.message3, b.message4, b.message5].some((m) => m.trim() !== ""))
      ctx.addIssue({ code: "custom", path: ["message1"], message: MSG.obrigatorio });
    if (
      b.confirmation &&
      ![b.confirmationMessage1, b.confirmationMessage2, b.confirmationMessage3, b.confirmationMessage4, b.confirmationMessage5].some(
        (m) => m.trim() !== "",
      )
    )
      ctx.addIssue({ code: "custom", path: ["confirmationMessage1"], message: MSG.obrigatorio });
  });
export type CampaignBody = z.input<typeof campaignBody>;
export type CampaignBodyOutput = z.output<typeof campaignBody>;

export const campaignListQuery = listQuery;

export const campaignShippingQuery = listQuery.extend({
  /** Only rows in this state. */
  status: blankAsUnset(z.enum(["pending", "confirmation", "confirmed", "sending", "delivered", "failed"])),
});

/** Custom variable of the settings page: `{key}` in a message becomes `value`. */
export const campaignVariable = z.object({
  key: z
    .string({ error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .max(30, MSG.tooLong)
    .regex(/^[\p{L}\p{N}_-]+$/u, CAMPAIGN_MSG.invalidVariableKey),
  value: z.string().max(1000, MSG.tooLong).default(""),
});
export type CampaignVariable = z.output<typeof campaignVariable>;

const intervalOption = (options: readonly number[]) =>
  z.coerce
    .number()
    .int()
    .refine((n) => options.includes(n), `One of ${options.join(", ")}`);

export const campaignSettingsShape = z.object({
  messageInterval: intervalOption(CAMPAIGN_MESSAGE_INTERVAL_OPTIONS),
  longerIntervalAfter: intervalOption(CAMPAIGN_LONGER_INTERVAL_AFTER_OPTIONS),
  greaterInterval: intervalOption(CAMPAIGN_GREATER_INTERVAL_OPTIONS),
  variables: z
    .array(campaignVariable)
    .max(100)
    .superRefine((vars, ctx) => {
      const seen = new Set<string>();
      vars.forEach((v, i) => {
        const key = v.key.toLowerCase();
        if (seen.has(key) || (CAMPAIGN_BUILTIN_VARIABLES as readonly string[]).includes(key))
          ctx.addIssue({ code: "custom", path: [i, "key"], message: CAMPAIGN_MSG.duplicatedVariable });
        seen.add(key);
      });
    }),
});
export type CampaignSettings = z.output<typeof campaignSettingsShape>;

export const CAMPAIGN_SETTINGS_DEFAULTS: CampaignSettings = { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60, variables: [] };

/** POST /campaign-settings: `{ settings: {…} }`; keys left out keep their saved value. */
export const campaignSettingsBody = z.object({ settings: campaignSettingsShape.partial() });
export type CampaignSettingsBody = z.input<typeof campaignSettingsBody>;

/** One row of GET /campaign-settings; `value` is the parsed JSON value (number, or the variables array). */
export const campaignSettingRow = z.union([
  z.object({ key: z.enum(["messageInterval", "longerIntervalAfter", "greaterInterval"]), value: z.number() }),
  z.object({ key: z.literal("variables"), value: z.array(campaignVariable) }),
]);
export type CampaignSettingRow = z.infer<typeof campaignSettingRow>;

/** The settings object from GET /campaign-settings' rows (defaults for missing keys). */
export function campaignSettingsFromRows(rows: readonly { key: string; value: unknown }[]): CampaignSettings {
  const out: CampaignSettings = { ...CAMPAIGN_SETTINGS_DEFAULTS, variables: [] };
  for (const r of rows) {
    if (r.key === "variables" && Array.isArray(r.value)) out.variables = r.value as CampaignVariable[];
    else if ((r.key === "messageInterval" || r.key === "longerIntervalAfter" || r.key === "greaterInterval") && typeof r.value === "number")
      out[r.key] = r.value;
  }
  return out;
}

/**
 * `{nome}`, `{numero}`, `{email}` and the settings' custom variables replaced in a message; unknown names
 * stay as typed. Keys match case-insensitively.
 */
export function renderCampaignMessage(
  text: string,
  item: { name: string; number: string; email: string },
  variables: readonly { key: string; value: string }[] = [],
): string {
  const values = new Map<string, string>();
  for (const v of variables) values.set(v.key.toLowerCase(), v.value);
  values.set("nome", item.name);
  values.set("numero", item.number);
  values.set("email", item.email);
  return text.replace(/\{([\p{L}\p{N}_-]+)\}/gu, (whole, name: string) => values.get(name.toLowerCase()) ?? whole);
}

/** Spec §4: INATIVA, PROGRAMADA more than 1 hour ahead, and CANCELADA are editable. */
export function isCampaignEditable(c: { status: CampaignStatus; scheduledAt: string | Date | null }, now: Date = new Date()): boolean {
  if (c.status === "INATIVA" || c.status === "CANCELADA") return true;
  if (c.status !== "PROGRAMADA") return false;
  if (!c.scheduledAt) return true;
  return new Date(c.scheduledAt).getTime() - now.getTime() > CAMPAIGN_EDIT_LEAD_MS;
}

export const campaignDto = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  message1: z.string(),
  message2: z.string(),
  message3: z.string(),
  message4: z.string(),
  message5: z.string(),
  confirmationMessage1: z.string(),
  confirmationMessage2: z.string(),
  confirmationMessage3: z.string(),
  confirmationMessage4: z.string(),
  confirmationMessage5: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  confirmation: z.boolean(),
  /** ISO instants. */
  scheduledAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  whatsappId: z.number().nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string(), status: z.string() }).nullable(),
  contactListId: z.number().nullable(),
  contactList: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** Media id (fetch `/api/media/{mediaPath}` with the bearer token) and its original file name. */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  /**    * Why a running campaign is not sending right now (an error-catalogue code, e.g. ERR_WAPP_NOT_INITIALIZED    * when its connection is disconnected), null while it sends. Sending resumes by itself on reconnection.    */
  pauseReason: z.string().nullable(),
  /** Whether the form may save it now (spec §4). */
  editable: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CampaignDTO = z.infer<typeof campaignDto>;

/** Report counters (spec §2 report cards). */
export const campaignCounts = z.object({
  /** Shipping rows (one per list item), or the list's items before the campaign has started. */
  validContacts: z.number(),
  confirmationRequested: z.number(),
  confirmations: z.number(),
  delivered: z.number(),
  failed: z.number(),
});
export type CampaignCounts = z.infer<typeof campaignCounts>;

export const campaignDetailDto = campaignDto.extend({
  counts: campaignCounts,
});
export type CampaignDetailDTO = z.infer<typeof campaignDetailDto>;

/**
 * pending: nothing sent yet; confirmation: the confirmation message went out, waiting for the reply;
 * confirmed: replied, the message is next; sending: being handed to WhatsApp; delivered: the message went
 * out (deliveredAt); failed: it could not be sent (lastError).
 */
export type CampaignShippingStatus = "pending" | "confirmation" | "confirmed" | "sending" | "delivered" | "failed";

export const campaignShippingDto = z.object({
  id: z.number(),
  campaignId: z.number(),
  contactListItemId: z.number().nullable(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  /** The text sent (after rotation and variables), "" until chosen. */
  message: z.string(),
  confirmationMessage: z.string(),
  /** null = no answer yet, true when the contact replied to the confirmation message. */
  confirmation: z.boolean().nullable(),
  confirmationRequestedAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  status: z.enum(["pending", "confirmation", "confirmed", "sending", "delivered", "failed"]),
  /** Error-catalogue code of a failed row. */
  lastError: z.string().nullable(),
});
export type CampaignShippingDTO = z.infer<typeof campaignShippingDto>;

export const campaignListResponse = z.object({
  records: z.array(campaignDto),
  hasMore: z.boolean(),
});
export type CampaignListResponse = z.infer<typeof campaignListResponse>;

export const campaignShippingListResponse = z.object({
  records: z.array(campaignShippingDto),
  hasMore: z.boolean(),
});
export type CampaignShippingListResponse = z.infer<typeof campaignShippingListResponse>;

/** Socket event `campaign` to the company's admins. `progress` carries the counters while it runs. */
export type CampaignEvent =
  | { action: "create" | "update"; record: CampaignDTO }
  | { action: "progress"; campaignId: number; counts: CampaignCounts }
  | { action: "delete"; id: number };
