/**
 * The provider contract suite (issue 22): what every ChannelProvider must do, written once and run against the
 * simulator, Baileys (a scripted socket) and the Cloud API (the local fake Graph API) — see the
 * *.contract.test.ts file next to each provider. The cases talk to a provider only through the ChannelSession API
 * and the ChannelEvent stream; a per-provider harness does what differs: how a session is brought to CONNECTED,
 * how the customer's side sends, acknowledges and receives.
 *
 * Cases every provider runs:
 *   connect() → status OPENING … CONNECTED (retries 0, the account's digits)
 *   send of every OutboundContent kind → a providerMessageId, and the customer's side gets the right content:
 *     text · reply context · image + caption · video + caption · document + file name · voice note (OGG/Opus mono)
 *     · audio file · location · vcard (name and WhatsApp number)
 *   inbound text (with a quoted message), image, document and voice note → `message` events of the same shape
 *   acks: delivered then read → ack 2 then 3 for the sent message
 *   checkNumber → the digits WhatsApp uses for a number with WhatsApp
 *   send and checkNumber before connect() → ChannelError NOT_CONNECTED
 *   disconnect() → sends reject NOT_CONNECTED, nothing is emitted afterwards, connect() brings it back (pairing kept)
 *
 * Capabilities (a case is defined only for the providers that declare it; no skipped tests):
 *   numberLookup   checkNumber asks the network: a number without WhatsApp → null. Cloud API: no lookup in the
 *                  API, any well-formed number is answered as is (a number without WhatsApp fails at send, 131026).
 *   dropsLateAcks  the provider itself drops a late lower ack (delivered after read). Cloud API: every status
 *                  webhook is passed on as it comes; the pipeline applies acks with greatest() so they never go
 *                  back (cloudapi.http.test.ts "statuses out of order").
 *   deleteSent     deleteMessage of a sent message reaches the other side. Cloud API: not in the API; the suite
 *                  checks it is refused with UNSUPPORTED instead.
 *   remoteLogout   the other side can end the session (the phone logs the number out): a final DISCONNECTED
 *                  status and nothing after it. Baileys only: the simulator's pairing ends only by logout(); a
 *                  Cloud API token revoked on Meta's side is found at the next connect() (DISCONNECTED, see
 *                  provider.test.ts).
 * Where inbound comes from: the simulator and Baileys emit customer traffic from their session; the Cloud API's
 * comes from Meta's webhook (a job, then ChannelManager.dispatch), so its harness adds those events to the stream
 * — and after the session's disconnect() the webhook still delivers (Meta keeps posting; routing is by phone
 * number id, not by a running session).
 * None of the providers emits a status of its own on a local disconnect(): the ChannelManager writes the final
 * DISCONNECTED ("requested") status when a connection is stopped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readOggOpusInfo } from "./audio";
import { toneMp3 } from "./audio/testing";
import type { ChannelAddress, ChannelEvent, ChannelSession, InboundMessage, OutboundContent } from "./types";

export type ContractCapability = "numberLookup" | "dropsLateAcks" | "deleteSent" | "remoteLogout";

/** What reached the customer's side for one sent message, in provider-neutral terms. */
export interface Delivered {
  /** Phone digits the message was addressed to. */
  to: string;
  kind: "text" | "image" | "video" | "document" | "audio" | "location" | "vcard";
  /** Text body or caption ("" when none). */
  text: string;
  media?: { data: Buffer; mimeType: string; fileName?: string; voice: boolean };
  location?: { latitude: number; longitude: number; description: string };
  contact?: { name: string; waId?: string };
  quotedId?: string;
}

/** A customer's message, as the harness makes the other side send it. */
export type CustomerInput =
  | { type: "text"; body: string; quotedId?: string }
  | { type: "image"; data: Buffer; mimeType: string; caption: string }
  | { type: "document"; data: Buffer; mimeType: string; fileName: string; caption: string }
  | { type: "audio"; data: Buffer; mimeType: string; voice: true };

