import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import https from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { AddressInfo } from "node:net";
import { createDynamicPix, hasError } from "pix-utils";
import type { Cob, CobRequest, PixRecebido } from "./apiPix";
import { randomAlphanumeric } from "./provider";

/**
 * A local PSP speaking the Banco Central's API Pix v2 the way Efí serves it: HTTPS with mutual TLS (clients
 * without a certificate from our CA are refused at the handshake), `POST /oauth/token` (client credentials,
 * HTTP Basic), `PUT|GET /v2/cob/{txid}`, `PUT|GET /v2/webhook/{chave}` (validated with a `teste_webhook`
 * call, and `x-skip-mtls-checking` required for a receiver without mutual TLS), and the callback
 * `POST {webhookUrl}/pix` with `{pix:[…]}` when a charge is paid. Same endpoints and field names as the real
 * API, so the client under test is the production client. Used by the tests and by PIX_PROVIDER=sandbox.
 */

export interface FakePspOptions {
  clientId: string;
  clientSecret: string;
  tls: { cert: string; key: string; ca: string };
  /** Token lifetime in seconds (Efí: 3600). */
  tokenTtlSeconds?: number;
  merchantName?: string;
  merchantCity?: string;
}

export interface FakePspCall {
  method: string;
  path: string;
  /** Whether the caller presented a client certificate our CA signed. */
  clientCertificate: boolean;
}

interface StoredCob extends Cob {
  pix: PixRecebido[];
}

const TXID = /^[a-zA-Z0-9]{26,35}$/;
const AMOUNT = /^\d{1,10}\.\d{2}$/;
const ERROR_BASE = "https://pix.bcb.gov.br/api/v2/error";

export class FakePsp {
  readonly calls: FakePspCall[] = [];
  private readonly server: https.Server;
  private readonly tokens = new Map<string, number>();
  private readonly cobs = new Map<string, StoredCob>();
  private readonly webhooks = new Map<string, { webhookUrl: string; chave: string; criacao: string }>();
  private locSeq = 0;
  baseUrl = "";

  constructor(private readonly options: FakePspOptions) {
    this.server = https.createServer(
      { cert: options.tls.cert, key: options.tls.key, ca: [options.tls.ca], requestCert: true, rejectUnauthorized: true },
      (req, res) => void this.handle(req, res),
    );
  }

