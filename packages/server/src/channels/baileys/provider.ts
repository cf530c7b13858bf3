/**
 * Baileys v7 provider (numbers paired by QR). Maps Baileys' socket events to ChannelEvents and our
 * OutboundContent to Baileys' content; nothing of Baileys leaves this folder.
 *
 * connection.update → status (channels.md §2.3; `mapBaileysClose`, every close carries a mapped reason):
 *   qr → `qr` event (status qrcode) · connecting → OPENING · open → CONNECTED (retries 0, account number)
 *   close 515 restartRequired → OPENING, new socket at once (expected right after pairing)
 *   close 408/500 from a WebSocket error (DNS, refused, handshake timeout) → TIMEOUT "unreachable", retries+1,
 *         reconnect after exponential backoff + jitter (also before the first pairing)
 *   close 408 connectionLost → TIMEOUT, retries+1, backoff (before any pairing: the QR expired → DISCONNECTED)
 *   close 428 / 503 / unknown → OPENING, retries+1, reconnect after backoff
 *   close 401 loggedOut → credentials wiped, DISCONNECTED (a new QR or phone code is needed)
 *   close 440 replaced → DISCONNECTED, no reconnect (another owner holds the number)
 *   close 500 badSession → Signal sessions cleared, DISCONNECTED
 *   close 411 multideviceMismatch → credentials wiped, DISCONNECTED
 *   close 403 forbidden → DISCONNECTED (likely banned), no reconnect
 * requestPairingCode(number) → the 8-character code to type on the phone (status PAIRING)
 * messages.upsert (notify) → `message` (media downloaded once, here) · protocolMessage REVOKE → `deleted`
 * reactionMessage → `reaction` ("" removes) · protocolMessage MESSAGE_EDIT (inside editedMessage) → `edited`
 * messages.update status → `ack` on the spec scale (2→1, 3→2, 4→3, 5→4; monotonic) · ERROR 0 → `failed`
 * call (offer) → `call` · contacts.upsert / lid-mapping.update → `contacts`
 */
import type { ConnectionState, Contact, WACallEvent, WAMessage, WAMessageKey, WAMessageUpdate, WASocket, proto as ProtoNs } from "baileys";
import type { Logger } from "pino";
import type { ConnectionReason, ConnectionStatus } from "@balcao/shared";
import type { Db } from "../../db/client";
import { backoffDelay, locationBody, pollBody } from "../format";
import {
  ChannelError,
  type ChannelAddress,
  type ChannelEvent,
  type ChannelProvider,
  type ChannelSession,
  type ChannelSessionOptions,
  type InboundMessage,
  type MessageKind,
  type SendRequest,
  type SendResult,
} from "../types";
import { clearSignalSessions, useDbAuthState, wipeAuthState } from "./authState";
import { toOggOpus } from "./audio";
import { prepareVoiceNote } from "../audio";

/** A message delivered late ("append", after a reconnect) older than this is history, not kept (issue 21). */
const APPEND_MAX_AGE_MS = 7 * 24 * 3_600_000;

export type BaileysModule = typeof import("baileys");
/** The parts of the library the provider uses; tests replace makeWASocket and downloadMediaMessage. */
export type BaileysLib = Pick<
  BaileysModule,
  | "makeWASocket"
  | "downloadMediaMessage"
  | "fetchLatestBaileysVersion"
  | "makeCacheableSignalKeyStore"
  | "initAuthCreds"
  | "BufferJSON"
  | "proto"
  | "getContentType"
  | "jidDecode"
>;

export interface BaileysProviderOptions {
  db: Db;
  logger: Logger;
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  ffmpegPath: string;
  /** Ask WhatsApp's servers for the current web version before connecting (off in tests). */
  fetchVersion?: boolean;
  /** Replaces parts of the library (tests inject a scripted socket factory). */
  overrides?: Partial<BaileysLib>;
}

/** How long a pairing code is shown before a new one should be asked for (the QR cycle it belongs to). */
export const PAIRING_CODE_TTL_MS = 60_000;
const STATUS = { ERROR: 0, PENDING: 1, SERVER_ACK: 2, DELIVERY_ACK: 3, READ: 4, PLAYED: 5 } as const;
const REVOKE = 0; // proto.Message.ProtocolMessage.Type.REVOKE
const MESSAGE_EDIT = 14; // proto.Message.ProtocolMessage.Type.MESSAGE_EDIT
const STUB_REVOKE = 1; // proto.WebMessageInfo.StubType.REVOKE

