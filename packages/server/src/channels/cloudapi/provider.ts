/**
 * WhatsApp Cloud API provider (Meta's official API, channels.md §1). A "session" here is not a socket:
 * it holds the connection's account settings and a Graph client. connect() checks the token against
 * GET /{phone_number_id} and reports CONNECTED (or DISCONNECTED with the Graph reason). Inbound traffic
 * does not come through the session: Meta POSTs it to the connection's webhook (webhook.ts), which
 * turns it into the same ChannelEvents the other providers emit.
 *
 * Sending (OutboundContent → Graph message):
 *   text → text{body} · image/video/document → uploaded first (POST /media), then {id, caption, filename}
 *   audio voice → OGG/Opus mono (channels/audio), uploaded, {id, voice:true} · audio file → {id}
 *   location → location{…} · vcard → contacts[{name, phones[{phone, wa_id}]}] · quoted → context.message_id
 * Extra Cloud API sends on CloudApiSession: react(), sendTemplate().
 * Not in the API: deleting a sent message (UNSUPPORTED), rejecting calls, the phone's address book.
 */
import type { Logger } from "pino";
import { prepareVoiceNote } from "../audio";
import { toOggOpus } from "../baileys/audio";
import {
  ChannelError,
  type ChannelAddress,
  type ChannelEvent,
  type ChannelProvider,
  type ChannelSession,
  type ChannelSessionOptions,
  type SendRequest,
  type SendResult,
} from "../types";
import { GraphClient, GraphError, type GraphTemplate } from "./graph";

/** The settings of one Cloud API connection (secrets included: never leave the server). */
export interface CloudApiAccount {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

export interface CloudApiProviderOptions {
  baseUrl: string;
  version: string;
  logger: Logger;
  ffmpegPath: string;
  /** Reads the connection's account settings (null: not configured). */
  loadAccount(companyId: number, connectionId: number): Promise<CloudApiAccount | null>;
  fetch?: typeof fetch;
}

/** A send the Graph API refused: the Graph code travels with the ChannelError (131047 = outside the window). */
export class CloudApiSendError extends ChannelError {
  constructor(
    readonly graph: GraphError,
    code: "SEND_FAILED" | "NOT_CONNECTED" | "INVALID_NUMBER" = "SEND_FAILED",
  ) {
    super(code, `(#${graph.code}) ${graph.message}${graph.details ? `: ${graph.details}` : ""}`);
  }
}

/** Template parameters as Graph components (channels.md §1.1 "template"). */
export interface TemplateSend {
  name: string;
  language: string;
  /** Body {{1}}, {{2}}… values, in order. */
  bodyParams?: string[];
  /** Header parameter: text, or a media link. */
  header?: { type: "text"; text: string } | { type: "image" | "video" | "document"; link: string };
  /** Button parameters by zero-based position. */
  buttons?: { index: number; subType: "quick_reply" | "url"; param: string }[];
}

export function templateComponents(t: TemplateSend): Record<string, unknown>[] {
  const components: Record<string, unknown>[] = [];
  if (t.header)
    components.push({
      type: "header",
      parameters: [
        t.header.type === "text" ? { type: "text", text: t.header.text } : { type: t.header.type, [t.header.type]: { link: t.header.link } },
      ],
    });
  if (t.bodyParams?.length) components.push({ type: "body", parameters: t.bodyParams.map((text) => ({ type: "text", text })) });
  for (const b of t.buttons ?? [])
    components.push({
      type: "button",
      sub_type: b.subType,
      index: String(b.index),
      parameters: [b.subType === "quick_reply" ? { type: "payload", payload: b.param } : { type: "text", text: b.param }],
    });
  return components;
}

/** FN and TEL;…waid=…: lines of a vCard 3.0 (what the composer and Baileys produce). */
export function vcardToContacts(displayName: string, vcard: string): Record<string, unknown>[] {
  const phones: { phone: string; wa_id?: string; type: string }[] = [];
  for (const line of vcard.split(/\r?\n/)) {
    const m = /^TEL([^:]*):(.+)$/i.exec(line.trim());
    if (!m) continue;
    const waid = /waid=(\d+)/i.exec(m[1]!)?.[1];
    phones.push({ phone: m[2]!.trim(), ...(waid && { wa_id: waid }), type: "CELL" });
  }
  const fn = /^FN:(.+)$/im.exec(vcard)?.[1]?.trim() || displayName;
  return [{ name: { formatted_name: fn, first_name: fn }, phones }];
}

export class CloudApiProvider implements ChannelProvider {
  readonly name = "cloud-api" as const;
  constructor(readonly options: CloudApiProviderOptions) {}

