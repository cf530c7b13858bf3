/**
 * The built-in simulator: a real provider (not a test double). Its sessions go OPENING → qrcode →
 * CONNECTED like a WhatsApp pairing, hand inbound traffic to the same pipeline as the other providers,
 * and answer sends with provider ids and acks. Customers are simulated phones driven through
 * `SimulatorSession`'s customer-side methods (the /api/simulator routes call them).
 *
 * State: the pairing is stored in connection_auth.creds as {paired:true} (survives restarts); the
 * simulated phones, their address book and message logs live in this process's memory (bounded).
 */
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { connectionAuth } from "../../db/schema";
import { buildVcard, locationBody, pollBody } from "../format";
import {
  ChannelError,
  type ChannelAddress,
  type ChannelProvider,
  type ChannelSession,
  type ChannelSessionOptions,
  type InboundMessage,
  type MessageKind,
  type SendRequest,
  type SendResult,
} from "../types";
import { prepareVoiceNote } from "../audio";
import { sampleFile, type SampleKind } from "./samples";

export interface SimulatorOptions {
  /** Delay between ack steps 1 → 2 → 3 of an outbound message; 0 = acks only through `customerAck`. */
  ackDelayMs: number;
  /** Numbers ending with this (non-empty) suffix have no WhatsApp. */
  invalidSuffix: string;
  /** Called when a simulated phone's view changed (a company message arrived, an ack moved…). */
  onPhoneChange?: (companyId: number, connectionId: number, number: string) => void;
}

/** Messages each simulated phone keeps (docs/api.md); bench/memory.ts reports when its soak has filled them. */
export const MAX_MESSAGES_PER_PHONE = 200;
/** Characters of a phone pairing code (Baileys' Crockford-like alphabet: no 0, O, I, U). */
const PAIRING_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTVWXYZ";
export const SIMULATOR_PAIRING_CODE_TTL_MS = 60_000;
const MAX_PHONES = 500;

export interface SimMedia {
  data: Buffer;
  mimeType: string;
  fileName: string;
  voice?: boolean;
}

export interface SimMessage {
  id: string;
  /** "in": company → phone; "out": phone → company. */
  direction: "in" | "out";
  kind: MessageKind;
  body: string;
  ack: number;
  deleted: boolean;
  media?: SimMedia;
  quotedId?: string;
  timestamp: Date;
  /** The customer's reaction to this message, if any (issue 21). */
  reaction?: string;
  /** The customer edited it (its body is the latest text). */
  edited?: boolean;
  /** Sent as view-once (photo or video) or with disappearing messages on (the timer in seconds), issue 21. */
  viewOnce?: boolean;
  ephemeral?: number;
  /** Written while the connection was down: waits in `PhoneBook.held` for the next CONNECTED (issue 21). */
  queued?: boolean;
}

export interface SimPhone {
  number: string;
  name: string;
  messages: SimMessage[];
}

/** A group message: `from` is the participant who wrote it (absent for the company's own). */
export interface SimGroupMessage extends SimMessage {
  from?: string;
}

/** A simulated group: `number` is its id, `name` its subject, `participants` the members' numbers. */
export interface SimGroup extends SimPhone {
  participants: string[];
  messages: SimGroupMessage[];
}

/**
 * How WhatsApp wrapped the customer's message: `ephemeral` (seconds) in a chat with disappearing messages on,
 * `viewOnce` for a photo or video to be opened once (issue 21).
 */
interface CustomerWrappers {
  ephemeral?: number;
  viewOnce?: boolean;
}

/** Customer-side input for one inbound message (validated by the shared zod schema before it gets here). */
export type CustomerMessage = CustomerWrappers &
  (
    | { type: "text"; body: string; quotedId?: string }
    | { type: "image" | "video" | "document"; caption?: string; data?: Buffer; mimeType?: string; fileName?: string }
    | { type: "audio"; voice?: boolean; data?: Buffer; mimeType?: string; fileName?: string }
    | { type: "location"; latitude: number; longitude: number; description?: string }
    | { type: "vcard"; contactName: string; contactNumber: string }
    | { type: "poll"; question: string; options: string[] }
  );

/** Customer messages a down connection holds at most (in memory); beyond, the phone's send is refused. */
export const MAX_HELD_MESSAGES = 500;

