/**
 * The Cloud API webhook of a connection (channels.md §1.3): GET /api/cloudapi/:connectionId/webhook answers
 * Meta's hub.challenge when hub.verify_token is the connection's; POST checks X-Hub-Signature-256 over the
 * raw bytes with the connection's app secret (401, nothing stored, when it does not match), enqueues the
 * envelope as a job and answers 200 at once. The job routes every change by metadata.phone_number_id to
 * the company's connection with that number, downloads inbound media, and hands the same ChannelEvents
 * the other providers emit to the channel manager's listeners (the inbound pipeline): one message row per
 * wamid (the pipeline's unique provider id), acks applied with greatest() so a late "delivered" never
 * undoes a "read", and failed statuses marked with the API's reason.
 */
import { cloudApiWebhookEnvelope } from "@balcao/shared";
import { createHash, createHmac } from "node:crypto";
import { z } from "zod";
import type { App } from "../../app";
import type { AppContext } from "../../context";
import { buildVcard, locationBody } from "../format";
import type { ChannelAddress, ChannelEvent, InboundMessage, MessageKind } from "../types";
import { cloudApiWebhookTarget, connectionOfPhoneNumber, loadCloudApiAccount, safeEqual } from "./account";
import { GraphClient } from "./graph";

export const CLOUD_API_WEBHOOK_JOB = "cloudapi.webhook";

interface WebhookJob {
  companyId: number;
  envelope: Envelope;
}

interface GraphInboundMessage {
  from: string;
  id: string;
  timestamp: string;
  type: string;
  context?: { from?: string; id?: string };
  text?: { body: string };
  image?: MediaRef;
  video?: MediaRef;
  sticker?: MediaRef;
  audio?: MediaRef & { voice?: boolean };
  document?: MediaRef & { filename?: string };
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  contacts?: { name?: { formatted_name?: string }; phones?: { phone?: string; wa_id?: string }[] }[];
  interactive?: { type: string; button_reply?: { id: string; title: string }; list_reply?: { id: string; title: string } };
  button?: { payload?: string; text?: string };
  /** The customer reacted to `message_id`; `emoji` absent or "" when the reaction was removed. */
  reaction?: { message_id?: string; emoji?: string };
}
interface MediaRef {
  id: string;
  mime_type?: string;
  sha256?: string;
  caption?: string;
}
interface GraphStatus {
  id: string;
  status: string;
  recipient_id?: string;
  errors?: { code: number; title?: string; message?: string; error_data?: { details?: string } }[];
}
interface ChangeValue {
  metadata?: { phone_number_id?: string };
  contacts?: { profile?: { name?: string }; wa_id?: string; user_id?: string }[];
  messages?: GraphInboundMessage[];
  statuses?: GraphStatus[];
}
export interface Envelope {
  object?: string;
  entry?: { id?: string; changes?: { field?: string; value?: ChangeValue }[] }[];
}

const ACKS: Record<string, 1 | 2 | 3 | 4> = { sent: 1, delivered: 2, read: 3, played: 4 };

/** Status webhook → ChannelEvent. Failed statuses carry "(#code) title: details" from the API. */
export function statusEvent(s: GraphStatus): Extract<ChannelEvent, { type: "ack" | "failed" }> | null {
  if (s.status === "failed") {
    const e = s.errors?.[0];
    const error = e ? `(#${e.code}) ${e.title ?? e.message ?? ""}${e.error_data?.details ? `: ${e.error_data.details}` : ""}`.trim() : "failed";
    return { type: "failed", providerMessageId: s.id, error };
  }
  const ack = ACKS[s.status];
  return ack ? { type: "ack", providerMessageId: s.id, ack } : null;
}