  client(account: Pick<CloudApiAccount, "accessToken">): GraphClient {
    return new GraphClient({
      baseUrl: this.options.baseUrl,
      version: this.options.version,
      accessToken: account.accessToken,
      fetch: this.options.fetch,
    });
  }

  createSession(options: ChannelSessionOptions): CloudApiSession {
    return new CloudApiSession(this, options);
  }

  /** The approved templates of an account (synced into cloud_api_accounts by the connections module). */
  async listTemplates(account: CloudApiAccount): Promise<GraphTemplate[]> {
    if (!account.wabaId) return [];
    return (await this.client(account).templates(account.wabaId)).filter((t) => t.status === "APPROVED");
  }
}

export class CloudApiSession implements ChannelSession {
  private account?: CloudApiAccount;
  private graph?: GraphClient;
  private stopped = false;

  constructor(
    private readonly provider: CloudApiProvider,
    private readonly options: ChannelSessionOptions,
  ) {}

  private emit(event: ChannelEvent): Promise<void> {
    return this.stopped ? Promise.resolve() : this.options.emit(event);
  }

  async connect(): Promise<void> {
    this.stopped = false;
    await this.emit({ type: "status", status: "OPENING" });
    const account = await this.provider.options.loadAccount(this.options.companyId, this.options.connectionId);
    if (!account?.phoneNumberId || !account.accessToken) {
      await this.emit({ type: "status", status: "DISCONNECTED", reason: "cloud-api: not configured" });
      return;
    }
    const graph = this.provider.client(account);
    try {
      const info = await graph.phoneNumber(account.phoneNumberId);
      this.account = account;
      this.graph = graph;
      const digits = info.display_phone_number?.replace(/\D/g, "") || undefined;
      await this.emit({ type: "status", status: "CONNECTED", retries: 0, account: digits });
    } catch (err) {
      const reason = err instanceof GraphError ? `cloud-api: (#${err.code}) ${err.message}` : `cloud-api: ${(err as Error)?.message}`;
      this.provider.options.logger.warn({ connectionId: this.options.connectionId, reason }, "cloud api connection check failed");
      await this.emit({ type: "status", status: "DISCONNECTED", reason });
    }
  }

  async disconnect(): Promise<void> {
    this.stopped = true;
    this.graph = undefined;
  }

  /** Nothing is paired on WhatsApp's side: the settings stay; the connection just stops. */
  async logout(): Promise<void> {
    await this.disconnect();
  }

  private live(): { graph: GraphClient; account: CloudApiAccount } {
    if (this.stopped || !this.graph || !this.account) throw new ChannelError("NOT_CONNECTED");
    return { graph: this.graph, account: this.account };
  }