/** The phone's copy of a customer message, and the message the company's number receives. */
function customerMessage(phone: SimPhone, input: CustomerMessage): { message: SimMessage; inbound: InboundMessage } {
  const id = `SIMC-${randomBytes(10).toString("hex").toUpperCase()}`;
  const message: SimMessage = { id, direction: "out", kind: "chat", body: "", ack: 1, deleted: false, timestamp: new Date() };
  switch (input.type) {
    case "text":
      message.body = input.body;
      message.quotedId = input.quotedId;
      break;
    case "image":
    case "video":
    case "document":
    case "audio": {
      const sample = sampleFile(input.type as SampleKind);
      message.kind = input.type;
      message.body = input.type === "audio" ? "" : (input.caption ?? "");
      message.media = {
        data: input.data ?? sample.data,
        mimeType: input.mimeType ?? sample.mimeType,
        fileName: input.fileName ?? sample.fileName,
        voice: input.type === "audio" ? (input.voice ?? true) : undefined,
      };
      break;
    }
    case "location":
      message.kind = "location";
      message.body = locationBody(
        input.latitude,
        input.longitude,
        input.description ?? "",
        `data:image/png;base64,${sampleFile("image").data.toString("base64")}`,
      );
      break;
    case "vcard":
      message.kind = "vcard";
      message.body = buildVcard(input.contactName, input.contactNumber);
      break;
    case "poll":
      // Shown as text, like a Baileys poll (votes are not shown).
      message.body = pollBody(input.question, input.options);
      break;
  }
  if (input.viewOnce && (message.kind === "image" || message.kind === "video")) message.viewOnce = true;
  if (input.ephemeral) message.ephemeral = input.ephemeral;
  // The wrappers stop here. Baileys unwraps ephemeralMessage / viewOnceMessage(V2, V2Extension) before mapping
  // the content and keeps nothing of them (baileys/provider.ts `unwrap`): the company's number receives the
  // same InboundMessage as for an unwrapped message, so both providers store and show it the same way.
  const inbound: InboundMessage = {
    providerMessageId: id,
    chat: { id: phone.number, kind: "phone", pushName: phone.name },
    fromMe: false,
    kind: message.kind,
    body: message.body,
    media: message.media
      ? { data: message.media.data, mimeType: message.media.mimeType, fileName: message.media.fileName, voice: message.media.voice }
      : undefined,
    quotedProviderMessageId: message.quotedId,
    timestamp: message.timestamp,
  };
  return { message, inbound };
}

export class SimulatorError extends Error {
  constructor(readonly code: "ERR_SIMULATOR_INVALID_CODE" | "ERR_SIMULATOR_NO_MESSAGE" | "ERR_WAPP_INVALID_CONTACT") {
    super(code);
  }
}

/**
 * A voice note reaches the simulated phone as it would reach a real one through the Baileys
 * provider: converted to OGG/Opus mono (same wasm converter; ~35 ms per second of audio), or as a
 * plain audio file when the format cannot be converted here; not audio / corrupt → the send fails.
 */
async function simulatedVoiceNote(data: Buffer, mimeType: string, fileName: string): Promise<SimMedia> {
  const voice = await prepareVoiceNote(data, mimeType).catch((err: unknown) => {
    throw new ChannelError("SEND_FAILED", `voice note: ${(err as Error)?.message ?? String(err)}`);
  });
  if (voice.as === "file") return { data, mimeType, fileName, voice: false };
  return { data: voice.data, mimeType: voice.mimeType, fileName: fileName.replace(/\.[^.]*$/, "") + ".ogg", voice: true };
}

/** The phone number rule of `checkNumber`, documented in docs/api.md. */
export function simulatorNumberIsValid(digits: string, invalidSuffix: string): boolean {
  if (!/^\d{10,15}$/.test(digits)) return false;
  return !(invalidSuffix && digits.endsWith(invalidSuffix));
}

/** Simulated phones of one connection; kept across session restarts within the process. */
class PhoneBook {
  readonly phones = new Map<string, SimPhone>();
  /** Simulated WhatsApp groups by group id (issue 21): the company number and these phones are members. */
  readonly groups = new Map<string, SimGroup>();
  /**
   * Customer messages written while the connection was down (issue 21), oldest first: WhatsApp keeps them for the
   * linked device and hands them over as one late batch (Baileys' `messages.upsert` type "append") on reconnect.
   */
  readonly held: { phone: SimPhone; message: SimMessage; inbound: InboundMessage }[] = [];
  /** The last late batch delivered, for a redelivery (WhatsApp sends a batch again when its receipt was lost). */
  lastBatch: InboundMessage[] = [];