/** Baileys' WebMessageInfo.Status → the spec's ack (1 sent, 2 delivered, 3 read, 4 played). */
export function mapBaileysStatus(status: number): 1 | 2 | 3 | 4 | "failed" | null {
  switch (status) {
    case STATUS.ERROR:
      return "failed";
    case STATUS.SERVER_ACK:
      return 1;
    case STATUS.DELIVERY_ACK:
      return 2;
    case STATUS.READ:
      return 3;
    case STATUS.PLAYED:
      return 4;
    default:
      return null;
  }
}

/** lastDisconnect.error as Baileys builds it: a Boom whose `data` is the underlying error (WebSocket errors). */
export type CloseError = Error & { output?: { statusCode?: number }; data?: { code?: string; message?: string } | null };

export interface BaileysClose {
  reason: ConnectionReason;
  /** stop: DISCONNECTED, nobody restarts it · restart: a new socket at once · retry: after backoff. */
  action: "stop" | "restart" | "retry";
  /** The status shown while a retry waits. */
  status: ConnectionStatus;
  /** all: credentials wiped (a new pairing is needed) · signal: Signal sessions cleared. */
  wipe?: "all" | "signal";
  detail?: string;
}

/**
 * connection.update `close` → what to do (channels.md §2.3). A socket that never reached WhatsApp (DNS,
 * refused, TLS, connect timeout) also arrives as 408 (or 500 for other WebSocket errors) from Baileys'
 * getCodeFromWSError: that is "unreachable" and is retried with backoff — it is neither a QR nobody
 * scanned (408 "QR refs attempts ended") nor a bad session.
 */
export function mapBaileysClose(error: CloseError | undefined, paired: boolean): BaileysClose {
  const code = error?.output?.statusCode;
  const message = error?.message ?? "";
  const cause = error?.data && typeof error.data === "object" ? error.data : undefined;
  const detail = (cause?.message && !message.includes(cause.message) ? `${message}: ${cause.message}` : message).slice(0, 300) || undefined;
  const socketError = message.startsWith("WebSocket Error") || (typeof cause?.code === "string" && /^E[A-Z]/.test(cause.code));
  const base = { ...(detail && { detail }) };
  if (socketError && (code === 408 || code === 500 || code === undefined))
    return { ...base, reason: "unreachable", action: "retry", status: "TIMEOUT" };
  switch (code) {
    case 515: // expected right after pairing
      return { ...base, reason: "restartRequired", action: "restart", status: "OPENING" };
    case 401: // loggedOut (also device_removed)
      return { ...base, reason: "loggedOut", action: "stop", status: "DISCONNECTED", wipe: "all" };
    case 411:
      return { ...base, reason: "multideviceMismatch", action: "stop", status: "DISCONNECTED", wipe: "all" };
    case 500:
      return { ...base, reason: "badSession", action: "stop", status: "DISCONNECTED", wipe: "signal" };
    case 440: // never loop against the other owner
      return { ...base, reason: "replaced", action: "stop", status: "DISCONNECTED" };
    case 403: // likely banned
      return { ...base, reason: "forbidden", action: "stop", status: "DISCONNECTED" };
    case 408:
      // Baileys ends an unscanned QR with 408 "QR refs attempts ended"; before any pairing a 408 is that too.
      if (message.includes("QR refs") || !paired) return { ...base, reason: "qrTimeout", action: "stop", status: "DISCONNECTED" };
      return { ...base, reason: "connectionLost", action: "retry", status: "TIMEOUT" };
    case 428:
      return { ...base, reason: "connectionClosed", action: "retry", status: "OPENING" };
    case 503:
      return { ...base, reason: "serviceUnavailable", action: "retry", status: "OPENING" };
    default:
      return { detail: detail ?? (code ? `closed ${code}` : "closed"), reason: "unknown", action: "retry", status: "OPENING" };
  }
}

/** A bounded map: oldest entries go first. */
class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}
  get(key: K): V | undefined {
    return this.map.get(key);
  }
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }
  values(): V[] {
    return [...this.map.values()];
  }
}

export class BaileysProvider implements ChannelProvider {
  readonly name = "baileys" as const;
  private libPromise?: Promise<BaileysLib>;
  private versionPromise?: Promise<[number, number, number] | undefined>;

  constructor(readonly options: BaileysProviderOptions) {}

  /** Loads Baileys on first use (ESM, ~1 s): processes without Baileys connections never pay for it. */
  lib(): Promise<BaileysLib> {
    this.libPromise ??= import("baileys").then((m) => ({ ...m, ...this.options.overrides }) as BaileysLib);
    return this.libPromise;
  }

