/**
 * A local fake of the WhatsApp Cloud API (channels.md §4), for tests and development: the real provider
 * code talks HTTP to it through CLOUD_API_BASE_URL. It validates what it is sent the way the Graph API
 * does (the subset channels.md §1 lists), answers with the Graph shapes and error envelope, tracks each
 * recipient's last inbound message for the 24 h window (131047), and drives Balcão's webhook: inbound
 * messages and statuses signed with X-Hub-Signature-256 over the exact bytes sent, with duplicates,
 * reordering and bad signatures on demand.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeGraphAccount {
  phoneNumberId: string;
  displayPhoneNumber: string;
  wabaId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  /** Where inbound/status webhooks go (absolute URL), or set `deliver`. */
  webhookUrl?: string;
}

export interface FakeTemplate {
  name: string;
  language: string;
  status: "APPROVED" | "PENDING" | "REJECTED";
  category: string;
  components: { type: string; format?: string; text?: string; buttons?: { type: string; text?: string; url?: string }[] }[];
}

export interface SentRecord {
  phoneNumberId: string;
  at: number;
  body: Record<string, unknown>;
  wamid: string;
}

interface StoredMedia {
  id: string;
  data: Buffer;
  mimeType: string;
  sha256: string;
  phoneNumberId: string;
}

export type WebhookDelivery = (url: string, body: string, headers: Record<string, string>) => Promise<{ status: number; body: string }>;

export interface DeliverOptions {
  /** Send the same bytes this many times (default 1). */
  times?: number;
  /** "wrong": signed with another secret; "none": no header. */
  signature?: "ok" | "wrong" | "none";
}

const WINDOW_MS = 24 * 60 * 60 * 1000;
const FREE_FORM = new Set(["text", "image", "video", "audio", "document", "sticker", "location", "contacts", "interactive", "reaction"]);

class FakeError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly details?: string,
  ) {
    super(message);
  }
}

export class FakeGraph {
  private server?: http.Server;
  baseUrl = "";
  readonly version = "v23.0";
  private readonly accounts = new Map<string, FakeGraphAccount>();
  private media = new Map<string, StoredMedia>();
  private urls = new Map<string, { mediaId: string; expiresAt: number }>();
  private lastInbound = new Map<string, number>();
  private known = new Set<string>();
  private faults: { code: number; status: number; message: string }[] = [];
  private sentLog: SentRecord[] = [];
  private counter = 0;
  templates: FakeTemplate[] = [];
  /** Lifetime of media download URLs (Meta: about 5 minutes). */
  urlTtlMs = 5 * 60 * 1000;
  /** How webhooks are POSTed; defaults to fetch(account.webhookUrl). Tests may route them to app.inject. */
  deliver: WebhookDelivery = async (url, body, headers) => {
    const res = await fetch(url, { method: "POST", body, headers });
    return { status: res.status, body: await res.text() };
  };
  /** Every request the fake received (method + path), for assertions. */
  readonly requests: { method: string; path: string }[] = [];
  now: () => number = () => Date.now();

  addAccount(account: FakeGraphAccount): void {
    this.accounts.set(account.phoneNumberId, account);
  }

