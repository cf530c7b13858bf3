/**
 * The one interface domain code uses to talk to WhatsApp. Providers (simulator, baileys, cloud-api)
 * map their protocol to these types; nothing of a provider's own types crosses this file.
 */
import type { ConnectionReason, ConnectionStatus } from "@balcao/shared";

/** Who a message is from or to, as the provider identifies them. */
export interface ChannelAddress {
  /** The provider's primary id for the chat: phone digits (E.164 without '+'), a LID, a group id… */
  id: string;
  kind: "phone" | "wa_lid" | "cloud_id" | "group";
  /** Alternate ids carried in the same event (e.g. the phone behind a LID). */
  alternates?: { kind: "phone" | "wa_lid" | "cloud_id"; id: string }[];
  /** Display name the customer set on WhatsApp (push name), when known. */
  pushName?: string;
}

/** Message kinds of spec §2 (mediaType on the wire). */
export type MessageKind = "chat" | "image" | "audio" | "video" | "document" | "location" | "vcard" | "call_log" | "sticker";

/** A file received from WhatsApp, already downloaded once into our storage by the provider layer. */
export interface InboundMedia {
  /** Raw bytes; the pipeline stores them in media storage (never a public folder). */
  data: Buffer;
  mimeType: string;
  fileName?: string;
  /** Audio recorded as a voice note (push-to-talk). */
  voice?: boolean;
}

export interface InboundMessage {
  /** Provider message id, unique per connection; replays with the same id are ignored. */
  providerMessageId: string;
  /** The chat: the customer, or the group for group messages. */
  chat: ChannelAddress;
  /** In groups, the participant who wrote. */
  participant?: ChannelAddress;
  fromMe: boolean;
  kind: MessageKind;
  /** Text or caption. For location: "<picture url>|<maps link>|<description>" (spec §2). vcard: the vCard text. */
  body: string;
  media?: InboundMedia;
  /** providerMessageId of the message this one replies to. */
  quotedProviderMessageId?: string;
  timestamp: Date;
}

export type ChannelEvent =
  | { type: "qr"; qr: string }
  /** `account`: digits of the paired WhatsApp number, when the provider learns it (on CONNECTED). */
  /**
   * `reason`: why, preferably a ConnectionReason of @balcao/shared (loggedOut, unreachable…); any other text is
   * recorded as "unknown" with the text as detail. `detail`: the provider's own words for it (the connection's
   * health timeline, issue 21).
   */
  | { type: "status"; status: ConnectionStatus; reason?: ConnectionReason | (string & {}); detail?: string; retries?: number; account?: string }
  /** A pairing code to type on the phone (status PAIRING), after `requestPairingCode`. */
  | { type: "pairingCode"; code: string }
  | { type: "message"; message: InboundMessage }
  /** Ack on the spec's scale: 1 sent, 2 delivered, 3 read, 4 played. Apply monotonically. */
  | { type: "ack"; providerMessageId: string; ack: 1 | 2 | 3 | 4 }
  | { type: "failed"; providerMessageId: string; error: string }
  | { type: "deleted"; providerMessageId: string; chat: ChannelAddress }
  /**
   * A reaction to the message `providerMessageId` of this connection (issue 21). `emoji` "" removes the
   * sender's reaction; a new one from the same sender replaces it. `sender`: who reacted (the chat, a group
   * participant); absent with `fromMe` (the company's own number reacted, e.g. from the phone).
   */
  | { type: "reaction"; providerMessageId: string; chat: ChannelAddress; sender?: ChannelAddress; fromMe: boolean; emoji: string; timestamp: Date }
  /**
   * The message `providerMessageId` was edited by whoever wrote it (`fromMe`: the company's number): `body` is the
   * new text. `editId`: the provider's id of the edit itself, so a redelivery is ignored (issue 21).
   */
  | { type: "edited"; providerMessageId: string; chat: ChannelAddress; fromMe: boolean; body: string; editId?: string; timestamp: Date }
  | { type: "call"; callId: string; from: ChannelAddress; isVideo: boolean; status: "offer" | "missed" }
  | { type: "contacts"; contacts: { address: ChannelAddress; name?: string }[] };

export type OutboundContent =
  | { kind: "text"; body: string }
  | { kind: "image" | "video" | "document"; data: Buffer; mimeType: string; fileName: string; caption?: string }
  | { kind: "audio"; data: Buffer; mimeType: string; fileName: string; voice: boolean }
  | { kind: "location"; latitude: number; longitude: number; name?: string; address?: string }
  | { kind: "vcard"; displayName: string; vcard: string };

export interface SendRequest {
  to: ChannelAddress;
  content: OutboundContent;
  quotedProviderMessageId?: string;
}

export interface SendResult {
  providerMessageId: string;
}

/** A provider failure the domain maps to ERR_SENDING_WAPP_MSG, ERR_DELETE_WAPP_MSG… */
export class ChannelError extends Error {
  constructor(
    readonly code: "NOT_CONNECTED" | "SEND_FAILED" | "DELETE_FAILED" | "INVALID_NUMBER" | "UNSUPPORTED",
    message?: string,
  ) {
    super(message ?? code);
  }
}

/** One live WhatsApp session. Created per connection by a provider factory. */
export interface ChannelSession {
  connect(): Promise<void>;
  /** Closes the socket but keeps the pairing (credentials). */
  disconnect(): Promise<void>;
  /** Unpairs: credentials are wiped; a new QR is needed. */
  logout(): Promise<void>;
  send(request: SendRequest): Promise<SendResult>;
  deleteMessage(chat: ChannelAddress, providerMessageId: string): Promise<void>;
  markRead(chat: ChannelAddress, providerMessageIds: string[]): Promise<void>;
  /** Whether a phone number has WhatsApp; returns the canonical phone id WhatsApp uses, or null. */
  checkNumber(phoneDigits: string): Promise<string | null>;
  rejectCall(callId: string, from: ChannelAddress): Promise<void>;
  /** Address book of the paired phone (for POST /contacts/import), when the provider has one. */
  listContacts(): Promise<{ address: ChannelAddress; name?: string }[]>;
  /**
   * Pairs by a code typed on the phone instead of a QR (issue 21), while the session waits for a pairing
   * (status qrcode). Providers without it (Cloud API) leave it out.
   */
  requestPairingCode?(phoneDigits: string): Promise<{ code: string; expiresAt: Date }>;
}

export interface ChannelSessionOptions {
  companyId: number;
  connectionId: number;
  /** Every normalized event of this session goes here, in order. */
  emit: (event: ChannelEvent) => Promise<void>;
}

export interface ChannelProvider {
  /** Matches `connections.channel`. */
  readonly name: "simulator" | "baileys" | "cloud-api";
  createSession(options: ChannelSessionOptions): ChannelSession;
}