  /** WhatsApp version bumps break QR generation: use the current one when reachable (5 s budget). */
  async version(): Promise<[number, number, number] | undefined> {
    if (!this.options.fetchVersion) return undefined;
    this.versionPromise ??= this.lib().then(async (lib) => {
      const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5000).unref());
      const fetched = await Promise.race([lib.fetchLatestBaileysVersion().catch(() => undefined), timeout]);
      return fetched?.version as [number, number, number] | undefined;
    });
    return this.versionPromise;
  }

  createSession(options: ChannelSessionOptions): BaileysSession {
    return new BaileysSession(this, options);
  }
}

export class BaileysSession implements ChannelSession {
  private sock?: WASocket;
  private generation = 0;
  private stopped = false;
  private attempts = 0;
  private paired = false;
  /** A pairing code was asked for: a 408 now is the code expiring, not a QR nobody scanned. */
  private pairingRequested = false;
  private status?: ConnectionStatus;
  private reconnectTimer?: NodeJS.Timeout;
  /** Events are handled one at a time, in the order Baileys emitted them. */
  private queue = Promise.resolve();
  private readonly acks = new Lru<string, number>(10_000);
  private readonly revoked = new Lru<string, true>(2_000);
  private readonly recent = new Lru<string, WAMessage>(1_000);
  /** Group subjects by group JID (issue 21): fetched once per session (groupMetadata), refreshed by groups.update. */
  private readonly groupSubjects = new Map<string, string>();
  private readonly contacts = new Map<string, { address: ChannelAddress; name?: string }>();

  constructor(
    private readonly provider: BaileysProvider,
    private readonly options: ChannelSessionOptions,
  ) {}

  private get db(): Db {
    return this.provider.options.db;
  }

  private get log(): Logger {
    return this.provider.options.logger;
  }

  private emit(event: ChannelEvent): Promise<void> {
    if (event.type === "status") this.status = event.status;
    if (event.type === "qr") this.status = "qrcode";
    if (event.type === "pairingCode") this.status = "PAIRING";
    return this.options.emit(event);
  }

  async connect(): Promise<void> {
    this.stopped = false;
    this.attempts = 0;
    this.pairingRequested = false;
    await this.open();
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    const lib = await this.provider.lib();
    await this.emit({ type: "status", status: "OPENING", retries: this.attempts || undefined });
    const auth = await useDbAuthState(this.db, lib, this.options.companyId, this.options.connectionId);
    // Once paired in this session, a reconnect with the same creds is still paired.
    this.paired ||= auth.paired();
    const version = await this.provider.version();
    if (this.stopped) return;
    const generation = ++this.generation;
    const sock = lib.makeWASocket({
      auth: { creds: auth.state.creds, keys: lib.makeCacheableSignalKeyStore(auth.state.keys, this.log) },
      ...(version && { version }),
      logger: this.log,
      markOnlineOnConnect: false,
      syncFullHistory: false,
      shouldIgnoreJid: (jid: string) => jid === "status@broadcast" || jid.endsWith("@broadcast") || jid.endsWith("@newsletter"),
      getMessage: async (key: WAMessageKey) => (key.id ? (this.recent.get(key.id)?.message ?? undefined) : undefined),
    });
    this.sock = sock;
    const on = <T>(event: string, handler: (payload: T) => Promise<void>) =>
      (sock.ev.on as (e: string, h: (p: T) => void) => void)(event, (payload: T) => {
        this.queue = this.queue
          .then(() => (generation === this.generation && !this.stopped ? handler(payload) : undefined))
          .catch((err) => this.log.error({ err, event, connectionId: this.options.connectionId }, "baileys event failed"));
      });
    on<Partial<typeof auth.state.creds>>("creds.update", async () => {
      await auth.saveCreds();
      this.paired ||= auth.paired();
    });
    on<Partial<ConnectionState>>("connection.update", (u) => this.onConnectionUpdate(lib, sock, u));
    on<{ messages: WAMessage[]; type: string }>("messages.upsert", async (u) => {
      // "append": what reached the number while this socket was away (delivered on reconnect), history, and our
      // own sends echoed back. The customer's recent ones are kept (issue 21; stored once: the pipeline is
      // idempotent per message id); our own and older ones are not live traffic.
      const kept = (m: WAMessage) =>
        u.type === "notify" || (!m.key?.fromMe && Date.now() - Number(m.messageTimestamp ?? 0) * 1000 <= APPEND_MAX_AGE_MS);
      for (const msg of u.messages) if (kept(msg)) await this.onMessage(lib, sock, msg);
    });
    on<WAMessageUpdate[]>("messages.update", (updates) => this.onMessagesUpdate(lib, updates));
    on<WACallEvent[]>("call", (calls) => this.onCalls(lib, calls));
    on<Contact[]>("contacts.upsert", (contacts) => this.onContacts(lib, contacts));
    on<{ id?: string; subject?: string }[]>("groups.update", (groups) => this.onGroups(lib, groups));
    on<{ id?: string; subject?: string }[]>("groups.upsert", (groups) => this.onGroups(lib, groups));
    on<{ lid: string; pn: string }>("lid-mapping.update", async (m) => {
      const lid = lib.jidDecode(m.lid)?.user;
      const pn = lib.jidDecode(m.pn)?.user;
      if (!lid || !pn) return;
      const address: ChannelAddress = { id: lid, kind: "wa_lid", alternates: [{ kind: "phone", id: pn }] };
      await this.emit({ type: "contacts", contacts: [{ address }] });
    });
  }