  private to(address: ChannelAddress): string {
    if (address.kind === "group") throw new ChannelError("UNSUPPORTED", "the Cloud API does not send to groups");
    return address.id.replace(/^\+/, "");
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ChannelError) throw err;
      if (err instanceof GraphError) throw new CloudApiSendError(err, err.code === 133010 || err.code === 131026 ? "INVALID_NUMBER" : "SEND_FAILED");
      throw new ChannelError("SEND_FAILED", (err as Error)?.message);
    }
  }

  private async upload(data: Buffer, mimeType: string, fileName: string): Promise<string> {
    const { graph, account } = this.live();
    return this.call(() => graph.uploadMedia(account.phoneNumberId, data, mimeType, fileName));
  }

  /** Builds the Graph message for an OutboundContent (uploading media first). */
  private async message(request: SendRequest): Promise<Record<string, unknown>> {
    const c = request.content;
    switch (c.kind) {
      case "text":
        return { type: "text", text: { body: c.body, preview_url: false } };
      case "image":
      case "video":
        return { type: c.kind, [c.kind]: { id: await this.upload(c.data, c.mimeType, c.fileName), ...(c.caption && { caption: c.caption }) } };
      case "document":
        return {
          type: "document",
          document: { id: await this.upload(c.data, c.mimeType, c.fileName), filename: c.fileName, ...(c.caption && { caption: c.caption }) },
        };
      case "audio": {
        if (c.voice) {
          const ffmpegPath = this.provider.options.ffmpegPath;
          const voice = await prepareVoiceNote(c.data, c.mimeType, { external: (data) => toOggOpus(data, ffmpegPath) }).catch((err: unknown) => {
            throw new ChannelError("SEND_FAILED", `voice note: ${(err as Error)?.message ?? String(err)}`);
          });
          if (voice.as === "voice") {
            const id = await this.upload(voice.data, "audio/ogg", c.fileName.replace(/\.[^.]*$/, "") + ".ogg");
            return { type: "audio", audio: { id, voice: true } };
          }
        }
        return { type: "audio", audio: { id: await this.upload(c.data, c.mimeType.split(";")[0]!.trim(), c.fileName) } };
      }
      case "location":
        return {
          type: "location",
          location: { latitude: c.latitude, longitude: c.longitude, ...(c.name && { name: c.name }), ...(c.address && { address: c.address }) },
        };
      case "vcard":
        return { type: "contacts", contacts: vcardToContacts(c.displayName, c.vcard) };
    }
  }

  private async post(to: ChannelAddress, message: Record<string, unknown>, quoted?: string): Promise<SendResult> {
    const { graph, account } = this.live();
    const res = await this.call(() =>
      graph.sendMessage(account.phoneNumberId, { to: this.to(to), ...message, ...(quoted && { context: { message_id: quoted } }) }),
    );
    const id = res.messages?.[0]?.id;
    if (!id) throw new ChannelError("SEND_FAILED", "no message id");
    return { providerMessageId: id };
  }

  async send(request: SendRequest): Promise<SendResult> {
    this.live();
    const message = await this.message(request);
    return this.post(request.to, message, request.quotedProviderMessageId);
  }

  /** A reaction to a message ("" removes it). */
  react(to: ChannelAddress, providerMessageId: string, emoji: string): Promise<SendResult> {
    return this.post(to, { type: "reaction", reaction: { message_id: providerMessageId, emoji } });
  }

  /** An approved template with its parameters (the only send allowed outside the 24 h window). */
  sendTemplate(to: ChannelAddress, template: TemplateSend, quoted?: string): Promise<SendResult> {
    const components = templateComponents(template);
    return this.post(
      to,
      {
        type: "template",
        template: { name: template.name, language: { code: template.language, policy: "deterministic" }, ...(components.length && { components }) },
      },
      quoted,
    );
  }

  /** The Cloud API cannot delete a sent message. */
  async deleteMessage(): Promise<void> {
    throw new ChannelError("UNSUPPORTED", "the Cloud API cannot delete sent messages");
  }

  /** Marking the newest message read marks every earlier one read too. */
  async markRead(_chat: ChannelAddress, providerMessageIds: string[]): Promise<void> {
    const last = providerMessageIds[providerMessageIds.length - 1];
    if (!last) return;
    const { graph, account } = this.live();
    await this.call(() => graph.markRead(account.phoneNumberId, last));
  }

  /** The Cloud API has no number lookup; a number without WhatsApp fails at send (131026). */
  async checkNumber(phoneDigits: string): Promise<string | null> {
    this.live();
    const digits = phoneDigits.replace(/\D/g, "");
    return digits.length >= 8 && digits.length <= 15 ? digits : null;
  }

  async rejectCall(): Promise<void> {
    /* calls are not delivered to Cloud API webhooks unless the Calling API is enabled; nothing to reject */
  }

  async listContacts(): Promise<{ address: ChannelAddress; name?: string }[]> {
    return [];
  }

  /** Downloads an inbound media id (URL expiry handled by GraphClient.downloadMedia). */
  async downloadMedia(mediaId: string): Promise<{ data: Buffer; mimeType: string }> {
    const { graph, account } = this.live();
    return graph.downloadMedia(mediaId, account.phoneNumberId);
  }
}
