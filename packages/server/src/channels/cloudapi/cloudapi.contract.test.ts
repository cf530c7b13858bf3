/**
 * The provider contract suite (../providerContract.ts) against the Cloud API provider and the local fake Graph
 * API: a session comes up by checking its token against the fake; the customer's messages and statuses are signed
 * webhooks the fake POSTs into the app (job → ChannelManager.dispatch, added here to the connection's event
 * stream); what the company sent is the fake's log of accepted messages and uploaded media.
 */
import { expect } from "vitest";
import { buildTenant } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { providerContract, type ContractSession, type CustomerInput, type Delivered } from "../providerContract";
import type { ChannelEvent } from "../types";
import { loadCloudApiAccount } from "./account";
import type { FakeGraph } from "./fakeGraph";
import { connectCloudApi, deliverInto, fakeGraphEnv, fakeGraphProvider, startFakeGraph, type FakeGraphTestAccount } from "./fakeGraphSetup";
import type { CloudApiProvider } from "./provider";

const ACCOUNT: FakeGraphTestAccount = {
  phoneNumberId: "1065559901",
  wabaId: "2025559901",
  accessToken: "EAAG-contract-token",
  appSecret: "contract-app-secret",
  verifyToken: "contract-verify-token",
  displayPhoneNumber: "+55 11 3000-9901",
};
const CUSTOMER = { number: "5511987654321", name: "Maria Cliente" };

let t: TestApp;
let fake: FakeGraph;
let provider: CloudApiProvider;
let companyId: number;
let connectionId: number;
/** Sessions of the contract: webhook events of the connection are added to each one's stream. */
const sessions: ContractSession[] = [];

/** The Graph message a customer sends for a contract input (media put on the fake first, as Meta holds it). */
function graphMessage(input: CustomerInput): Record<string, unknown> & { type: string } {
  switch (input.type) {
    case "text":
      return { type: "text", text: { body: input.body }, ...(input.quotedId && { context: { from: CUSTOMER.number, id: input.quotedId } }) };
    case "image":
      return {
        type: "image",
        image: { id: fake.addMedia(ACCOUNT.phoneNumberId, input.data, input.mimeType), mime_type: input.mimeType, caption: input.caption },
      };
    case "document": {
      const id = fake.addMedia(ACCOUNT.phoneNumberId, input.data, input.mimeType);
      return { type: "document", document: { id, mime_type: input.mimeType, filename: input.fileName, caption: input.caption } };
    }
    case "audio":
      return {
        type: "audio",
        audio: { id: fake.addMedia(ACCOUNT.phoneNumberId, input.data, input.mimeType), mime_type: input.mimeType, voice: input.voice },
      };
  }
}

providerContract({
  name: "cloud-api",
  capabilities: [],
  customer: CUSTOMER,
  async setup() {
    fake = await startFakeGraph();
    t = await createTestApp(fakeGraphEnv(fake));
    fake.deliver = deliverInto(t.app);
    const tenant = await buildTenant(t.app);
    companyId = tenant.company.id;
    connectionId = (await connectCloudApi(t.app, fake, tenant.adminSession.headers, ACCOUNT, "Contrato")).id;
    provider = fakeGraphProvider(fake, (company, connection) => loadCloudApiAccount(t.ctx.database.db, company, connection));
    t.ctx.channels.onEvent(async (context, event) => {
      if (context.connectionId === connectionId) for (const s of sessions) s.events.push(event);
    });
    // The customer wrote a moment ago: the 24-hour window is open for free-form sends.
    fake.setLastInbound(ACCOUNT.phoneNumberId, CUSTOMER.number, Date.now());
  },
  async teardown() {
    await t.close();
    await fake.stop();
  },
  async newSession() {
    // Sessions of the Cloud API hold no socket: the contract's own run beside the app's, on the same connection.
    const events: ChannelEvent[] = [];
    const s: ContractSession = { session: provider.createSession({ companyId, connectionId, emit: async (e) => void events.push(e) }), events };
    sessions.push(s);
    return s;
  },
  async bringUp(s) {
    await s.session.connect();
    expect(s.events.filter((e) => e.type === "status").at(-1)).toMatchObject({ status: "CONNECTED" });
  },
  async customerSends(_s, input) {
    const { id, answers } = await fake.inbound(ACCOUNT.phoneNumberId, CUSTOMER.number, graphMessage(input), { profileName: CUSTOMER.name });
    expect(answers.map((a) => a.status)).toEqual([200]);
    return id;
  },
  async customerAcks(_s, id, ack) {
    const answers = await fake.status(ACCOUNT.phoneNumberId, id, ack === 2 ? "delivered" : "read");
    expect(answers.map((a) => a.status)).toEqual([200]);
  },
  delivered(_s, id) {
    const sent = fake.sent().find((x) => x.wamid === id);
    if (!sent) return undefined;
    const b = sent.body as Record<string, unknown> & { to: string; type: string; context?: { message_id?: string } };
    const base = { to: b.to, text: "", ...(b.context?.message_id && { quotedId: b.context.message_id }) };
    switch (b.type) {
      case "text":
        return { ...base, kind: "text", text: (b.text as { body: string }).body };
      case "image":
      case "video":
      case "document":
      case "audio": {
        const ref = b[b.type] as { id: string; caption?: string; filename?: string; voice?: boolean };
        const media = fake.mediaBytes(ref.id);
        if (!media) return undefined;
        return {
          ...base,
          kind: b.type,
          text: ref.caption ?? "",
          media: { data: media.data, mimeType: media.mimeType, ...(ref.filename && { fileName: ref.filename }), voice: ref.voice === true },
        } satisfies Delivered;
      }
      case "location": {
        const l = b.location as { latitude: number; longitude: number; name?: string; address?: string };
        return {
          ...base,
          kind: "location",
          location: { latitude: l.latitude, longitude: l.longitude, description: [l.name, l.address].filter(Boolean).join(" - ") },
        };
      }
      case "contacts": {
        const [c] = b.contacts as { name: { formatted_name: string }; phones?: { wa_id?: string }[] }[];
        const waId = c!.phones?.[0]?.wa_id;
        return { ...base, kind: "vcard", contact: { name: c!.name.formatted_name, ...(waId && { waId }) } };
      }
      default:
        return undefined;
    }
  },
});