  // ─── connection.update ────────────────────────────────────────────────────────────────────────

  private async onConnectionUpdate(lib: BaileysLib, sock: WASocket, update: Partial<ConnectionState>): Promise<void> {
    // While a pairing code is shown, the QR refreshes Baileys keeps emitting are not shown.
    if (update.qr && !this.pairingRequested) await this.emit({ type: "qr", qr: update.qr });
    if (update.connection === "connecting" && this.status !== "OPENING") await this.emit({ type: "status", status: "OPENING" });
    if (update.connection === "open") {
      this.attempts = 0;
      this.pairingRequested = false;
      this.paired = true;
      const account = sock.user?.id ? lib.jidDecode(sock.user.id)?.user : undefined;
      await this.emit({ type: "status", status: "CONNECTED", retries: 0, account });
    }
    if (update.connection === "close") await this.onClose(update.lastDisconnect?.error as CloseError | undefined);
  }

  private async onClose(error: CloseError | undefined): Promise<void> {
    this.sock = undefined;
    const id = this.options.connectionId;
    let close = mapBaileysClose(error, this.paired);
    // The QR cycle a pairing code lives in ran out: the code expired, nobody typed it.
    if (close.reason === "qrTimeout" && this.pairingRequested) close = { ...close, reason: "pairingCodeExpired" };
    const detail = close.detail;
    if (close.wipe === "all") await wipeAuthState(this.db, this.options.companyId, id);
    if (close.wipe === "signal") await clearSignalSessions(this.db, this.options.companyId, id);
    if (close.action === "stop") {
      this.stopped = true;
      await this.emit({ type: "status", status: "DISCONNECTED", reason: close.reason, detail });
      return;
    }
    if (close.action === "restart") {
      await this.emit({ type: "status", status: "OPENING", reason: close.reason, detail });
      setImmediate(() => void this.open().catch((err) => this.log.error({ err, connectionId: id }, "reopen failed")));
      return;
    }
    this.attempts++;
    await this.emit({ type: "status", status: close.status, reason: close.reason, detail, retries: this.attempts });
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const { reconnectBaseMs, reconnectMaxMs } = this.provider.options;
    const delay = backoffDelay(this.attempts, reconnectBaseMs, reconnectMaxMs);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.open().catch((err) => this.log.error({ err, connectionId: this.options.connectionId }, "reconnect failed"));
    }, delay);
    this.reconnectTimer.unref?.();
  }

  // ─── Addresses ────────────────────────────────────────────────────────────────────────────────

  private async address(
    lib: BaileysLib,
    sock: WASocket | undefined,
    jid: string,
    alt?: string | null,
    pushName?: string | null,
  ): Promise<ChannelAddress> {
    const decoded = lib.jidDecode(jid);
    const user = decoded?.user ?? jid.split("@")[0]!;
    const server = decoded?.server ?? jid.split("@")[1];
    const withName = (a: ChannelAddress): ChannelAddress => (pushName ? { ...a, pushName } : a);
    if (server === "g.us") return withName({ id: user, kind: "group" });
    if (server === "lid") {
      let pn = alt && lib.jidDecode(alt)?.server === "s.whatsapp.net" ? lib.jidDecode(alt)?.user : undefined;
      if (!pn && sock) pn = (await sock.signalRepository?.lidMapping?.getPNForLID(jid).catch(() => null)) ?? undefined;
      if (pn) pn = lib.jidDecode(pn)?.user ?? pn;
      return withName({ id: user, kind: "wa_lid", ...(pn && { alternates: [{ kind: "phone" as const, id: pn }] }) });
    }
    const lid = alt && lib.jidDecode(alt)?.server === "lid" ? lib.jidDecode(alt)?.user : undefined;
    return withName({ id: user, kind: "phone", ...(lid && { alternates: [{ kind: "wa_lid" as const, id: lid }] }) });
  }

  private toJid(address: ChannelAddress): string {
    switch (address.kind) {
      case "phone":
        return `${address.id}@s.whatsapp.net`;
      case "wa_lid":
        return `${address.id}@lid`;
      case "group":
        return `${address.id}@g.us`;
      default: {
        const phone = address.alternates?.find((a) => a.kind === "phone");
        if (phone) return `${phone.id}@s.whatsapp.net`;
        throw new ChannelError("INVALID_NUMBER", `baileys cannot address ${address.kind}`);
      }
    }
  }

  // ─── Groups (issue 21) ─────────────────────────────────────────────────────────────────────────

  /** The group's subject (its name on WhatsApp), as the group chat's display name; undefined when unknown. */
  private async groupSubject(sock: WASocket, jid: string): Promise<string | undefined> {
    const known = this.groupSubjects.get(jid);
    if (known) return known;
    try {
      const subject = (await sock.groupMetadata(jid))?.subject?.trim();
      if (subject) this.groupSubjects.set(jid, subject);
      return subject || undefined;
    } catch (err) {
      this.log.debug({ err, connectionId: this.options.connectionId }, "group metadata unavailable");
      return undefined;
    }
  }

  /** A group renamed (groups.update) or joined (groups.upsert): the cache follows and the contact is renamed. */
  private async onGroups(lib: BaileysLib, groups: { id?: string; subject?: string }[]): Promise<void> {
    const renamed: { address: ChannelAddress; name: string }[] = [];
    for (const g of groups) {
      const subject = g.subject?.trim();
      if (!g.id || !subject || this.groupSubjects.get(g.id) === subject) continue;
      this.groupSubjects.set(g.id, subject);
      renamed.push({ address: { id: lib.jidDecode(g.id)?.user ?? g.id.split("@")[0]!, kind: "group" }, name: subject });
    }
    if (renamed.length) await this.emit({ type: "contacts", contacts: renamed });
  }

  // ─── Inbound ──────────────────────────────────────────────────────────────────────────────────

  private unwrap(message: ProtoNs.IMessage): ProtoNs.IMessage {
    let m = message;
    for (let i = 0; i < 4; i++) {
      const inner =
        m.ephemeralMessage?.message ??
        m.viewOnceMessage?.message ??
        m.viewOnceMessageV2?.message ??
        m.viewOnceMessageV2Extension?.message ??
        m.documentWithCaptionMessage?.message ??
        m.editedMessage?.message;
      if (!inner) break;
      m = inner;
    }
    return m;
  }

  private async onMessage(lib: BaileysLib, sock: WASocket, msg: WAMessage): Promise<void> {
    const key = msg.key as WAMessageKey;
    if (!key?.remoteJid || !key.id || !msg.message) return;
    if (key.remoteJid.endsWith("@broadcast") || key.remoteJid.endsWith("@newsletter")) return;
    const content = this.unwrap(msg.message);
    const type = lib.getContentType(content);
    if (!type) return;
    const chat = await this.address(
      lib,
      sock,
      key.remoteJid,
      key.remoteJidAlt,
      key.remoteJid.endsWith("@g.us") ? await this.groupSubject(sock, key.remoteJid) : key.fromMe ? undefined : msg.pushName,
    );

    const seconds = Number(msg.messageTimestamp ?? 0);
    const timestamp = seconds > 0 ? new Date(seconds * 1000) : new Date();
    if (type === "protocolMessage") {
      const p = content.protocolMessage!;
      if (p.type === REVOKE && p.key?.id) await this.emitDeleted(p.key.id, chat);
      if (p.type === MESSAGE_EDIT && p.key?.id && p.editedMessage) {
        // Edits come from the author only (the edit's own key says whether that is the company's number).
        const e = p.editedMessage;
        const body =
          e.conversation ?? e.extendedTextMessage?.text ?? e.imageMessage?.caption ?? e.videoMessage?.caption ?? e.documentMessage?.caption;
        if (typeof body === "string")
          await this.emit({ type: "edited", providerMessageId: p.key.id, chat, fromMe: !!key.fromMe, body, editId: key.id, timestamp });
      }
      return;
    }
    if (type === "reactionMessage") {
      const r = content.reactionMessage!;
      if (!r.key?.id) return;
      const sender =
        key.remoteJid.endsWith("@g.us") && key.participant && !key.fromMe
          ? await this.address(lib, sock, key.participant, key.participantAlt, msg.pushName)
          : undefined;
      await this.emit({
        type: "reaction",
        providerMessageId: r.key.id,
        chat,
        ...(sender && { sender }),
        fromMe: !!key.fromMe,
        emoji: r.text ?? "",
        timestamp,
      });
      return;
    }

    let kind: MessageKind = "chat";
    let body = "";
    let mediaNode: { mimetype?: string | null; fileName?: string | null; ptt?: boolean | null } | undefined;
    switch (type) {
      case "conversation":
        body = content.conversation ?? "";
        break;
      case "extendedTextMessage":
        body = content.extendedTextMessage?.text ?? "";
        break;
      case "imageMessage":
        kind = "image";
        body = content.imageMessage?.caption ?? "";
        mediaNode = content.imageMessage!;
        break;
      case "videoMessage":
        kind = "video";
        body = content.videoMessage?.caption ?? "";
        mediaNode = content.videoMessage!;
        break;
      case "audioMessage":
        kind = "audio";
        mediaNode = content.audioMessage!;
        break;
      case "documentMessage":
        kind = "document";
        body = content.documentMessage?.caption ?? "";
        mediaNode = content.documentMessage!;
        break;
      case "stickerMessage":
        kind = "sticker";
        mediaNode = content.stickerMessage!;
        break;
      case "locationMessage":
      case "liveLocationMessage": {
        const l = (content.locationMessage ?? content.liveLocationMessage)!;
        const description = content.locationMessage
          ? [content.locationMessage.name, content.locationMessage.address].filter(Boolean).join(" - ")
          : (content.liveLocationMessage?.caption ?? "");
        const thumb = l.jpegThumbnail ? `data:image/jpeg;base64,${Buffer.from(l.jpegThumbnail).toString("base64")}` : "";
        kind = "location";
        body = locationBody(l.degreesLatitude ?? 0, l.degreesLongitude ?? 0, description ?? "", thumb);
        break;
      }
      case "contactMessage":
        kind = "vcard";
        body = content.contactMessage?.vcard ?? "";
        break;
      case "contactsArrayMessage":
        kind = "vcard";
        body = (content.contactsArrayMessage?.contacts ?? []).map((c) => c.vcard ?? "").join("\n");
        break;
      case "buttonsResponseMessage":
        body = content.buttonsResponseMessage?.selectedDisplayText ?? "";
        break;
      case "listResponseMessage":
        body = content.listResponseMessage?.title ?? content.listResponseMessage?.singleSelectReply?.selectedRowId ?? "";
        break;
      case "templateButtonReplyMessage":
        body = content.templateButtonReplyMessage?.selectedDisplayText ?? "";
        break;
      case "pollCreationMessage":
      case "pollCreationMessageV2":
      case "pollCreationMessageV3": {
        // Polls are shown as text (issue 21): the question and its options. Votes (pollUpdateMessage) arrive
        // encrypted and are not shown.
        const p = content.pollCreationMessage ?? content.pollCreationMessageV2 ?? content.pollCreationMessageV3;
        body = pollBody(
          p?.name ?? "",
          (p?.options ?? []).map((o) => o.optionName ?? ""),
        );
        break;
      }
      default:
        // Poll votes, key distribution and other protocol noise have no spec rendering. View-once and
        // ephemeral wrappers were unwrapped above: their content is mapped like any other.
        return;
    }

    const contextInfo = (content[type as keyof ProtoNs.IMessage] as { contextInfo?: ProtoNs.IContextInfo } | undefined)?.contextInfo;
    const participant =
      key.remoteJid.endsWith("@g.us") && key.participant
        ? await this.address(lib, sock, key.participant, key.participantAlt, msg.pushName)
        : undefined;

    let media: InboundMessage["media"];
    if (mediaNode) {
      // Downloaded once, now: WhatsApp's media URLs expire (channels.md §2.5).
      try {
        const data = await lib.downloadMediaMessage(msg, "buffer", {}, { logger: this.log, reuploadRequest: sock.updateMediaMessage });
        media = {
          data: data as Buffer,
          mimeType: mediaNode.mimetype ?? "application/octet-stream",
          ...(mediaNode.fileName && { fileName: mediaNode.fileName }),
          ...(kind === "audio" && { voice: !!mediaNode.ptt }),
        };
      } catch (err) {
        this.log.warn({ err, connectionId: this.options.connectionId, id: key.id }, "media download failed; message kept without media");
      }
    }

    const message: InboundMessage = {
      providerMessageId: key.id,
      chat,
      ...(participant && { participant }),
      fromMe: !!key.fromMe,
      kind,
      body,
      ...(media && { media }),
      ...(contextInfo?.stanzaId && { quotedProviderMessageId: contextInfo.stanzaId }),
      timestamp,
    };
    this.recent.set(key.id, msg);
    await this.emit({ type: "message", message });
  }

  private async emitDeleted(providerMessageId: string, chat: ChannelAddress): Promise<void> {
    if (this.revoked.get(providerMessageId)) return;
    this.revoked.set(providerMessageId, true);
    await this.emit({ type: "deleted", providerMessageId, chat });
  }

  private async onMessagesUpdate(lib: BaileysLib, updates: WAMessageUpdate[]): Promise<void> {
    for (const { key, update } of updates) {
      if (!key?.id) continue;
      if (key.remoteJid && (update.message === null || update.messageStubType === STUB_REVOKE)) {
        await this.emitDeleted(key.id, await this.address(lib, this.sock, key.remoteJid, (key as WAMessageKey).remoteJidAlt));
        continue;
      }
      if (update.status === undefined || update.status === null || !key.fromMe) continue;
      const mapped = mapBaileysStatus(Number(update.status));
      if (mapped === null) continue;
      if (mapped === "failed") {
        await this.emit({ type: "failed", providerMessageId: key.id, error: "ERROR" });
        continue;
      }
      // Monotonic: a late "delivered" after "read" is dropped here (and must be ignored downstream too).
      if ((this.acks.get(key.id) ?? 0) >= mapped) continue;
      this.acks.set(key.id, mapped);
      await this.emit({ type: "ack", providerMessageId: key.id, ack: mapped });
    }
  }

  private async onCalls(lib: BaileysLib, calls: WACallEvent[]): Promise<void> {
    for (const call of calls) {
      if (call.isGroup) continue;
      const status = call.status === "offer" ? "offer" : call.status === "timeout" ? "missed" : null;
      if (!status) continue;
      const from = await this.address(lib, this.sock, call.from, call.callerPn);
      await this.emit({ type: "call", callId: call.id, from, isVideo: !!call.isVideo, status });
    }
  }

  private async onContacts(lib: BaileysLib, contacts: Contact[]): Promise<void> {
    const out: { address: ChannelAddress; name?: string }[] = [];
    for (const c of contacts) {
      if (!c.id || c.id.endsWith("@g.us") || c.id.endsWith("@broadcast")) continue;
      const alt = c.id.endsWith("@lid") ? c.phoneNumber : c.lid;
      const address = await this.address(lib, undefined, c.id, alt);
      const name = c.name ?? c.notify ?? c.verifiedName ?? undefined;
      const entry = { address, ...(name && { name }) };
      this.contacts.set(`${address.kind}:${address.id}`, entry);
      out.push(entry);
    }
    if (out.length) await this.emit({ type: "contacts", contacts: out });
  }

  // ─── Outbound ─────────────────────────────────────────────────────────────────────────────────

  private live(): WASocket {
    if (!this.sock || this.status !== "CONNECTED" || this.stopped) throw new ChannelError("NOT_CONNECTED");
    return this.sock;
  }

  async send(request: SendRequest): Promise<SendResult> {
    const sock = this.live();
    const jid = this.toJid(request.to);
    const c = request.content;
    let content: Record<string, unknown>;
    switch (c.kind) {
      case "text":
        content = { text: c.body };
        break;
      case "image":
        content = { image: c.data, caption: c.caption, mimetype: c.mimeType };
        break;
      case "video":
        content = { video: c.data, caption: c.caption, mimetype: c.mimeType };
        break;
      case "document":
        content = { document: c.data, mimetype: c.mimeType, fileName: c.fileName, ...(c.caption && { caption: c.caption }) };
        break;
      case "audio": {
        if (!c.voice) {
          content = { audio: c.data, mimetype: c.mimeType };
          break;
        }
        // OGG/Opus mono or nothing (channels.md §2.5): OGG/Opus passes through, MP3/WAV are converted
        // in wasm (channels/audio); ffmpeg, when installed, is only a faster first try.
        const ffmpegPath = this.provider.options.ffmpegPath;
        const voice = await prepareVoiceNote(c.data, c.mimeType, {
          external: (data) => toOggOpus(data, ffmpegPath),
          onExternalError: (err) => this.log.warn({ err }, "ffmpeg voice note conversion failed; using the built-in converter"),
        }).catch((err: unknown) => {
          // Not audio, corrupt, or over the limits: the send fails (ERR_SENDING_WAPP_MSG), nothing is faked.
          throw new ChannelError("SEND_FAILED", `voice note: ${(err as Error)?.message ?? String(err)}`);
        });
        if (voice.as === "voice")
          content = { audio: voice.data, mimetype: voice.mimeType, ptt: true, seconds: Math.max(1, Math.round(voice.seconds)) };
        else {
          // Real audio we cannot convert without ffmpeg (WebM, M4A…): an honest audio attachment rather
          // than a mis-encoded voice note (iOS fails on those).
          this.log.warn({ connectionId: this.options.connectionId, reason: voice.reason }, "voice note sent as an audio file");
          content = { audio: c.data, mimetype: c.mimeType };
        }
        break;
      }
      case "location":
        content = { location: { degreesLatitude: c.latitude, degreesLongitude: c.longitude, name: c.name, address: c.address } };
        break;
      case "vcard":
        content = { contacts: { displayName: c.displayName, contacts: [{ vcard: c.vcard }] } };
        break;
    }
    const quotedId = request.quotedProviderMessageId;
    const quoted = quotedId
      ? (this.recent.get(quotedId) ?? ({ key: { remoteJid: jid, id: quotedId, fromMe: false }, message: { conversation: "" } } as WAMessage))
      : undefined;
    try {
      const sent = await sock.sendMessage(jid, content as never, quoted ? { quoted } : undefined);
      if (!sent?.key?.id) throw new ChannelError("SEND_FAILED", "no message id");
      this.recent.set(sent.key.id, sent);
      return { providerMessageId: sent.key.id };
    } catch (err) {
      if (err instanceof ChannelError) throw err;
      throw new ChannelError("SEND_FAILED", (err as Error)?.message);
    }
  }

  async deleteMessage(chat: ChannelAddress, providerMessageId: string): Promise<void> {
    const sock = this.live();
    const jid = this.toJid(chat);
    try {
      await sock.sendMessage(jid, { delete: { remoteJid: jid, fromMe: true, id: providerMessageId } });
    } catch (err) {
      throw new ChannelError("DELETE_FAILED", (err as Error)?.message);
    }
  }

  async markRead(chat: ChannelAddress, providerMessageIds: string[]): Promise<void> {
    if (providerMessageIds.length === 0) return;
    const sock = this.live();
    const jid = this.toJid(chat);
    await sock.readMessages(providerMessageIds.map((id) => ({ remoteJid: jid, id, fromMe: false })));
  }

  async checkNumber(phoneDigits: string): Promise<string | null> {
    const sock = this.live();
    const digits = phoneDigits.replace(/\D/g, "");
    if (!digits) return null;
    const [result] = (await sock.onWhatsApp(digits)) ?? [];
    if (!result?.exists) return null;
    const lib = await this.provider.lib();
    return lib.jidDecode(result.jid)?.user ?? digits;
  }

  async rejectCall(callId: string, from: ChannelAddress): Promise<void> {
    const sock = this.live();
    await sock.rejectCall(callId, this.toJid(from));
  }

  async listContacts(): Promise<{ address: ChannelAddress; name?: string }[]> {
    return [...this.contacts.values()];
  }

  /**
   * Pairing by phone code: while the socket waits for a pairing (a QR is shown), WhatsApp gives an 8-character
   * code for the number, typed on the phone under Linked devices > Link with phone number instead.
   */
  async requestPairingCode(phoneDigits: string): Promise<{ code: string; expiresAt: Date }> {
    const sock = this.sock;
    if (!sock || this.stopped || (this.status !== "qrcode" && this.status !== "PAIRING")) throw new ChannelError("NOT_CONNECTED");
    let code: string;
    try {
      code = await sock.requestPairingCode(phoneDigits.replace(/\D/g, ""));
    } catch (err) {
      throw new ChannelError("UNSUPPORTED", (err as Error)?.message);
    }
    this.pairingRequested = true;
    await this.emit({ type: "pairingCode", code });
    return { code, expiresAt: new Date(Date.now() + PAIRING_CODE_TTL_MS) };
  }

  // ─── Lifecycle ────────────────────────────────────────────────────────────────────────────────

  async disconnect(): Promise<void> {
    this.stopped = true;
    this.generation++;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const sock = this.sock;
    this.sock = undefined;
    await sock?.end(undefined)?.catch?.(() => undefined);
  }

  async logout(): Promise<void> {
    const sock = this.sock;
    this.stopped = true;
    this.generation++;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.sock = undefined;
    if (sock) {
      await sock.logout().catch((err) => this.log.warn({ err }, "baileys logout failed"));
      await Promise.resolve(sock.end(undefined)).catch(() => undefined);
    }
    await wipeAuthState(this.db, this.options.companyId, this.options.connectionId);
  }
}