export interface ContractSession {
  session: ChannelSession;
  /** Every ChannelEvent of the connection, in order: the session's own, plus (Cloud API) the webhook's. */
  events: ChannelEvent[];
}

export interface ProviderHarness<S extends ContractSession = ContractSession> {
  name: string;
  capabilities: readonly ContractCapability[];
  /** The customer the cases talk to (phone digits, push name). */
  customer: { number: string; name: string };
  /** Only with numberLookup: a well-formed number without WhatsApp. */
  numberWithoutWhatsApp?: string;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  /** A session on a fresh connection, not connected. */
  newSession(): Promise<S>;
  /** connect() and what the other side does until the session reports CONNECTED (scan, socket open, token check). */
  bringUp(s: S): Promise<void>;
  /** The customer sends a message; returns the providerMessageId the provider will report it with. */
  customerSends(s: S, input: CustomerInput): Promise<string>;
  /** The customer's phone acknowledges a sent message (2 delivered, 3 read). */
  customerAcks(s: S, providerMessageId: string, ack: 2 | 3): Promise<void>;
  /** What the customer's side got for a sent message (undefined: nothing with that id). */
  delivered(s: S, providerMessageId: string): Delivered | undefined;
  /** Only with deleteSent: whether the customer's side saw the sent message deleted. */
  deletedOnTheOtherSide?(s: S, providerMessageId: string): boolean;
  /** The other side keeps talking to a session after its disconnect() (where the provider can be reached). */
  trafficAfterClose?(s: S): Promise<void>;
  /** Only with remoteLogout: the other side logs the number out. */
  remoteLogout?(s: S): Promise<void>;
}

/** Polls with room for a loaded CI machine (listeners such as the message pipeline run first). */
const until = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 20 });

const statuses = (events: ChannelEvent[]) => events.filter((e): e is Extract<ChannelEvent, { type: "status" }> => e.type === "status");
const messageOf = (events: ChannelEvent[], id: string): InboundMessage | undefined =>
  events.find((e): e is Extract<ChannelEvent, { type: "message" }> => e.type === "message" && e.message.providerMessageId === id)?.message;
const acksOf = (events: ChannelEvent[], id: string) =>
  events.filter((e): e is Extract<ChannelEvent, { type: "ack" }> => e.type === "ack" && e.providerMessageId === id).map((e) => e.ack);

/** The parts of a spec location body ("<picture>|<maps link>|<description>", format.ts) the contract compares. */
export function parseLocationBody(body: string): Delivered["location"] {
  const [, link = "", description = ""] = body.split("|");
  const q = new URL(link).searchParams.get("q") ?? "";
  const [latitude, longitude] = q.split(",").map(Number);
  return { latitude: latitude!, longitude: longitude!, description };
}

/** The contact a vCard names: FN and the first TEL's waid. */
export function parseVcard(vcard: string): Delivered["contact"] {
  const name = /^FN:(.*)$/m.exec(vcard)?.[1]?.trim() ?? "";
  const waId = /^TEL[^:]*waid=(\d+)/im.exec(vcard)?.[1];
  return { name, ...(waId && { waId }) };
}

/** A vCard 3.0 as the composer builds it. */
const VCARD = "BEGIN:VCARD\nVERSION:3.0\nFN:Ana Souza\nTEL;type=CELL;waid=5511912345678:+55 11 91234-5678\nEND:VCARD";

