import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiPixClient, ApiPixError } from "./apiPix";
import { createMutualTlsMaterial, type MutualTlsMaterial } from "./certificates";
import { ApiPixProvider } from "./dynamicProvider";
import { FakePsp } from "./fakePsp";
import { StaticPixProvider } from "./staticProvider";

/**
 * An EMV QRCPS-MPM reader written from the specification (ID, 2-digit length, value), independent of
 * pix-utils, so a BR Code is checked by something other than the library that wrote it.
 */
function readTlv(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  let i = 0;
  while (i < text.length) {
    const id = text.slice(i, i + 2);
    const length = Number(text.slice(i + 2, i + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(length)) throw new Error(`bad TLV at ${i}`);
    fields.set(id, text.slice(i + 4, i + 4 + length));
    i += 4 + length;
  }
  if (i !== text.length) throw new Error("TLV overruns the text");
  return fields;
}

/** CRC16-CCITT-FALSE: polynomial 0x1021, initial 0xFFFF, no reflection, no final xor. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

function checkCrc(brCode: string): void {
  expect(brCode.slice(-8, -4)).toBe("6304");
  expect(brCode.slice(-4)).toBe(crc16(brCode.slice(0, -4)));
}

describe("static BR Code", () => {
  const provider = new StaticPixProvider({ pixKey: "financeiro@balcao.dev", merchantName: "Balcao", merchantCity: "Sao Paulo" });

  it("is a valid EMV payload with the invoice's amount, txid and the platform's key", async () => {
    const charge = await provider.createCharge({ txid: provider.newTxid(42), amountCents: 29_970, description: "Fatura 42", expiresInSeconds: 3600 });
    checkCrc(charge.brCode);
    const fields = readTlv(charge.brCode);
    expect(fields.get("00")).toBe("01");
    expect(fields.get("52")).toBe("0000");
    expect(fields.get("53")).toBe("986");
    expect(fields.get("54")).toBe("299.70");
    expect(fields.get("58")).toBe("BR");
    expect(fields.get("59")!.length).toBeLessThanOrEqual(25);
    expect(fields.get("60")!.length).toBeLessThanOrEqual(15);
    const account = readTlv(fields.get("26")!);
    expect(account.get("00")!.toLowerCase()).toBe("br.gov.bcb.pix");
    expect(account.get("01")).toBe("financeiro@balcao.dev");
    expect(account.get("02")).toBe("Fatura 42");
    const additional = readTlv(fields.get("62")!);
    expect(additional.get("05")).toBe("BALCAOFATURA42");
    expect(additional.get("05")).toMatch(/^[A-Za-z0-9]{1,25}$/);
    expect(charge).toMatchObject({ amount: "299.70", status: "ATIVA", expiresInSeconds: null });
  });

  it("detects a tampered amount through the CRC", async () => {
    const charge = await provider.createCharge({ txid: "BALCAO1", amountCents: 1000, description: "Fatura 1", expiresInSeconds: 3600 });
    const tampered = charge.brCode.replace("540510.00", "540501.00");
    expect(tampered).not.toBe(charge.brCode);
    expect(tampered.slice(-4)).not.toBe(crc16(tampered.slice(0, -4)));
  });

  it("refuses to build a code without a Pix key", async () => {
    const none = new StaticPixProvider({ pixKey: null, merchantName: "Balcao", merchantCity: "Sao Paulo" });
    await expect(none.createCharge({ txid: "X1", amountCents: 100, description: "x", expiresInSeconds: 60 })).rejects.toThrow(/PIX_KEY/);
  });
});

describe("API Pix v2 client against the local PSP (mutual TLS)", () => {
  let material: MutualTlsMaterial;
  let psp: FakePsp;
  let baseUrl: string;
  let receiver: http.Server;
  const received: unknown[] = [];
  let receiverUrl: string;

  const client = (overrides: Partial<ConstructorParameters<typeof ApiPixClient>[0]> = {}) =>
    new ApiPixClient({
      baseUrl,
      tokenPath: "/oauth/token",
      clientId: "Client_Id_test",
      clientSecret: "Client_Secret_test",
      tls: { pfx: material.clientP12, passphrase: material.clientPassphrase, ca: material.ca.cert },
      ...overrides,
    });

  beforeAll(async () => {
    material = createMutualTlsMaterial();
    psp = new FakePsp({ clientId: "Client_Id_test", clientSecret: "Client_Secret_test", tls: { ...material.server, ca: material.ca.cert } });
    baseUrl = await psp.listen();
    receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        received.push({ path: req.url, body: JSON.parse(body) });
        res.writeHead(200).end("{}");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook/secret`;
  });
  afterAll(async () => {
    await psp.close();
    await new Promise((r) => receiver.close(r));
  });

  it("creates and reads a charge with the standard's field names, one token for several calls", async () => {
    const api = client();
    const provider = new ApiPixProvider("efi", api, "chave@balcao.dev");
    const txid = provider.newTxid(7);
    expect(txid).toMatch(/^[A-Za-z0-9]{26,35}$/);
    const charge = await provider.createCharge({ txid, amountCents: 9990, description: "Fatura 7", expiresInSeconds: 3600 });
    expect(charge).toMatchObject({ txid, status: "ATIVA", amount: "99.90", expiresInSeconds: 3600 });
    const cob = psp.cob(txid)!;
    expect(cob).toMatchObject({
      valor: { original: "99.90" },
      chave: "chave@balcao.dev",
      calendario: { expiracao: 3600 },
      solicitacaoPagador: "Fatura 7",
    });
    // A dynamic BR Code points at the charge's location and carries a valid CRC.
    checkCrc(charge.brCode);
    const account = readTlv(readTlv(charge.brCode).get("26")!);
    expect(account.get("25")).toBe(cob.location);

    const state = await provider.getCharge(txid);
    expect(state).toMatchObject({ txid, status: "ATIVA", amount: "99.90", payments: [] });
    expect(await provider.getCharge("A".repeat(30))).toBeNull();
    const tokenCalls = psp.calls.filter((c) => c.path === "/oauth/token");
    expect(tokenCalls).toHaveLength(1);
    expect(psp.calls.every((c) => c.clientCertificate)).toBe(true);
    await provider.close();
  });

  it("refuses a duplicate txid and a malformed one, as the API does", async () => {
    const api = client();
    const body = { calendario: { expiracao: 60 }, valor: { original: "1.00" }, chave: "k" };
    const txid = "T".repeat(30);
    await api.putCob(txid, body);
    await expect(api.putCob(txid, body)).rejects.toMatchObject({ status: 400 });
    await expect(api.putCob("short", body)).rejects.toBeInstanceOf(ApiPixError);
    api.close();
  });

  it("fetches a new token when the PSP revoked the cached one", async () => {
    const api = client();
    await api.putCob("R".repeat(30), { calendario: { expiracao: 60 }, valor: { original: "2.00" }, chave: "k" });
    const before = psp.calls.filter((c) => c.path === "/oauth/token").length;
    psp.revokeTokens();
    expect(await api.getCob("R".repeat(30))).toMatchObject({ status: "ATIVA" });
    expect(psp.calls.filter((c) => c.path === "/oauth/token").length).toBe(before + 1);
    api.close();
  });

  it("refuses wrong client credentials", async () => {
    const api = client({ clientSecret: "wrong" });
    await expect(api.getCob("A".repeat(30))).rejects.toMatchObject({ status: 401 });
    api.close();
  });

  it("refuses a caller without the client certificate at the TLS handshake", async () => {
    const outcome = await new Promise<string>((resolve) => {
      const req = https.request(`${baseUrl}/oauth/token`, { method: "POST", ca: material.ca.cert }, (res) => resolve(`status ${res.statusCode}`));
      req.on("error", (err) => resolve(`error ${err.message}`));
      req.end("{}");
    });
    expect(outcome).toMatch(/^error/);
  });

  it("registers the webhook (validated with teste_webhook) and calls {url}/pix when paid", async () => {
    const api = client();
    const provider = new ApiPixProvider("efi", api, "hook@balcao.dev");
    await provider.registerWebhook(receiverUrl);
    expect(received).toContainEqual({ path: "/hook/secret/pix", body: { evento: "teste_webhook" } });
    expect(await api.getWebhook("hook@balcao.dev")).toMatchObject({ webhookUrl: receiverUrl, chave: "hook@balcao.dev" });

    const txid = provider.newTxid(8);
    await provider.createCharge({ txid, amountCents: 5000, description: "Fatura 8", expiresInSeconds: 600 });
    const { pix, webhookStatus } = await psp.pay(txid);
    expect(webhookStatus).toBe(200);
    expect(pix.endToEndId).toMatch(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/);
    expect(received.at(-1)).toEqual({
      path: "/hook/secret/pix",
      body: { pix: [expect.objectContaining({ txid, valor: "50.00", endToEndId: pix.endToEndId })] },
    });
    expect(await provider.getCharge(txid)).toMatchObject({
      status: "CONCLUIDA",
      payments: [{ endToEndId: pix.endToEndId, txid, amount: "50.00" }],
    });
    await provider.close();
  });
});
