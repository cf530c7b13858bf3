/**
 * The provider contract suite (../providerContract.ts) against the simulator: sessions are paired by "scanning"
 * the QR they show (SimulatorSession.pair), the customer is a simulated phone (customerSend, customerAck) and what
 * the company sent is read from that phone's messages.
 */
import { randomBytes } from "node:crypto";
import { connections } from "../../db/schema";
import { buildTenant } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { parseLocationBody, parseVcard, providerContract, type ContractSession, type Delivered } from "../providerContract";
import type { ChannelEvent } from "../types";
import { SimulatorProvider, type SimulatorSession } from "./provider";

interface SimContractSession extends ContractSession {
  sim: SimulatorSession;
}

let t: TestApp;
let tenant: Awaited<ReturnType<typeof buildTenant>>;
let provider: SimulatorProvider;
const CUSTOMER = { number: "5511987654321", name: "Maria Cliente" };

providerContract<SimContractSession>({
  name: "simulator",
  capabilities: ["numberLookup", "dropsLateAcks", "deleteSent"],
  customer: CUSTOMER,
  numberWithoutWhatsApp: "5511900000000",
  async setup() {
    t = await createTestApp();
    tenant = await buildTenant(t.app);
    // Acks only when the simulated phone gives them (no timer); numbers ending 0000 have no WhatsApp.
    provider = new SimulatorProvider(t.ctx.database.db, { ackDelayMs: 0, invalidSuffix: "0000" });
  },
  teardown: () => t.close(),
  async newSession() {
    // A connection row the app's channel manager leaves alone (DISCONNECTED): this session is the contract's own.
    const [row] = await t.ctx.database.db
      .insert(connections)
      .values({ companyId: tenant.company.id, name: `Contrato ${randomBytes(4).toString("hex")}`, channel: "simulator" })
      .returning({ id: connections.id });
    const events: ChannelEvent[] = [];
    const sim = provider.createSession({ companyId: tenant.company.id, connectionId: row!.id, emit: async (e) => void events.push(e) });
    return { session: sim, sim, events };
  },
  async bringUp(s) {
    const from = s.events.length;
    await s.sim.connect();
    const qr = s.events.slice(from).find((e): e is Extract<ChannelEvent, { type: "qr" }> => e.type === "qr");
    // Not paired yet: scan the QR it shows (once paired, connect() is CONNECTED at once).
    if (qr) await s.sim.pair(qr.qr);
  },
  async customerSends(s, input) {
    const sent = await s.sim.customerSend(CUSTOMER.number, input, CUSTOMER.name);
    return sent.id;
  },
  async customerAcks(s, id, ack) {
    await s.sim.customerAck(CUSTOMER.number, id, ack);
  },
  delivered(s, id) {
    const found = s.sim.book.find(id);
    if (!found || found.message.direction !== "in") return undefined;
    const { phone, message } = found;
    const base = { to: phone.number, text: message.body, ...(message.quotedId && { quotedId: message.quotedId }) };
    const media = message.media && {
      data: message.media.data,
      mimeType: message.media.mimeType,
      fileName: message.media.fileName,
      voice: !!message.media.voice,
    };
    switch (message.kind) {
      case "chat":
        return { ...base, kind: "text" };
      case "location":
        return { ...base, kind: "location", text: "", location: parseLocationBody(message.body) };
      case "vcard":
        return { ...base, kind: "vcard", text: "", contact: parseVcard(message.body) };
      default:
        return { ...base, kind: message.kind as Delivered["kind"], ...(media && { media }) };
    }
  },
  deletedOnTheOtherSide: (s, id) => s.sim.book.find(id)?.message.deleted === true,
});
