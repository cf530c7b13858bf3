/**
 * The provider contract suite (../providerContract.ts) against the Baileys provider on a scripted socket
 * (./scriptedSocket.ts): the socket's open() pairs a session, the customer's traffic is Baileys' own events
 * (messages.upsert, messages.update) emitted on it, and what the company sent is its sendMessage log.
 */
import { randomBytes } from "node:crypto";
import { expect, vi } from "vitest";
import { connections } from "../../db/schema";
import { buildTenant } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { parseVcard, providerContract, type ContractSession, type Delivered } from "../providerContract";
import type { ChannelEvent } from "../types";
import type { BaileysProvider } from "./provider";
import { scriptedBaileysProvider } from "./scriptedBaileysSetup";
import { ScriptedSocket } from "./scriptedSocket";

interface BaileysContractSession extends ContractSession {
  /** Every socket the session opened; the last one is live. */
  sockets: ScriptedSocket[];
}

let t: TestApp;
let tenant: Awaited<ReturnType<typeof buildTenant>>;
let provider: BaileysProvider;
/** Sockets in the order the provider made them. */
const made: ScriptedSocket[] = [];
/** The bytes "WhatsApp's media servers" hold for each inbound message id. */
const mediaOf = new Map<string, Buffer>();
const CUSTOMER = { number: "5511987654321", name: "Maria Cliente" };
const JID = `${CUSTOMER.number}@s.whatsapp.net`;
let seq = 0;

const live = (s: BaileysContractSession) => s.sockets.at(-1)!;
const upsert = (sock: ScriptedSocket, id: string, message: object) =>
  sock.ev.emit("messages.upsert", {
    type: "notify",
    messages: [{ key: { remoteJid: JID, fromMe: false, id }, message, messageTimestamp: Math.floor(Date.now() / 1000), pushName: CUSTOMER.name }],
  });
const statusUpdate = (sock: ScriptedSocket, id: string, status: number) =>
  sock.ev.emit("messages.update", [{ key: { remoteJid: JID, fromMe: true, id }, update: { status } }]);

providerContract<BaileysContractSession>({
  name: "baileys",
  capabilities: ["numberLookup", "dropsLateAcks", "deleteSent", "remoteLogout"],
  customer: CUSTOMER,
  numberWithoutWhatsApp: "5511900000000",
  async setup() {
    t = await createTestApp();
    tenant = await buildTenant(t.app);
    provider = scriptedBaileysProvider(
      t.ctx.database.db,
      ScriptedSocket,
      (sock) => made.push(sock),
      async (msg) => {
        const data = mediaOf.get(msg.key.id);
        if (!data) throw new Error("no such media");
        return data;
      },
    );
  },
  teardown: () => t.close(),
  async newSession() {
    // A connection row the app's channel manager leaves alone (DISCONNECTED): this session is the contract's own.
    const [row] = await t.ctx.database.db
      .insert(connections)
      .values({ companyId: tenant.company.id, name: `Contrato ${randomBytes(4).toString("hex")}`, channel: "baileys" })
      .returning({ id: connections.id });
    const events: ChannelEvent[] = [];
    const session = provider.createSession({ companyId: tenant.company.id, connectionId: row!.id, emit: async (e) => void events.push(e) });
    return { session, events, sockets: [] };
  },
  async bringUp(s) {
    const connected = s.events.filter((e) => e.type === "status" && e.status === "CONNECTED").length;
    const before = made.length;
    // connect() returns once its socket is made; the phone then pairs (or the saved pairing opens it).
    await s.session.connect();
    expect(made.length).toBe(before + 1);
    s.sockets.push(made.at(-1)!);
    live(s).open();
    // bringUp also runs in beforeAll, where expect.poll is not available.
    await vi.waitFor(() => expect(s.events.filter((e) => e.type === "status" && e.status === "CONNECTED").length).toBe(connected + 1), {
      timeout: 15_000,
      interval: 20,
    });
  },
  async customerSends(s, input) {
    const id = `3A${(++seq).toString().padStart(6, "0")}${randomBytes(4).toString("hex").toUpperCase()}`;
    switch (input.type) {
      case "text":
        upsert(
          live(s),
          id,
          input.quotedId
            ? { extendedTextMessage: { text: input.body, contextInfo: { stanzaId: input.quotedId, participant: JID } } }
            : { conversation: input.body },
        );
        break;
      case "image":
        mediaOf.set(id, input.data);
        upsert(live(s), id, { imageMessage: { caption: input.caption, mimetype: input.mimeType } });
        break;
      case "document":
        mediaOf.set(id, input.data);
        upsert(live(s), id, { documentMessage: { caption: input.caption, mimetype: input.mimeType, fileName: input.fileName } });
        break;
      case "audio":
        mediaOf.set(id, input.data);
        upsert(live(s), id, { audioMessage: { mimetype: input.mimeType, ptt: input.voice, seconds: 1 } });
        break;
    }
    return id;
  },
  async customerAcks(s, id, ack) {
    // proto.WebMessageInfo.Status: 3 DELIVERY_ACK, 4 READ.
    statusUpdate(live(s), id, ack === 2 ? 3 : 4);
  },
  delivered(s, id) {
    const sent = s.sockets.flatMap((sock) => sock.sent).find((x) => x.id === id);
    if (!sent) return undefined;
    const c = sent.content as Record<string, unknown> & { caption?: string; mimetype?: string; fileName?: string };
    const quotedId = (sent.options?.quoted as { key?: { id?: string } } | undefined)?.key?.id;
    const base = { to: sent.jid.split("@")[0]!, text: c.caption ?? "", ...(quotedId && { quotedId }) };
    if (typeof c.text === "string") return { ...base, kind: "text", text: c.text };
    for (const kind of ["image", "video", "document", "audio"] as const)
      if (Buffer.isBuffer(c[kind]))
        return {
          ...base,
          kind,
          media: { data: c[kind] as Buffer, mimeType: c.mimetype ?? "", ...(c.fileName && { fileName: c.fileName }), voice: c.ptt === true },
        } satisfies Delivered;
    if (c.location) {
      const l = c.location as { degreesLatitude: number; degreesLongitude: number; name?: string; address?: string };
      return {
        ...base,
        kind: "location",
        location: { latitude: l.degreesLatitude, longitude: l.degreesLongitude, description: [l.name, l.address].filter(Boolean).join(" - ") },
      };
    }
    if (c.contacts) {
      const vcard = (c.contacts as { contacts: { vcard: string }[] }).contacts[0]!.vcard;
      return { ...base, kind: "vcard", contact: parseVcard(vcard) };
    }
    return undefined;
  },
  deletedOnTheOtherSide: (s, id) => live(s).sent.some((x) => (x.content as { delete?: { id?: string } }).delete?.id === id && x.jid === JID),
  async trafficAfterClose(s) {
    // The closed socket still delivers a message and an ack: the session must not pass them on.
    upsert(live(s), `3ALATE${randomBytes(4).toString("hex")}`, { conversation: "depois do fim" });
    const lastSent = live(s).sent.at(-1);
    if (lastSent) statusUpdate(live(s), lastSent.id, 4);
  },
  async remoteLogout(s) {
    live(s).close(401);
  },
});