  get(number: string, name?: string): SimPhone {
    let phone = this.phones.get(number);
    if (!phone) {
      if (this.phones.size >= MAX_PHONES) this.phones.delete(this.phones.keys().next().value!);
      phone = { number, name: name || `Cliente ${number.slice(-4)}`, messages: [] };
      this.phones.set(number, phone);
    } else if (name) phone.name = name;
    return phone;
  }

  push(phone: SimPhone, message: SimMessage): void {
    phone.messages.push(message);
    if (phone.messages.length > MAX_MESSAGES_PER_PHONE) phone.messages.splice(0, phone.messages.length - MAX_MESSAGES_PER_PHONE);
  }

  find(messageId: string): { phone: SimPhone; message: SimMessage } | undefined {
    for (const phone of this.phones.values()) {
      const message = phone.messages.find((m) => m.id === messageId);
      if (message) return { phone, message };
    }
    return undefined;
  }
}

export class SimulatorProvider implements ChannelProvider {
  readonly name = "simulator" as const;
  private readonly books = new Map<number, PhoneBook>();

  constructor(
    private readonly db: Db,
    readonly options: SimulatorOptions,
  ) {}

  /** Phones of a connection (its address book), whether or not its session runs here. */
  phoneBook(connectionId: number): PhoneBook {
    let book = this.books.get(connectionId);
    if (!book) {
      book = new PhoneBook();
      this.books.set(connectionId, book);
    }
    return book;
  }

  forget(connectionId: number): void {
    this.books.delete(connectionId);
  }

  /** Adds a phone to a connection's address book whether or not its session runs (checks the number). */
  addPhone(connectionId: number, number: string, name?: string): SimPhone {
    if (!simulatorNumberIsValid(number, this.options.invalidSuffix)) throw new SimulatorError("ERR_WAPP_INVALID_CONTACT");
    return this.phoneBook(connectionId).get(number, name);
  }

  /** Whether the connection's number is linked (a pairing is stored), whether or not a session runs. */
  async isPaired(companyId: number, connectionId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ creds: connectionAuth.creds })
      .from(connectionAuth)
      .where(and(eq(connectionAuth.connectionId, connectionId), eq(connectionAuth.companyId, companyId)))
      .limit(1);
    return (row?.creds as { paired?: boolean } | null)?.paired === true;
  }

  /**
   * A customer writes while the (paired) connection is down (issue 21): the message waits on the phone, `queued`,
   * and reaches the company's number in the late batch of the next CONNECTED (`SimulatorSession.deliverHeld`).
   * The caller checks the pairing; a full waiting list refuses (NOT_CONNECTED).
   */
  hold(companyId: number, connectionId: number, number: string, input: CustomerMessage, name?: string): SimMessage {
    if (!simulatorNumberIsValid(number, this.options.invalidSuffix)) throw new SimulatorError("ERR_WAPP_INVALID_CONTACT");
    const book = this.phoneBook(connectionId);
    if (book.held.length >= MAX_HELD_MESSAGES) throw new ChannelError("NOT_CONNECTED", "too many messages waiting");
    const phone = book.get(number, name);
    const { message, inbound } = customerMessage(phone, input);
    message.queued = true;
    book.push(phone, message);
    book.held.push({ phone, message, inbound });
    this.options.onPhoneChange?.(companyId, connectionId, phone.number);
    return message;
  }

  createSession(options: ChannelSessionOptions): SimulatorSession {
    return new SimulatorSession(this, this.db, options, this.phoneBook(options.connectionId));
  }
}

type State = "idle" | "opening" | "qrcode" | "connected" | "closed";

