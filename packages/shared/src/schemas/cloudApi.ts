import { z } from "zod";

/**
 * WhatsApp Cloud API helpers shared by the server and the composer: the 24-hour customer-service window of a
 * ticket, the approved templates of a connection (as synced from the WABA), what each template asks for
 * (body {{n}}, a header parameter, dynamic button parameters), the send body and reactions.
 */

/** GET /cloudapi/tickets/:ticketId/window. `applies` is false on channels without a window (Baileys, simulator). */
export const cloudApiWindowDto = z.object({
  applies: z.boolean(),
  open: z.boolean(),
  lastInboundAt: z.string().nullable(),
  closesAt: z.string().nullable(),
});
export type CloudApiWindowDTO = z.infer<typeof cloudApiWindowDto>;

/** One approved template, as the Graph API lists it (GET /{waba-id}/message_templates). */
export const cloudApiTemplateDto = z.object({
  name: z.string(),
  language: z.string(),
  status: z.string(),
  category: z.string().optional(),
  components: z
    .array(
      z.object({
        type: z.string(),
        format: z.string().optional(),
        text: z.string().optional(),
        buttons: z.array(z.object({ type: z.string(), text: z.string().optional(), url: z.string().optional() })).optional(),
      }),
    )
    .optional(),
});
export type CloudApiTemplateDTO = z.infer<typeof cloudApiTemplateDto>;

/** GET /cloudapi/:connectionId/templates. */
export const cloudApiTemplateListResponse = z.object({
  templates: z.array(cloudApiTemplateDto),
  syncedAt: z.string().nullable(),
});
export type CloudApiTemplateListResponse = z.infer<typeof cloudApiTemplateListResponse>;

export const CLOUD_API_HEADER_MEDIA = ["image", "video", "document"] as const;

/** What sending a template needs: how many body values, which header parameter, which button parameters. */
export interface TemplateRequirements {
  bodyParams: number;
  /** null: no header parameter (none, or a fixed text). */
  header: { type: "text" } | { type: (typeof CLOUD_API_HEADER_MEDIA)[number] } | null;
  /** Buttons that take a parameter, by zero-based position: a dynamic URL suffix (required) or a quick-reply payload (optional). */
  buttons: { index: number; subType: "url" | "quick_reply"; required: boolean; text: string }[];
}

const placeholders = (text: string | undefined) => (text?.match(/\{\{\d+\}\}/g) ?? []).length;

export function templateRequirements(template: CloudApiTemplateDTO): TemplateRequirements {
  const find = (type: string) => template.components?.find((c) => c.type.toUpperCase() === type);
  const header = find("HEADER");
  const format = header?.format?.toLowerCase();
  const buttons: TemplateRequirements["buttons"] = [];
  for (const [index, b] of (find("BUTTONS")?.buttons ?? []).entries()) {
    const type = b.type.toUpperCase();
    if (type === "URL" && placeholders(b.url) > 0) buttons.push({ index, subType: "url", required: true, text: b.text ?? "" });
    else if (type === "QUICK_REPLY") buttons.push({ index, subType: "quick_reply", required: false, text: b.text ?? "" });
  }
  return {
    bodyParams: placeholders(find("BODY")?.text),
    header:
      format === "text" && placeholders(header?.text) > 0
        ? { type: "text" }
        : CLOUD_API_HEADER_MEDIA.includes(format as (typeof CLOUD_API_HEADER_MEDIA)[number])
          ? { type: format as (typeof CLOUD_API_HEADER_MEDIA)[number] }
          : null,
    buttons,
  };
}

/** The template's body with its {{n}} filled in (what the ticket shows; an empty value leaves the placeholder). */
export function renderTemplateBody(template: CloudApiTemplateDTO, params: string[]): string {
  const text = template.components?.find((c) => c.type.toUpperCase() === "BODY")?.text ?? template.name;
  return text.replace(/\{\{(\d+)\}\}/g, (whole, n: string) => params[Number(n) - 1] || whole);
}

const param = z.string().trim().min(1, "Required").max(1024, "Too Long!");

/** POST /cloudapi/tickets/:ticketId/template. */
export const cloudApiTemplateSendBody = z.object({
  name: z.string().trim().min(1, "Required").max(512),
  language: z.string().trim().min(2, "Required").max(20),
  bodyParams: z.array(param).max(20).optional().default([]),
  header: z
    .discriminatedUnion("type", [
      z.object({ type: z.literal("text"), text: z.string().trim().min(1, "Required").max(60, "Too Long!") }),
      z.object({ type: z.enum(CLOUD_API_HEADER_MEDIA), link: z.string().trim().url("Invalid URL").max(2000) }),
    ])
    .optional(),
  buttons: z
    .array(z.object({ index: z.number().int().min(0).max(9), subType: z.enum(["url", "quick_reply"]), param: param }))
    .max(10)
    .optional()
    .default([]),
});
export type CloudApiTemplateSendBody = z.input<typeof cloudApiTemplateSendBody>;

/** POST /cloudapi/messages/:messageId/reaction: an emoji, or "" to remove the reaction. */
export const cloudApiReactionBody = z.object({ emoji: z.string().max(16, "Too Long!") });
export type CloudApiReactionBody = z.input<typeof cloudApiReactionBody>;

/**
 * Meta's webhook envelope (`POST /cloudapi/:connectionId/webhook`), checked after the signature: the parts
 * Balcão walks must have their shape; every other field Meta adds passes through untouched.
 */
export const cloudApiWebhookEnvelope = z.looseObject({
  object: z.string().max(100).optional(),
  entry: z
    .array(
      z.looseObject({
        id: z.string().max(100).optional(),
        changes: z
          .array(z.looseObject({ field: z.string().max(100).optional(), value: z.looseObject({}).optional() }))
          .max(1000)
          .optional(),
      }),
    )
    .max(1000)
    .optional(),
});