/** What an inbound message needs from the Graph (media to download), else its finished form. */
export function inboundMessage(m: GraphInboundMessage, contacts: ChangeValue["contacts"]): { message: InboundMessage; mediaId?: string } | null {
  const contact = contacts?.find((c) => c.wa_id === m.from) ?? contacts?.[0];
  const chat: ChannelAddress = {
    id: m.from,
    kind: "phone",
    ...(contact?.user_id && { alternates: [{ kind: "cloud_id" as const, id: contact.user_id }] }),
    ...(contact?.profile?.name && { pushName: contact.profile.name }),
  };
  const base = {
    providerMessageId: m.id,
    chat,
    fromMe: false,
    timestamp: new Date(Number(m.timestamp) * 1000 || Date.now()),
    ...(m.context?.id && { quotedProviderMessageId: m.context.id }),
  };
  const text = (kind: MessageKind, body: string) => ({ message: { ...base, kind, body } });
  switch (m.type) {
    case "text":
      return text("chat", m.text?.body ?? "");
    case "image":
    case "video":
    case "sticker":
    case "audio":
    case "document": {
      const ref = m[m.type];
      if (!ref?.id) return null;
      const kind = m.type as MessageKind;
      return {
        message: {
          ...base,
          kind,
          body: ref.caption ?? "",
          media: {
            data: Buffer.alloc(0),
            mimeType: ref.mime_type ?? "application/octet-stream",
            ...(m.type === "document" && m.document?.filename && { fileName: m.document.filename }),
            ...(m.type === "audio" && { voice: !!m.audio?.voice }),
          },
        },
        mediaId: ref.id,
      };
    }
    case "location": {
      const l = m.location!;
      return text("location", locationBody(l.latitude, l.longitude, [l.name, l.address].filter(Boolean).join(" - ")));
    }
    case "contacts": {
      const c = m.contacts?.[0];
      const phone = c?.phones?.[0];
      const digits = (phone?.wa_id ?? phone?.phone ?? "").replace(/\D/g, "");
      return text("vcard", buildVcard(c?.name?.formatted_name ?? digits, digits));
    }
    case "interactive":
      return text("chat", m.interactive?.button_reply?.title ?? m.interactive?.list_reply?.title ?? "");
    case "button":
      return text("chat", m.button?.text ?? m.button?.payload ?? "");
    default:
      // unsupported (131051), system…: nothing the ticket pipeline shows today (reactions: reactionEvent).
      return null;
  }
}

/**
 * A reaction webhook → `reaction` (issue 21). The Cloud API sends no edits: a message the customer edits on
 * the phone does not reach the webhook (docs/decisions.md).
 */
export function reactionEvent(m: GraphInboundMessage): Extract<ChannelEvent, { type: "reaction" }> | null {
  if (m.type !== "reaction" || !m.reaction?.message_id) return null;
  return {
    type: "reaction",
    providerMessageId: m.reaction.message_id,
    chat: { id: m.from, kind: "phone" },
    fromMe: false,
    emoji: m.reaction.emoji ?? "",
    timestamp: new Date(Number(m.timestamp) * 1000 || Date.now()),
  };
}

/** Runs one verified envelope: routes by phone_number_id inside the company, then feeds the pipeline. */
export async function processEnvelope(ctx: AppContext, companyId: number, envelope: Envelope): Promise<void> {
  const db = ctx.database.db;
  for (const entry of envelope.entry ?? [])
    for (const change of entry.changes ?? []) {
      if (change.field !== "messages" || !change.value?.metadata?.phone_number_id) continue;
      const value = change.value;
      const connectionId = await connectionOfPhoneNumber(db, companyId, value.metadata!.phone_number_id!);
      if (!connectionId) {
        ctx.log.warn({ companyId, phoneNumberId: value.metadata!.phone_number_id }, "cloud api webhook for an unknown number");
        continue;
      }
      const source = { companyId, connectionId };
      for (const m of value.messages ?? []) {
        const reaction = reactionEvent(m);
        if (reaction) {
          await ctx.channels.dispatch(source, reaction);
          continue;
        }
        const parsed = inboundMessage(m, value.contacts);
        if (!parsed) continue;
        if (parsed.mediaId) {
          const account = await loadCloudApiAccount(db, companyId, connectionId);
          if (!account) continue;
          const graph = new GraphClient({
            baseUrl: ctx.config.channels.cloudApiBaseUrl,
            version: ctx.config.channels.cloudApiVersion,
            accessToken: account.accessToken,
          });
          // Inbound media ids expire (7 days) and their URLs in ~5 min: copy the bytes now.
          const { data, mimeType } = await graph.downloadMedia(parsed.mediaId, account.phoneNumberId);
          parsed.message.media = { ...parsed.message.media!, data, mimeType: parsed.message.media!.mimeType || mimeType };
        }
        await ctx.channels.dispatch(source, { type: "message", message: parsed.message });
      }
      for (const s of value.statuses ?? []) {
        const event = statusEvent(s);
        if (event) await ctx.channels.dispatch(source, event);
      }
    }
}