  /** Listens on 127.0.0.1 (any free port unless one is given: the e2e server is started pointing at it). */
  async start(port = 0): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(port, "127.0.0.1", resolve);
    });
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Clears messages, media, windows and faults (accounts and templates stay). */
  reset(): void {
    this.media.clear();
    this.urls.clear();
    this.lastInbound.clear();
    this.known.clear();
    this.faults = [];
    this.sentLog = [];
    this.requests.length = 0;
  }

  /** Every accepted outbound message, in order. */
  sent(): SentRecord[] {
    return [...this.sentLog];
  }

  /** The next send (POST …/messages) fails with this Graph error code. */
  failNext(code: number, status = 400, message = `fake error ${code}`): void {
    this.faults.push({ code, status, message });
  }

  /** Media the fake holds, as a customer would have sent it (for inbound media). */
  addMedia(phoneNumberId: string, data: Buffer, mimeType: string): string {
    const id = `${++this.counter}${randomBytes(4).readUInt32BE()}`;
    this.media.set(id, { id, data, mimeType, sha256: createHash("sha256").update(data).digest("hex"), phoneNumberId });
    return id;
  }

  mediaBytes(id: string): { data: Buffer; mimeType: string } | undefined {
    return this.media.get(id);
  }

  /** Makes every download URL handed out so far expire now. */
  expireUrls(): void {
    for (const u of this.urls.values()) u.expiresAt = 0;
  }

  /** Moves a recipient's last inbound message into the past (to close the window). */
  setLastInbound(phoneNumberId: string, from: string, at: number): void {
    this.lastInbound.set(`${phoneNumberId}:${from}`, at);
  }

  // ─── Driver: webhooks into Balcão ─────────────────────────────────────────────────────────────

  private account(phoneNumberId: string): FakeGraphAccount {
    const a = this.accounts.get(phoneNumberId);
    if (!a) throw new Error(`fake graph: no account ${phoneNumberId}`);
    return a;
  }

  envelope(phoneNumberId: string, value: Record<string, unknown>): Record<string, unknown> {
    const a = this.account(phoneNumberId);
    return {
      object: "whatsapp_business_account",
      entry: [
        {
          id: a.wabaId,
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: { display_phone_number: a.displayPhoneNumber, phone_number_id: a.phoneNumberId },
                ...value,
              },
            },
          ],
        },
      ],
    };
  }

  signature(secret: string, body: string): string {
    return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
  }

  /** POSTs an envelope to the account's webhook, signed over the exact bytes sent. Returns every answer. */
  async post(phoneNumberId: string, envelope: Record<string, unknown>, options: DeliverOptions = {}): Promise<{ status: number; body: string }[]> {
    const a = this.account(phoneNumberId);
    const body = JSON.stringify(envelope);
    const headers: Record<string, string> = { "content-type": "application/json" };
    const mode = options.signature ?? "ok";
    if (mode !== "none") headers["x-hub-signature-256"] = this.signature(mode === "ok" ? a.appSecret : "not-the-secret", body);
    const answers = [];
    for (let i = 0; i < (options.times ?? 1); i++) answers.push(await this.deliver(a.webhookUrl ?? "", body, headers));
    return answers;
  }

  /** A customer message: builds the webhook, refreshes the window, delivers it. Returns the wamid. */
  async inbound(
    phoneNumberId: string,
    from: string,
    message: Record<string, unknown> & { type: string },
    options: DeliverOptions & { profileName?: string; bsuid?: string; id?: string; timestamp?: number } = {},
  ): Promise<{ id: string; answers: { status: number; body: string }[] }> {
    const id = options.id ?? `wamid.FAKE-IN-${++this.counter}`;
    const ts = options.timestamp ?? Math.floor(this.now() / 1000);
    this.lastInbound.set(`${phoneNumberId}:${from}`, ts * 1000);
    this.known.add(id);
    const envelope = this.envelope(phoneNumberId, {
      contacts: [{ profile: { name: options.profileName ?? "Cliente" }, wa_id: from, ...(options.bsuid && { user_id: options.bsuid }) }],
      messages: [{ from, id, timestamp: String(ts), ...message }],
    });
    return { id, answers: await this.post(phoneNumberId, envelope, options) };
  }

  /** A status webhook for an outbound message. */
  async status(
    phoneNumberId: string,
    wamid: string,
    status: "sent" | "delivered" | "read" | "played" | "failed",
    options: DeliverOptions & {
      errors?: { code: number; title: string; message?: string; error_data?: { details: string } }[];
      recipient?: string;
    } = {},
  ): Promise<{ status: number; body: string }[]> {
    const sent = this.sentLog.find((s) => s.wamid === wamid);
    const recipient = options.recipient ?? String(sent?.body.to ?? "");
    const envelope = this.envelope(phoneNumberId, {
      statuses: [
        {
          id: wamid,
          status,
          timestamp: String(Math.floor(this.now() / 1000)),
          recipient_id: recipient,
          pricing: { billable: true, pricing_model: "PMP", category: "service", type: "free_customer_service" },
          ...(options.errors && { errors: options.errors }),
        },
      ],
    });
    return this.post(phoneNumberId, envelope, options);
  }

  /** Meta's GET verification handshake against `url`; returns the status and body Balcão answered. */
  async verifyHandshake(
    url: string,
    token: string,
    challenge = String(randomBytes(4).readUInt32BE()),
  ): Promise<{ status: number; body: string; challenge: string }> {
    const q = new URLSearchParams({ "hub.mode": "subscribe", "hub.challenge": challenge, "hub.verify_token": token });
    const res = await fetch(`${url}?${q}`);
    return { status: res.status, body: await res.text(), challenge };
  }

  // ─── Graph HTTP surface ───────────────────────────────────────────────────────────────────────

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.baseUrl);
    this.requests.push({ method: req.method ?? "GET", path: url.pathname });
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks);
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const account = [...this.accounts.values()].find((a) => a.accessToken === token);
      if (!account) throw new FakeError(401, 190, "Error validating access token: The session has been invalidated.");
      const parts = url.pathname.split("/").filter(Boolean);
      if (parts[0] === "dl" && parts.length === 2 && req.method === "GET") return this.download(parts[1]!, res);
      if (parts[0] !== this.version) throw new FakeError(400, 100, `Unknown API version ${parts[0]}`);
      const [, id, edge] = parts;
      if (req.method === "POST" && edge === "messages") return this.json(res, 200, this.messages(account, id!, JSON.parse(raw.toString() || "{}")));
      if (req.method === "POST" && edge === "media") return this.json(res, 200, await this.upload(account, id!, req, raw));
      if (req.method === "GET" && edge === "message_templates") return this.json(res, 200, this.templatePage(account, id!, url));
      if (req.method === "GET" && id && !edge) {
        if (this.accounts.has(id)) {
          if (id !== account.phoneNumberId) throw new FakeError(400, 100, "Unsupported get request.");
          return this.json(res, 200, { id, display_phone_number: account.displayPhoneNumber, verified_name: "Fake Business" });
        }
        const m = this.media.get(id);
        if (!m) throw new FakeError(400, 100, "Unsupported get request. Object does not exist");
        const key = randomBytes(12).toString("hex");
        this.urls.set(key, { mediaId: id, expiresAt: this.now() + this.urlTtlMs });
        return this.json(res, 200, {
          messaging_product: "whatsapp",
          url: `${this.baseUrl}/dl/${key}`,
          mime_type: m.mimeType,
          sha256: m.sha256,
          file_size: String(m.data.length),
          id,
        });
      }
      if (req.method === "DELETE" && id && !edge) {
        if (!this.media.delete(id)) throw new FakeError(400, 100, "Object does not exist");
        return this.json(res, 200, { success: true });
      }
      throw new FakeError(404, 100, "Unknown path components");
    } catch (err) {
      const e = err instanceof FakeError ? err : new FakeError(500, 131000, (err as Error)?.message ?? "Something went wrong");
      this.json(res, e.status, {
        error: {
          message: e.message,
          type: "OAuthException",
          code: e.code,
          ...(e.details && { error_data: { messaging_product: "whatsapp", details: e.details } }),
          fbtrace_id: "FAKE",
        },
      });
    }
  }

  private json(res: http.ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  private download(key: string, res: http.ServerResponse): void {
    const u = this.urls.get(key);
    const m = u && this.media.get(u.mediaId);
    if (!u || !m || u.expiresAt <= this.now()) throw new FakeError(404, 100, "URL expired");
    res.writeHead(200, { "content-type": m.mimeType, "content-length": m.data.length });
    res.end(m.data);
  }

  private async upload(account: FakeGraphAccount, phoneId: string, req: http.IncomingMessage, raw: Buffer): Promise<{ id: string }> {
    if (phoneId !== account.phoneNumberId) throw new FakeError(400, 100, "Invalid phone number id");
    const form = await new Request("http://x/", {
      method: "POST",
      headers: { "content-type": req.headers["content-type"] ?? "" },
      body: new Uint8Array(raw),
    })
      .formData()
      .catch(() => {
        throw new FakeError(400, 131053, "Media upload error", "multipart body expected");
      });
    const file = form.get("file");
    const type = form.get("type");
    if (form.get("messaging_product") !== "whatsapp") throw new FakeError(400, 131008, "Required parameter is missing", "messaging_product");
    if (!(file instanceof Blob) || typeof type !== "string") throw new FakeError(400, 131008, "Required parameter is missing", "file and type");
    const data = Buffer.from(await file.arrayBuffer());
    if (data.length === 0) throw new FakeError(400, 131053, "Media upload error", "empty file");
    return { id: this.addMedia(phoneId, data, type) };
  }

  private templatePage(account: FakeGraphAccount, wabaId: string, url: URL) {
    if (wabaId !== account.wabaId) throw new FakeError(400, 100, "Unsupported get request.");
    const limit = Math.max(1, Math.min(Number(url.searchParams.get("limit") ?? 25) || 25, 2));
    const after = Number(url.searchParams.get("after") ?? 0) || 0;
    const data = this.templates.slice(after, after + limit).map((t, i) => ({ ...t, id: String(after + i + 1) }));
    const more = after + limit < this.templates.length;
    return {
      data,
      paging: {
        cursors: { before: String(after), after: String(after + limit) },
        ...(more && { next: `${this.baseUrl}${url.pathname}?limit=${limit}&after=${after + limit}` }),
      },
    };
  }

  private messages(account: FakeGraphAccount, phoneId: string, body: Record<string, unknown>) {
    if (phoneId !== account.phoneNumberId) throw new FakeError(400, 100, "Invalid phone number id");
    if (body.messaging_product !== "whatsapp") throw new FakeError(400, 131008, "Required parameter is missing", "messaging_product");
    if (body.status === "read") {
      if (typeof body.message_id !== "string" || !this.known.has(body.message_id))
        throw new FakeError(400, 131009, "Parameter value is not valid", "message_id");
      return { success: true };
    }
    const fault = this.faults.shift();
    if (fault) throw new FakeError(fault.status, fault.code, fault.message);
    const to = body.to;
    const type = body.type as string;
    if (typeof to !== "string" || !/^\d{6,20}$/.test(to)) throw new FakeError(400, 100, "Invalid parameter", "to");
    this.validate(type, body);
    if (FREE_FORM.has(type)) {
      const last = this.lastInbound.get(`${phoneId}:${to}`);
      if (last === undefined || this.now() - last > WINDOW_MS)
        throw new FakeError(
          400,
          131047,
          "Re-engagement message",
          "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
        );
    }
    const wamid = `wamid.FAKE-${++this.counter}`;
    this.known.add(wamid);
    this.sentLog.push({ phoneNumberId: phoneId, at: this.now(), body, wamid });
    return {
      messaging_product: "whatsapp",
      contacts: [{ input: to, wa_id: to }],
      messages: [{ id: wamid, ...(type === "template" && { message_status: "accepted" }) }],
    };
  }

  private validate(type: string, body: Record<string, unknown>): void {
    const missing = (what: string) => new FakeError(400, 131008, "Required parameter is missing", what);
    const obj = body[type] as Record<string, unknown> | unknown[] | undefined;
    if (obj === undefined) throw missing(type);
    const ctx = body.context as { message_id?: unknown } | undefined;
    if (ctx && (typeof ctx.message_id !== "string" || !this.known.has(ctx.message_id)))
      throw new FakeError(400, 131009, "Parameter value is not valid", "context.message_id");
    const o = obj as Record<string, unknown>;
    const mediaRef = () => {
      if (typeof o.id === "string") {
        if (!this.media.has(o.id)) throw new FakeError(400, 131053, "Media upload error", "unknown media id");
      } else if (typeof o.link !== "string") throw missing(`${type}.id or ${type}.link`);
    };
    switch (type) {
      case "text":
        if (typeof o.body !== "string" || !o.body) throw missing("text.body");
        if (o.body.length > 4096) throw new FakeError(400, 100, "Invalid parameter", "text.body too long");
        return;
      case "image":
      case "video":
      case "document":
      case "sticker":
        return mediaRef();
      case "audio":
        mediaRef();
        if ("caption" in o) throw new FakeError(400, 100, "Invalid parameter", "audio takes no caption");
        if (o.voice === true && typeof o.id === "string" && this.media.get(o.id)!.mimeType.split(";")[0] !== "audio/ogg")
          throw new FakeError(400, 100, "Invalid parameter", "voice notes must be audio/ogg (OPUS)");
        return;
      case "location":
        if (typeof o.latitude !== "number" || typeof o.longitude !== "number") throw missing("location.latitude/longitude");
        return;
      case "contacts": {
        if (!Array.isArray(obj) || obj.length === 0) throw missing("contacts");
        for (const c of obj as { name?: { formatted_name?: string } }[]) if (!c.name?.formatted_name) throw missing("contacts.name.formatted_name");
        return;
      }
      case "reaction":
        if (typeof o.message_id !== "string" || typeof o.emoji !== "string") throw missing("reaction.message_id/emoji");
        if (!this.known.has(o.message_id)) throw new FakeError(400, 131009, "Parameter value is not valid", "reaction.message_id");
        return;
      case "interactive": {
        const action = o.action as { buttons?: unknown[]; sections?: { rows?: unknown[] }[] } | undefined;
        if (!action) throw missing("interactive.action");
        if ((action.buttons?.length ?? 0) > 3) throw new FakeError(400, 131009, "Parameter value is not valid", "max 3 buttons");
        const rows = (action.sections ?? []).reduce((n, s) => n + (s.rows?.length ?? 0), 0);
        if (rows > 10) throw new FakeError(400, 131009, "Parameter value is not valid", "max 10 rows");
        return;
      }
      case "template": {
        const t = this.templates.find(
          (x) => x.name === o.name && x.language === (o.language as { code?: string } | undefined)?.code && x.status === "APPROVED",
        );
        if (!t) throw new FakeError(404, 132001, "Template name does not exist in the translation");
        const expected = (t.components.find((c) => c.type === "BODY")?.text?.match(/\{\{\d+\}\}/g) ?? []).length;
        const components = (o.components as { type: string; parameters?: unknown[] }[] | undefined) ?? [];
        const given = components.find((c) => c.type === "body")?.parameters?.length ?? 0;
        if (given !== expected) throw new FakeError(400, 132000, "Number of parameters does not match the expected number of params");
        return;
      }
      default:
        throw new FakeError(400, 131051, "Unsupported message type");
    }
  }
}