/** Defines the contract's describe blocks for one provider. */
export function providerContract<S extends ContractSession>(h: ProviderHarness<S>): void {
  const has = (c: ContractCapability) => h.capabilities.includes(c);

  describe(`provider contract: ${h.name}`, () => {
    let s: S;
    const to = (): ChannelAddress => ({ id: h.customer.number, kind: "phone" });

    beforeAll(async () => {
      await h.setup();
      s = await h.newSession();
      await h.bringUp(s);
    });
    afterAll(() => h.teardown());

    /** Sends and returns the id with what the customer's side got for it. */
    const sendAndDeliver = async (content: OutboundContent, quotedProviderMessageId?: string) => {
      const { providerMessageId } = await s.session.send({ to: to(), content, ...(quotedProviderMessageId && { quotedProviderMessageId }) });
      expect(providerMessageId).toEqual(expect.any(String));
      expect(providerMessageId).not.toBe("");
      const delivered = h.delivered(s, providerMessageId);
      expect(delivered, `nothing reached the customer for ${providerMessageId}`).toBeDefined();
      expect(delivered!.to).toBe(h.customer.number);
      return { id: providerMessageId, delivered: delivered! };
    };

    it("connect() reports OPENING, then CONNECTED with retries 0 and the account's number", () => {
      const list = statuses(s.events);
      expect(list[0]).toMatchObject({ status: "OPENING" });
      expect(list.at(-1)).toMatchObject({ status: "CONNECTED", retries: 0, account: expect.stringMatching(/^\d{8,15}$/) });
    });

    describe("send: every OutboundContent kind reaches the customer", () => {
      it("text: a providerMessageId, the body on the other side; every send gets its own id", async () => {
        const first = await sendAndDeliver({ kind: "text", body: "Olá! Como posso ajudar?" });
        expect(first.delivered).toMatchObject({ kind: "text", text: "Olá! Como posso ajudar?" });
        expect(first.delivered.quotedId).toBeUndefined();
        const second = await sendAndDeliver({ kind: "text", body: "Olá! Como posso ajudar?" });
        expect(second.id).not.toBe(first.id);
      });

      it("reply context: a text quoting an earlier message carries the quoted id", async () => {
        const first = await sendAndDeliver({ kind: "text", body: "primeira" });
        const reply = await sendAndDeliver({ kind: "text", body: "respondendo" }, first.id);
        expect(reply.delivered).toMatchObject({ kind: "text", text: "respondendo", quotedId: first.id });
      });

      it.each(["image", "video"] as const)("%s with a caption: its bytes, mime type and caption", async (kind) => {
        const data = Buffer.from(`bytes of a ${kind}`);
        const mimeType = kind === "image" ? "image/png" : "video/mp4";
        const { delivered } = await sendAndDeliver({ kind, data, mimeType, fileName: `f.${kind === "image" ? "png" : "mp4"}`, caption: "legenda" });
        expect(delivered).toMatchObject({ kind, text: "legenda", media: { mimeType, voice: false } });
        expect(delivered.media!.data.equals(data)).toBe(true);
      });

      it("document: its bytes, mime type and file name", async () => {
        const data = Buffer.from("%PDF-1.4 nota fiscal");
        const { delivered } = await sendAndDeliver({ kind: "document", data, mimeType: "application/pdf", fileName: "nota.pdf" });
        expect(delivered).toMatchObject({ kind: "document", media: { mimeType: "application/pdf", fileName: "nota.pdf", voice: false } });
        expect(delivered.media!.data.equals(data)).toBe(true);
      });

      it("voice note: an MP3 recording arrives as an OGG/Opus mono voice note", async () => {
        const { delivered } = await sendAndDeliver({
          kind: "audio",
          data: await toneMp3(1),
          mimeType: "audio/mpeg",
          fileName: "gravacao.mp3",
          voice: true,
        });
        expect(delivered).toMatchObject({ kind: "audio", media: { voice: true, mimeType: expect.stringMatching(/^audio\/ogg/) } });
        expect(readOggOpusInfo(delivered.media!.data)).toMatchObject({ channels: 1 });
      });

      it("audio file (not a voice note): its bytes as sent, not marked as voice", async () => {
        const data = await toneMp3(1);
        const { delivered } = await sendAndDeliver({ kind: "audio", data, mimeType: "audio/mpeg", fileName: "musica.mp3", voice: false });
        expect(delivered).toMatchObject({ kind: "audio", media: { voice: false, mimeType: "audio/mpeg" } });
        expect(delivered.media!.data.equals(data)).toBe(true);
      });

      it("location: latitude, longitude, name and address", async () => {
        const { delivered } = await sendAndDeliver({
          kind: "location",
          latitude: -23.5613,
          longitude: -46.6565,
          name: "Loja",
          address: "Av. Paulista",
        });
        expect(delivered).toMatchObject({
          kind: "location",
          location: { latitude: -23.5613, longitude: -46.6565, description: "Loja - Av. Paulista" },
        });
      });

      it("vcard: the contact's name and WhatsApp number", async () => {
        const { delivered } = await sendAndDeliver({ kind: "vcard", displayName: "Ana Souza", vcard: VCARD });
        expect(delivered).toMatchObject({ kind: "vcard", contact: { name: "Ana Souza", waId: "5511912345678" } });
      });
    });

    describe("inbound: the customer's messages arrive as `message` events of one shape", () => {
      it("text: the customer's phone address with push name, kind chat, the body, not fromMe, a timestamp; a reply quotes", async () => {
        const id = await h.customerSends(s, { type: "text", body: "Oi, preciso de ajuda" });
        await until(() => messageOf(s.events, id)).toBeDefined();
        const m = messageOf(s.events, id)!;
        expect(m).toMatchObject({
          providerMessageId: id,
          chat: { id: h.customer.number, kind: "phone", pushName: h.customer.name },
          fromMe: false,
          kind: "chat",
          body: "Oi, preciso de ajuda",
        });
        expect(m.media).toBeUndefined();
        expect(m.participant).toBeUndefined();
        expect(m.timestamp).toBeInstanceOf(Date);
        expect(Math.abs(m.timestamp.getTime() - Date.now())).toBeLessThan(10 * 60_000);

        const reply = await h.customerSends(s, { type: "text", body: "complementando", quotedId: id });
        await until(() => messageOf(s.events, reply)).toBeDefined();
        expect(messageOf(s.events, reply)).toMatchObject({ kind: "chat", body: "complementando", quotedProviderMessageId: id });
      });

      it("image with a caption: kind image, the caption as body, the bytes and mime type", async () => {
        const data = Buffer.from("bytes of the customer's photo");
        const id = await h.customerSends(s, { type: "image", data, mimeType: "image/jpeg", caption: "foto do defeito" });
        await until(() => messageOf(s.events, id)).toBeDefined();
        const m = messageOf(s.events, id)!;
        expect(m).toMatchObject({ kind: "image", body: "foto do defeito", fromMe: false, media: { mimeType: "image/jpeg" } });
        expect(m.media!.data.equals(data)).toBe(true);
      });

      it("document: kind document, its file name, mime type, bytes and caption", async () => {
        const data = Buffer.from("%PDF-1.4 comprovante");
        const id = await h.customerSends(s, { type: "document", data, mimeType: "application/pdf", fileName: "comprovante.pdf", caption: "segue" });
        await until(() => messageOf(s.events, id)).toBeDefined();
        const m = messageOf(s.events, id)!;
        expect(m).toMatchObject({ kind: "document", body: "segue", media: { mimeType: "application/pdf", fileName: "comprovante.pdf" } });
        expect(m.media!.data.equals(data)).toBe(true);
      });

      it("voice note: kind audio, voice: true, the bytes", async () => {
        const data = Buffer.from("OggS fake opus bytes");
        const id = await h.customerSends(s, { type: "audio", data, mimeType: "audio/ogg; codecs=opus", voice: true });
        await until(() => messageOf(s.events, id)).toBeDefined();
        const m = messageOf(s.events, id)!;
        expect(m).toMatchObject({ kind: "audio", body: "", media: { voice: true, mimeType: expect.stringMatching(/^audio\/ogg/) } });
        expect(m.media!.data.equals(data)).toBe(true);
      });
    });

    describe("acks", () => {
      it("delivered then read arrive as ack 2 then ack 3 for the sent message", async () => {
        const { providerMessageId } = await s.session.send({ to: to(), content: { kind: "text", body: "chegou?" } });
        await h.customerAcks(s, providerMessageId, 2);
        await until(() => acksOf(s.events, providerMessageId)).toEqual([2]);
        await h.customerAcks(s, providerMessageId, 3);
        await until(() => acksOf(s.events, providerMessageId)).toEqual([2, 3]);
      });

      if (has("dropsLateAcks"))
        it("a late 'delivered' after 'read' is not emitted: acks never go backwards", async () => {
          const { providerMessageId } = await s.session.send({ to: to(), content: { kind: "text", body: "lida?" } });
          await h.customerAcks(s, providerMessageId, 3);
          await until(() => acksOf(s.events, providerMessageId)).toEqual([3]);
          await h.customerAcks(s, providerMessageId, 2);
          // Events of a session are emitted in order: once a later customer message is out, the late ack was handled.
          const marker = await h.customerSends(s, { type: "text", body: "marcador" });
          await until(() => messageOf(s.events, marker)).toBeDefined();
          expect(acksOf(s.events, providerMessageId)).toEqual([3]);
        });
    });

    describe("numbers and deletes", () => {
      it("checkNumber of a number with WhatsApp answers the digits WhatsApp uses for it", async () => {
        const id = await s.session.checkNumber(h.customer.number);
        expect(id).toMatch(/^\d{10,15}$/);
      });

      if (has("numberLookup"))
        it("checkNumber of a number without WhatsApp answers null", async () => {
          expect(await s.session.checkNumber(h.numberWithoutWhatsApp!)).toBeNull();
        });

      if (has("deleteSent"))
        it("deleteMessage of a sent message reaches the customer's side", async () => {
          const { providerMessageId } = await s.session.send({ to: to(), content: { kind: "text", body: "enviada por engano" } });
          await s.session.deleteMessage(to(), providerMessageId);
          expect(h.deletedOnTheOtherSide!(s, providerMessageId)).toBe(true);
        });
      else
        it("deleteMessage is refused with UNSUPPORTED (the provider cannot delete a sent message)", async () => {
          const { providerMessageId } = await s.session.send({ to: to(), content: { kind: "text", body: "fica" } });
          await expect(s.session.deleteMessage(to(), providerMessageId)).rejects.toMatchObject({ code: "UNSUPPORTED" });
        });
    });

    describe("not connected", () => {
      it("before connect(), send and checkNumber reject with NOT_CONNECTED", async () => {
        const idle = await h.newSession();
        await expect(idle.session.send({ to: to(), content: { kind: "text", body: "x" } })).rejects.toMatchObject({ code: "NOT_CONNECTED" });
        await expect(idle.session.checkNumber(h.customer.number)).rejects.toMatchObject({ code: "NOT_CONNECTED" });
        expect(idle.events.filter((e) => e.type !== "message")).toEqual([]);
      });
    });

    describe("close", () => {
      it("disconnect(): sends reject NOT_CONNECTED, nothing is emitted until connect() brings it back with its pairing", async () => {
        await s.session.disconnect();
        const mark = s.events.length;
        await expect(s.session.send({ to: to(), content: { kind: "text", body: "x" } })).rejects.toMatchObject({ code: "NOT_CONNECTED" });
        await h.trafficAfterClose?.(s);
        // Reconnecting is the sync point: the session's events are emitted in order, so anything the closed
        // session let through would come before this OPENING.
        await h.bringUp(s);
        expect(s.events.slice(mark).map((e) => (e.type === "status" ? e.status : e.type))).toEqual(["OPENING", "CONNECTED"]);
      });

      if (has("remoteLogout"))
        it("the other side logging the number out ends with a final DISCONNECTED status; nothing follows it", async () => {
          await h.remoteLogout!(s);
          await until(() => statuses(s.events).at(-1)?.status).toBe("DISCONNECTED");
          expect(statuses(s.events).at(-1)).toMatchObject({ reason: "loggedOut" });
          const mark = s.events.length;
          await expect(s.session.send({ to: to(), content: { kind: "text", body: "x" } })).rejects.toMatchObject({ code: "NOT_CONNECTED" });
          await h.trafficAfterClose?.(s);
          await h.bringUp(s);
          expect(s.events.slice(mark).map((e) => (e.type === "status" ? e.status : e.type))).toEqual(["OPENING", "CONNECTED"]);
        });
    });
  });
}