  async listen(port = 0, host = "127.0.0.1"): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, host, resolve));
    const address = this.server.address() as AddressInfo;
    this.baseUrl = `https://${host}:${address.port}`;
    return this.baseUrl;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The charge as the PSP holds it (tests). */
  cob(txid: string): StoredCob | undefined {
    return this.cobs.get(txid);
  }

  /** The charge whose copy-and-paste code is `brCode` (the sandbox "bank app" pays by reading it). */
  findByBrCode(brCode: string): StoredCob | undefined {
    for (const cob of this.cobs.values()) if (cob.pixCopiaECola === brCode) return cob;
    return undefined;
  }

  webhookFor(chave: string): string | undefined {
    return this.webhooks.get(chave)?.webhookUrl;
  }

  /**
   * A payer pays the charge: it becomes CONCLUIDA with a new `pix[]` entry (a fresh endToEndId), and the PSP
   * calls the registered webhook. `amount` lets a test pay a different value than the charge's.
   */
  async pay(txid: string, options: { amount?: string; notify?: boolean } = {}): Promise<{ pix: PixRecebido; webhookStatus: number | null }> {
    const cob = this.cobs.get(txid);
    if (!cob) throw new Error(`fake PSP: no charge ${txid}`);
    if (cob.status !== "ATIVA") throw new Error(`fake PSP: charge ${txid} is ${cob.status}`);
    const pix: PixRecebido = {
      endToEndId: endToEndId(),
      txid,
      valor: options.amount ?? cob.valor.original,
      chave: cob.chave,
      horario: new Date().toISOString(),
      infoPagador: "Pagamento Balcão",
    };
    cob.pix.push(pix);
    cob.status = "CONCLUIDA";
    const webhookStatus = options.notify === false ? null : await this.notify({ pix: [pix] }, cob.chave);
    return { pix, webhookStatus };
  }

  /** Sends a callback body as the PSP would (tests replay, reorder or forge them with this). */
  async notify(body: unknown, chave: string): Promise<number | null> {
    const hook = this.webhooks.get(chave);
    if (!hook) return null;
    const res = await fetch(`${hook.webhookUrl.replace(/\/$/, "")}/pix`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    return res.status;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "https://fake-psp");
    const socket = req.socket as TLSSocket;
    this.calls.push({ method: req.method ?? "", path: url.pathname, clientCertificate: socket.authorized === true });
    try {
      const body = await readJson(req);
      if (req.method === "POST" && url.pathname === "/oauth/token") return this.token(req, body, res);
      if (!this.authorized(req)) return send(res, 401, { error: "invalid_token", error_description: "Token de acesso inválido." });
      const cobMatch = /^\/v2\/cob\/([^/]+)$/.exec(url.pathname);
      if (cobMatch) {
        const txid = decodeURIComponent(cobMatch[1]!);
        if (req.method === "PUT") return this.putCob(txid, body as CobRequest, res);
        if (req.method === "GET") {
          const cob = this.cobs.get(txid);
          return cob ? send(res, 200, cob) : problem(res, 404, "CobNaoEncontrado", "Cobrança não encontrada.", `txid ${txid}`);
        }
      }
      const hookMatch = /^\/v2\/webhook\/([^/]+)$/.exec(url.pathname);
      if (hookMatch) {
        const chave = decodeURIComponent(hookMatch[1]!);
        if (req.method === "PUT") return await this.putWebhook(req, chave, body as { webhookUrl?: string }, res);
        if (req.method === "GET") {
          const hook = this.webhooks.get(chave);
          return hook ? send(res, 200, hook) : problem(res, 404, "WebhookNaoEncontrado", "Webhook não encontrado.", chave);
        }
      }
      return problem(res, 404, "NaoEncontrado", "Recurso não encontrado.", url.pathname);
    } catch (err) {
      return problem(res, 400, "RequisicaoInvalida", "Requisição inválida.", (err as Error).message);
    }
  }

  private token(req: IncomingMessage, body: unknown, res: ServerResponse): void {
    const expected = `Basic ${Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString("base64")}`;
    const given = req.headers.authorization ?? "";
    if (!sameText(given, expected)) return send(res, 401, { error: "invalid_client", error_description: "Credenciais inválidas." });
    if ((body as { grant_type?: string } | null)?.grant_type !== "client_credentials") return send(res, 400, { error: "unsupported_grant_type" });
    const token = randomBytes(24).toString("base64url");
    const ttl = this.options.tokenTtlSeconds ?? 3600;
    this.tokens.set(token, Date.now() + ttl * 1000);
    send(res, 200, { access_token: token, token_type: "Bearer", expires_in: ttl, scope: "cob.write cob.read webhook.write webhook.read" });
  }

  private authorized(req: IncomingMessage): boolean {
    const [scheme, token] = (req.headers.authorization ?? "").split(" ");
    if (scheme !== "Bearer" || !token) return false;
    const expires = this.tokens.get(token);
    return expires !== undefined && expires > Date.now();
  }

  /** Forgets every token (a PSP revoking them early): the client must fetch a new one. */
  revokeTokens(): void {
    this.tokens.clear();
  }

  private putCob(txid: string, body: CobRequest, res: ServerResponse): void {
    if (!TXID.test(txid)) return problem(res, 400, "CobOperacaoInvalida", "Cobrança inválida.", "txid deve ter de 26 a 35 caracteres alfanuméricos");
    if (this.cobs.has(txid)) return problem(res, 400, "CobOperacaoInvalida", "Cobrança inválida.", "txid já utilizado");
    const expiracao = body?.calendario?.expiracao;
    if (!Number.isInteger(expiracao) || expiracao <= 0) return problem(res, 400, "CobOperacaoInvalida", "Cobrança inválida.", "calendario.expiracao");
    if (!AMOUNT.test(body?.valor?.original ?? "") || Number(body.valor.original) <= 0)
      return problem(res, 400, "CobOperacaoInvalida", "Cobrança inválida.", "valor.original");
    if (!body.chave) return problem(res, 400, "CobOperacaoInvalida", "Cobrança inválida.", "chave");
    const id = ++this.locSeq;
    const location = `${new URL(this.baseUrl).host}/qr/v2/${randomUUID().replaceAll("-", "")}`;
    const dynamic = createDynamicPix({
      merchantName: this.options.merchantName ?? "Balcao",
      merchantCity: this.options.merchantCity ?? "Sao Paulo",
      url: location,
    });
    if (hasError(dynamic)) return problem(res, 500, "ErroInterno", "Erro interno.", dynamic.message);
    const cob: StoredCob = {
      calendario: { criacao: new Date().toISOString(), expiracao },
      txid,
      revisao: 0,
      loc: { id, location, tipoCob: "cob" },
      location,
      status: "ATIVA",
      ...(body.devedor ? { devedor: body.devedor } : {}),
      valor: { original: body.valor.original },
      chave: body.chave,
      ...(body.solicitacaoPagador ? { solicitacaoPagador: body.solicitacaoPagador } : {}),
      pixCopiaECola: dynamic.toBRCode(),
      pix: [],
    };
    this.cobs.set(txid, cob);
    const { pix: _none, ...created } = cob;
    send(res, 201, created);
  }

  private async putWebhook(req: IncomingMessage, chave: string, body: { webhookUrl?: string }, res: ServerResponse): Promise<void> {
    const webhookUrl = body?.webhookUrl;
    if (!webhookUrl || !/^https?:\/\//.test(webhookUrl)) return problem(res, 400, "WebhookOperacaoInvalida", "Webhook inválido.", "webhookUrl");
    // A receiver without mutual TLS must be declared so (Efí's rule); ours always is.
    if (req.headers["x-skip-mtls-checking"] !== "true")
      return problem(res, 400, "WebhookOperacaoInvalida", "Webhook inválido.", "o servidor do webhook não exige mTLS");
    // Efí checks the URL answers before accepting it.
    const check = await fetch(`${webhookUrl.replace(/\/$/, "")}/pix`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ evento: "teste_webhook" }),
    }).catch(() => null);
    if (!check || !check.ok) return problem(res, 400, "WebhookOperacaoInvalida", "Webhook inválido.", "a URL não respondeu ao teste");
    await check.arrayBuffer();
    const hook = { webhookUrl, chave, criacao: new Date().toISOString() };
    this.webhooks.set(chave, hook);
    send(res, 200, hook);
  }
}

/** An end-to-end id as the SPI writes it: E + ISPB (8) + yyyyMMddHHmm + 11 alphanumerics = 32 characters. */
function endToEndId(): string {
  const d = new Date();
  const stamp = d.toISOString().replace(/[-:T]/g, "").slice(0, 12);
  return `E18236120${stamp}${randomAlphanumeric(11)}`.slice(0, 32);
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : null;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** The API Pix error shape (RFC 7807 problem details). */
function problem(res: ServerResponse, status: number, type: string, title: string, detail: string): void {
  send(res, status, { type: `${ERROR_BASE}/${type}`, title, status, detail });
}
