/** The simulator presents an attendant's voice note as WhatsApp would: converted to OGG/Opus mono. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionDTO } from "@balcao/shared";
import { buildTenant } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { readOggOpusInfo } from "../audio";
import { toneMp3 } from "../audio/testing";
import type { SimulatorSession } from "./provider";

let t: TestApp;
let tenant: Awaited<ReturnType<typeof buildTenant>>;
let session: SimulatorSession;
const PHONE = "5511987654321";

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0" });
  tenant = await buildTenant(t.app);
  const res = await t.app.inject({ method: "POST", url: "/api/whatsapp", headers: tenant.adminSession.headers, payload: { name: "Simulador voz" } });
  const conn: ConnectionDTO = res.json();
  await t.app.inject({ method: "POST", url: `/api/simulator/${conn.id}/scan`, headers: tenant.adminSession.headers, payload: { code: conn.qrcode } });
  session = t.ctx.channels.session(tenant.company.id, conn.id) as unknown as SimulatorSession;
});
afterAll(() => t.close());

describe("simulator voice notes", () => {
  const to = { id: PHONE, kind: "phone" as const };
  const lastOnPhone = () => session.addPhone(PHONE).messages.at(-1)!;

  it("an MP3 voice note arrives on the simulated phone as OGG/Opus mono; a plain audio file stays as sent", async () => {
    const mp3 = await toneMp3(1.2);
    await session.send({ to, content: { kind: "audio", data: mp3, mimeType: "audio/mpeg", fileName: "gravacao.mp3", voice: true } });
    const voice = lastOnPhone();
    expect(voice.media).toMatchObject({ mimeType: "audio/ogg; codecs=opus", fileName: "gravacao.ogg", voice: true });
    expect(readOggOpusInfo(voice.media!.data)).toMatchObject({ channels: 1 });
    await session.send({ to, content: { kind: "audio", data: mp3, mimeType: "audio/mpeg", fileName: "musica.mp3", voice: false } });
    expect(lastOnPhone().media).toMatchObject({ data: mp3, mimeType: "audio/mpeg", fileName: "musica.mp3", voice: false });
  });

  it("a voice note that is not audio fails the send, like the Baileys provider", async () => {
    const before = session.addPhone(PHONE).messages.length;
    await expect(
      session.send({ to, content: { kind: "audio", data: Buffer.from("%PDF-1.4"), mimeType: "audio/mpeg", fileName: "x.mp3", voice: true } }),
    ).rejects.toMatchObject({ code: "SEND_FAILED" });
    expect(session.addPhone(PHONE).messages.length).toBe(before);
  });
});