const params = z.object({ connectionId: z.coerce.number().int().positive().max(2_147_483_647) });
const verifyQuery = z.object({
  "hub.mode": z.string().max(50).optional(),
  "hub.verify_token": z.string().max(500).optional(),
  "hub.challenge": z.string().max(500).optional(),
});

export function signatureOk(appSecret: string, raw: Buffer, header: unknown): boolean {
  if (typeof header !== "string" || !header.startsWith("sha256=")) return false;
  const expected = `sha256=${createHmac("sha256", appSecret).update(raw).digest("hex")}`;
  return safeEqual(expected, header);
}

export function registerCloudApiWebhook(app: App): void {
  const { ctx } = app;
  const tags = ["cloudapi"];
  // Meta signs the exact bytes: keep them (this plugin's JSON bodies only) instead of a parsed object.
  void app.register(async (scope) => {
    scope.removeContentTypeParser("application/json");
    scope.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit: 3 * 1024 * 1024 }, (_req, body, done) => done(null, body));

    scope.get("/cloudapi/:connectionId/webhook", { schema: { params, querystring: verifyQuery, tags } }, async (request, reply) => {
      const { connectionId } = request.params as z.infer<typeof params>;
      const q = request.query as z.infer<typeof verifyQuery>;
      const target = await cloudApiWebhookTarget(ctx.database.db, connectionId);
      if (!target || q["hub.mode"] !== "subscribe" || !q["hub.verify_token"] || !safeEqual(q["hub.verify_token"], target.account.verifyToken))
        return reply.status(403).type("text/plain").send("Forbidden");
      return reply
        .status(200)
        .type("text/plain")
        .send(q["hub.challenge"] ?? "");
    });

    // The body is read raw (the signature covers its bytes) and checked after the signature: documented, not validated up front.
    const config = { signedJsonBody: cloudApiWebhookEnvelope };
    scope.post("/cloudapi/:connectionId/webhook", { config, schema: { params, tags } }, async (request, reply) => {
      const { connectionId } = request.params as z.infer<typeof params>;
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const target = await cloudApiWebhookTarget(ctx.database.db, connectionId);
      if (!target || !signatureOk(target.account.appSecret, raw, request.headers["x-hub-signature-256"]))
        return reply.status(401).send({ error: "invalid signature" });
      let envelope: Envelope;
      try {
        const parsed = cloudApiWebhookEnvelope.safeParse(JSON.parse(raw.toString("utf8")));
        if (!parsed.success) return reply.status(400).send({ error: "ERR_VALIDATION" });
        envelope = parsed.data as Envelope;
      } catch {
        return reply.status(400).send({ error: "invalid JSON" });
      }
      // Meta redelivers for days: the same bytes are one job while it waits (and one row per wamid anyway).
      const key = createHash("sha256").update(raw).digest("hex");
      await ctx.jobs.enqueue(CLOUD_API_WEBHOOK_JOB, { companyId: target.companyId, envelope } satisfies WebhookJob, { key });
      return reply.status(200).send({ ok: true });
    });
  });
}

/** The job that processes verified envelopes (one at a time per process, in arrival order). */
export function startCloudApiWebhooks(ctx: AppContext): void {
  ctx.jobs.register<WebhookJob>(CLOUD_API_WEBHOOK_JOB, (job) => processEnvelope(ctx, job.payload.companyId, job.payload.envelope), {
    retryLimit: 8,
    retryDelaySec: 2,
    expireInSeconds: 120,
    concurrency: 1,
  });
}