export class SimulatorSession implements ChannelSession {
  private state: State = "idle";
  private pairingCode = "";
  /** Set while the pairing code is a phone code (ms since epoch). */
  private pairingExpiresAt = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly provider: SimulatorProvider,
    private readonly db: Db,
    private readonly options: ChannelSessionOptions,
    readonly book: PhoneBook,
  ) {}

  get connectionId(): number {
    return this.options.connectionId;
  }

  get status(): State {
    return this.state;
  }

  /** The simulated company phone's own number (learnt as `account` on CONNECTED). */
  get accountNumber(): string {
    return `5500${String(this.options.connectionId).padStart(9, "0")}`;
  }

  async connect(): Promise<void> {
    this.state = "opening";
    await this.options.emit({ type: "status", status: "OPENING" });
    if (await this.isPaired()) {
      this.state = "connected";
      await this.options.emit({ type: "status", status: "CONNECTED", account: this.accountNumber, retries: 0 });
      await this.deliverHeld();
      return;
    }
    this.pairingCode = `balcao-sim:${this.options.connectionId}:${randomBytes(12).toString("base64url")}`;
    this.state = "qrcode";
    await this.options.emit({ type: "qr", qr: this.pairingCode });
  }

  /**
   * Pairing by phone code, as Baileys' requestPairingCode: while the QR is shown, an 8-character code for the
   * company's number replaces it (status PAIRING); "typing it on the phone" is `pair(code)` before it expires.
   */
  async requestPairingCode(phoneDigits: string): Promise<{ code: string; expiresAt: Date }> {
    if (this.state !== "qrcode" || !simulatorNumberIsValid(phoneDigits, "")) throw new ChannelError("NOT_CONNECTED");
    const bytes = randomBytes(8);
    const code = [...bytes].map((b) => PAIRING_ALPHABET[b % PAIRING_ALPHABET.length]).join("");
    this.pairingCode = code;
    this.pairingExpiresAt = Date.now() + SIMULATOR_PAIRING_CODE_TTL_MS;
    await this.options.emit({ type: "pairingCode", code });
    return { code, expiresAt: new Date(this.pairingExpiresAt) };
  }

  /** "Scanning" the QR or typing the phone code: the code must be the one currently shown (and not expired). */
  async pair(code: string): Promise<void> {
    const phoneCode = this.pairingExpiresAt > 0;
    const valid = phoneCode
      ? code.replace(/[\s-]/g, "").toUpperCase() === this.pairingCode && Date.now() <= this.pairingExpiresAt
      : !!this.pairingCode && code === this.pairingCode;
    if (this.state !== "qrcode" || !valid) throw new SimulatorError("ERR_SIMULATOR_INVALID_CODE");
    this.pairingExpiresAt = 0;
    this.pairingCode = "";
    await this.db
      .insert(connectionAuth)
      .values({ connectionId: this.options.connectionId, companyId: this.options.companyId, creds: { paired: true } })
      .onConflictDoUpdate({ target: connectionAuth.connectionId, set: { creds: { paired: true }, updatedAt: new Date() } });
    this.state = "connected";
    await this.options.emit({ type: "status", status: "CONNECTED", account: this.accountNumber, retries: 0 });
    await this.deliverHeld();
  }

  /**
   * What reached the number while it was away, as WhatsApp hands it over on reconnect (Baileys: one
   * `messages.upsert` of type "append"): each held message once, in the order written, with its own time.
   * `replay`: a batch delivered before, sent again first (the pipeline stores a provider id once).
   * Returns how many messages were emitted.
   */
  private async deliverHeld(replay: InboundMessage[] = []): Promise<number> {
    const batch = this.book.held.splice(0);
    for (const held of batch) delete held.message.queued;
    if (batch.length) this.book.lastBatch = batch.map((h) => h.inbound);
    const late = [...replay, ...batch.map((h) => h.inbound)];
    // Emitted in order (the channel manager keeps each chat's order), handled before this returns.
    await Promise.all(late.map((message) => this.options.emit({ type: "message", message })));
    for (const number of new Set(batch.map((h) => h.phone.number))) this.changed(number);
    return late.length;
  }

  async disconnect(): Promise<void> {
    this.state = "closed";
    this.pairingCode = "";
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  async logout(): Promise<void> {
    await this.disconnect();
    await this.db
      .update(connectionAuth)
      .set({ creds: null, updatedAt: new Date() })
      .where(and(eq(connectionAuth.connectionId, this.options.connectionId), eq(connectionAuth.companyId, this.options.companyId)));
  }

  private isPaired(): Promise<boolean> {
    return this.provider.isPaired(this.options.companyId, this.options.connectionId);
  }

  private assertConnected(): void {
    if (this.state !== "connected") throw new ChannelError("NOT_CONNECTED");
  }

  private phoneOf(address: ChannelAddress): SimPhone {
    if (address.kind === "group") {
      const group = this.book.groups.get(address.id);
      if (!group) throw new ChannelError("INVALID_NUMBER", "unknown group");
      return group;
    }
    const digits = address.kind === "phone" ? address.id : address.alternates?.find((a) => a.kind === "phone")?.id;
    if (!digits || !simulatorNumberIsValid(digits, this.provider.options.invalidSuffix)) throw new ChannelError("INVALID_NUMBER");
    return this.book.get(digits, address.pushName);
  }

  // ─── Company side (ChannelSession) ───────────────────────────────────────────────────────────

  async send(request: SendRequest): Promise<SendResult> {
    this.assertConnected();
    const phone = this.phoneOf(request.to);
    const c = request.content;
    const id = `SIM-${randomBytes(10).toString("hex").toUpperCase()}`;
    const message: SimMessage = {
      id,
      direction: "in",
      kind: "chat",
      body: "",
      ack: 0,
      deleted: false,
      quotedId: request.quotedProviderMessageId,
      timestamp: new Date(),
    };
    switch (c.kind) {
      case "text":
        message.body = c.body;
        break;
      case "image":
      case "video":
      case "document":
        message.kind = c.kind;
        message.body = c.caption ?? "";
        message.media = { data: c.data, mimeType: c.mimeType, fileName: c.fileName };
        break;
      case "audio":
        message.kind = "audio";
        message.media = c.voice
          ? await simulatedVoiceNote(c.data, c.mimeType, c.fileName)
          : { data: c.data, mimeType: c.mimeType, fileName: c.fileName, voice: false };
        break;
      case "location":
        message.kind = "location";
        message.body = locationBody(c.latitude, c.longitude, [c.name, c.address].filter(Boolean).join(" - "));
        break;
      case "vcard":
        message.kind = "vcard";
        message.body = c.vcard;
        break;
    }
    this.book.push(phone, message);
    this.changed(phone.number);
    this.scheduleAcks(message);
    return { providerMessageId: id };
  }

  /** Acks 1 → 2 → 3, one step per ackDelayMs (the phone receives, then the customer reads). */
  private scheduleAcks(message: SimMessage): void {
    const delay = this.provider.options.ackDelayMs;
    if (delay <= 0) return;
    const step = (ack: 1 | 2 | 3) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (this.state !== "connected") return;
        void this.setAck(message, ack).then(
          () => {
            if (ack < 3) step((ack + 1) as 2 | 3);
          },
          // The database may be briefly away (restart): a lost ack step must not crash the process.
          () => undefined,
        );
      }, delay);
      timer.unref?.();
      this.timers.add(timer);
    };
    step(1);
  }

  private changed(number: string): void {
    this.provider.options.onPhoneChange?.(this.options.companyId, this.options.connectionId, number);
  }

  private async setAck(message: SimMessage, ack: 1 | 2 | 3 | 4): Promise<void> {
    if (ack <= message.ack) return;
    message.ack = ack;
    const owner = this.book.find(message.id);
    if (owner) this.changed(owner.phone.number);
    await this.options.emit({ type: "ack", providerMessageId: message.id, ack });
  }

  async deleteMessage(_chat: ChannelAddress, providerMessageId: string): Promise<void> {
    this.assertConnected();
    const found = this.book.find(providerMessageId);
    if (!found || found.message.direction !== "in") throw new ChannelError("DELETE_FAILED", "unknown message");
    found.message.deleted = true;
    this.changed(found.phone.number);
  }

  async markRead(_chat: ChannelAddress, providerMessageIds: string[]): Promise<void> {
    this.assertConnected();
    for (const id of providerMessageIds) {
      const found = this.book.find(id);
      if (found && found.message.direction === "out") found.message.ack = Math.max(found.message.ack, 3);
    }
  }

  async checkNumber(phoneDigits: string): Promise<string | null> {
    this.assertConnected();
    const digits = phoneDigits.replace(/\D/g, "");
    return simulatorNumberIsValid(digits, this.provider.options.invalidSuffix) ? digits : null;
  }

  async rejectCall(callId: string, from: ChannelAddress): Promise<void> {
    this.assertConnected();
    const phone = this.phoneOf(from);
    const call = phone.messages.find((m) => m.id === callId);
    if (call) call.body = `${call.body} (rejeitada)`;
  }

  async listContacts(): Promise<{ address: ChannelAddress; name?: string }[]> {
    this.assertConnected();
    return [...this.book.phones.values()].map((p) => ({ address: { id: p.number, kind: "phone" as const, pushName: p.name }, name: p.name }));
  }

  // ─── Customer side (driven by /api/simulator) ────────────────────────────────────────────────

  addPhone(number: string, name?: string): SimPhone {
    if (!simulatorNumberIsValid(number, this.provider.options.invalidSuffix)) throw new SimulatorError("ERR_WAPP_INVALID_CONTACT");
    return this.book.get(number, name);
  }

  /** A customer sends a message: it enters the inbound pipeline exactly like a provider's. */
  async customerSend(number: string, input: CustomerMessage, name?: string): Promise<SimMessage> {
    this.assertConnected();
    const phone = this.addPhone(number, name);
    const { message, inbound } = customerMessage(phone, input);
    this.book.push(phone, message);
    await this.options.emit({ type: "message", message: inbound });
    return message;
  }

  /** The customer deletes one of their messages for everyone. */
  async customerDelete(number: string, messageId: string): Promise<void> {
    this.assertConnected();
    const phone = this.book.phones.get(number);
    const message = phone?.messages.find((m) => m.id === messageId && m.direction === "out");
    if (!phone || !message) throw new SimulatorError("ERR_SIMULATOR_NO_MESSAGE");
    message.deleted = true;
    await this.options.emit({ type: "deleted", providerMessageId: messageId, chat: { id: phone.number, kind: "phone", pushName: phone.name } });
  }

  /** The customer reacts to a message of the conversation ("" removes the reaction), as WhatsApp sends it (issue 21). */
  async customerReact(number: string, messageId: string, emoji: string): Promise<SimMessage> {
    this.assertConnected();
    const phone = this.book.phones.get(number);
    const message = phone?.messages.find((m) => m.id === messageId && !m.deleted && m.kind !== "call_log");
    if (!phone || !message) throw new SimulatorError("ERR_SIMULATOR_NO_MESSAGE");
    message.reaction = emoji || undefined;
    await this.options.emit({
      type: "reaction",
      providerMessageId: messageId,
      chat: { id: phone.number, kind: "phone", pushName: phone.name },
      fromMe: false,
      emoji,
      timestamp: new Date(),
    });
    return message;
  }

  /** The customer edits the text of one of their own text messages (issue 21). */
  async customerEdit(number: string, messageId: string, body: string): Promise<SimMessage> {
    this.assertConnected();
    const phone = this.book.phones.get(number);
    const message = phone?.messages.find((m) => m.id === messageId && m.direction === "out" && m.kind === "chat" && !m.deleted);
    if (!phone || !message) throw new SimulatorError("ERR_SIMULATOR_NO_MESSAGE");
    message.body = body;
    message.edited = true;
    await this.options.emit({
      type: "edited",
      providerMessageId: messageId,
      chat: { id: phone.number, kind: "phone", pushName: phone.name },
      fromMe: false,
      body,
      editId: `SIMEDIT-${randomBytes(8).toString("hex").toUpperCase()}`,
      timestamp: new Date(),
    });
    return message;
  }

  /** The customer calls the company number (an offer). */
  async customerCall(number: string, isVideo: boolean, name?: string): Promise<SimMessage> {
    this.assertConnected();
    const phone = this.addPhone(number, name);
    const callId = `SIMCALL-${randomBytes(8).toString("hex").toUpperCase()}`;
    const entry: SimMessage = {
      id: callId,
      direction: "out",
      kind: "call_log",
      body: isVideo ? "video call" : "voice call",
      ack: 1,
      deleted: false,
      timestamp: new Date(),
    };
    this.book.push(phone, entry);
    await this.options.emit({ type: "call", callId, from: { id: phone.number, kind: "phone", pushName: phone.name }, isVideo, status: "offer" });
    return entry;
  }

  // ─── The connection drops and comes back (issue 21) ─────────────────────────────────────────────

  /** WhatsApp's connection is lost: TIMEOUT (connectionLost), sends are refused until `restoreConnection`. */
  async dropConnection(): Promise<boolean> {
    if (this.state !== "connected") return false;
    this.state = "opening";
    await this.options.emit({ type: "status", status: "TIMEOUT", reason: "connectionLost", retries: 1 });
    return true;
  }

  /**
   * The dropped connection is back: CONNECTED again; what waited for it is delivered (the company's queued
   * replies by the send queue, the customers' held messages here as a late batch). `replay`: the previous late
   * batch is delivered again too, as WhatsApp does when it did not get the receipt. Null when not dropped;
   * else how many late messages were emitted.
   */
  async restoreConnection(replay = false): Promise<number | null> {
    if (this.state !== "opening" || !(await this.isPaired())) return null;
    this.state = "connected";
    await this.options.emit({ type: "status", status: "CONNECTED", account: this.accountNumber, retries: 0 });
    return this.deliverHeld(replay ? this.book.lastBatch : []);
  }

  /**
   * Another WhatsApp Web session took the number over (Baileys: close 440 "replaced"): DISCONNECTED with the
   * pairing kept; nobody restarts it until an admin starts the connection again (POST /whatsappsession/:id).
   */
  async replaceConnection(): Promise<boolean> {
    if (this.state !== "connected" && this.state !== "opening") return false;
    this.state = "closed";
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.options.emit({ type: "status", status: "DISCONNECTED", reason: "replaced" });
    return true;
  }

  // ─── Groups (issue 21): a subject, several participants, messages from any of them ──────────────

  /** Creates a group with the company number and these phones as members. */
  createGroup(subject: string, participants: { number: string; name?: string }[]): SimGroup {
    if (this.book.groups.size >= MAX_PHONES) this.book.groups.delete(this.book.groups.keys().next().value!);
    const members = participants.map((p) => this.addPhone(p.number, p.name));
    // WhatsApp group ids are 18 digits starting 120363.
    const digits = String(Number.parseInt(randomBytes(5).toString("hex"), 16)).padStart(12, "0");
    const id = `120363${digits.slice(-12)}`;
    const group: SimGroup = { number: id, name: subject, participants: members.map((m) => m.number), messages: [] };
    this.book.groups.set(id, group);
    return group;
  }

  private groupOf(groupId: string): SimGroup {
    const group = this.book.groups.get(groupId);
    if (!group) throw new SimulatorError("ERR_SIMULATOR_NO_MESSAGE");
    return group;
  }

  /** The group's subject changes, as WhatsApp's groups.update tells the company number. */
  async renameGroup(groupId: string, subject: string): Promise<SimGroup> {
    this.assertConnected();
    const group = this.groupOf(groupId);
    group.name = subject;
    await this.options.emit({ type: "contacts", contacts: [{ address: { id: group.number, kind: "group" }, name: subject }] });
    return group;
  }

  /** A participant writes in the group: the chat is the group (named after its subject), the sender its participant. */
  async groupSend(groupId: string, from: string, body: string): Promise<SimGroupMessage> {
    this.assertConnected();
    const group = this.groupOf(groupId);
    const phone = this.book.phones.get(from);
    if (!phone || !group.participants.includes(from)) throw new SimulatorError("ERR_WAPP_INVALID_CONTACT");
    const id = `SIMG-${randomBytes(10).toString("hex").toUpperCase()}`;
    const message: SimGroupMessage = { id, direction: "out", kind: "chat", body, ack: 1, deleted: false, timestamp: new Date(), from };
    this.book.push(group, message);
    await this.options.emit({
      type: "message",
      message: {
        providerMessageId: id,
        chat: { id: group.number, kind: "group", pushName: group.name },
        participant: { id: phone.number, kind: "phone", pushName: phone.name },
        fromMe: false,
        kind: "chat",
        body,
        timestamp: message.timestamp,
      },
    });
    return message;
  }

  /** The customer's phone acknowledges a company message (delivered, read, played). */
  async customerAck(number: string, messageId: string, ack: 1 | 2 | 3 | 4): Promise<void> {
    this.assertConnected();
    const message = this.book.phones.get(number)?.messages.find((m) => m.id === messageId && m.direction === "in");
    if (!message) throw new SimulatorError("ERR_SIMULATOR_NO_MESSAGE");
    await this.setAck(message, ack);
  }
}
