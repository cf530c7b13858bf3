import https from "node:https";

/**
 * A client of the Banco Central's API Pix v2 (`bacen/pix-api`), the standard every large PSP implements
 * (Efí, Inter, Bradesco, Santander, Sicoob…): OAuth 2 client credentials and every call over mutual TLS
 * with the certificate the PSP issued. Field names are the standard's (calendario, valor.original, chave,
 * pixCopiaECola, pix[].endToEndId…). Only what billing uses: immediate charges and the webhook.
 */

export interface CobRequest {
  calendario: { expiracao: number };
  devedor?: { cpf?: string; cnpj?: string; nome: string };
  valor: { original: string };
  chave: string;
  solicitacaoPagador?: string;
}

export interface PixRecebido {
  endToEndId: string;
  txid?: string;
  valor: string;
  chave?: string;
  horario: string;
  infoPagador?: string;
}

export interface Cob {
  calendario: { criacao: string; expiracao: number };
  txid: string;
  revisao: number;
  loc?: { id: number; location: string; tipoCob: string };
  location?: string;
  status: "ATIVA" | "CONCLUIDA" | "REMOVIDA_PELO_USUARIO_RECEBEDOR" | "REMOVIDA_PELO_PSP" | string;
  valor: { original: string };
  chave: string;
  solicitacaoPagador?: string;
  pixCopiaECola?: string;
  pix?: PixRecebido[];
}

export interface WebhookConfig {
  webhookUrl: string;
  chave: string;
  criacao?: string;
}

export interface ApiPixTls {
  /** PKCS#12 bundle (Efí's .p12) … */
  pfx?: Buffer;
  passphrase?: string;
  /** … or PEM certificate and key. */
  cert?: string | Buffer;
  key?: string | Buffer;
  /** Extra CAs to trust for the PSP's server certificate. */
  ca?: string | Buffer | (string | Buffer)[];
}

export interface ApiPixClientOptions {
  baseUrl: string;
  tokenPath: string;
  clientId: string;
  clientSecret: string;
  tls: ApiPixTls;
  timeoutMs?: number;
}

export class ApiPixError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** Renew the token a little before the PSP says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export class ApiPixClient {
  private readonly agent: https.Agent;
  private token?: { value: string; expiresAt: number };
  private tokenRequest?: Promise<string>;

  constructor(private readonly options: ApiPixClientOptions) {
    const { pfx, passphrase, cert, key, ca } = options.tls;
    this.agent = new https.Agent({ keepAlive: true, maxSockets: 8, pfx, passphrase, cert, key, ca });
  }

  close(): void {
    this.agent.destroy();
  }

  /** `PUT /v2/cob/{txid}`: creates an immediate charge with our txid (so a retry cannot charge twice). */
  putCob(txid: string, body: CobRequest): Promise<Cob> {
    return this.call<Cob>("PUT", `/v2/cob/${encodeURIComponent(txid)}`, body);
  }

  /** `GET /v2/cob/{txid}`: the PSP's record of the charge (with `pix[]` once paid); null when unknown. */
  async getCob(txid: string): Promise<Cob | null> {
    try {
      return await this.call<Cob>("GET", `/v2/cob/${encodeURIComponent(txid)}`);
    } catch (err) {
      if (err instanceof ApiPixError && err.status === 404) return null;
      throw err;
    }
  }

  /**
   * `PUT /v2/webhook/{chave}`. `x-skip-mtls-checking` tells Efí our receiver does not demand its client
   * certificate (a TLS-terminating proxy usually cannot); the URL then carries an unguessable secret instead.
   */
  putWebhook(chave: string, webhookUrl: string): Promise<unknown> {
    return this.call("PUT", `/v2/webhook/${encodeURIComponent(chave)}`, { webhookUrl }, { "x-skip-mtls-checking": "true" });
  }

  getWebhook(chave: string): Promise<WebhookConfig> {
    return this.call<WebhookConfig>("GET", `/v2/webhook/${encodeURIComponent(chave)}`);
  }

  private async call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken();
      const res = await this.send(method, path, body, { ...headers, authorization: `Bearer ${token}` });
      // A token the PSP revoked before its announced expiry: fetch a new one once.
      if (res.status === 401 && attempt === 0) {
        this.token = undefined;
        continue;
      }
      if (res.status < 200 || res.status >= 300) throw new ApiPixError(`${method} ${path} → ${res.status}`, res.status, res.body);
      return res.body as T;
    }
  }

  /** OAuth 2 client credentials (HTTP Basic), over the same mutual TLS; cached until shortly before expiry. */
  private accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return Promise.resolve(this.token.value);
    this.tokenRequest ??= (async () => {
      try {
        const basic = Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString("base64");
        const res = await this.send("POST", this.options.tokenPath, { grant_type: "client_credentials" }, { authorization: `Basic ${basic}` });
        const data = res.body as { access_token?: string; expires_in?: number } | null;
        if (res.status !== 200 || !data?.access_token) throw new ApiPixError(`token → ${res.status}`, res.status, res.body);
        const ttlMs = Math.max(0, (data.expires_in ?? 3600) * 1000 - TOKEN_MARGIN_MS);
        this.token = { value: data.access_token, expiresAt: Date.now() + ttlMs };
        return data.access_token;
      } finally {
        this.tokenRequest = undefined;
      }
    })();
    return this.tokenRequest;
  }

  private send(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
    const url = new URL(path, this.options.baseUrl);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = https.request(
        url,
        {
          method,
          agent: this.agent,
          timeout: this.options.timeoutMs ?? 15_000,
          headers: {
            accept: "application/json",
            ...(payload ? { "content-type": "application/json", "content-length": String(payload.length) } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {
              // Not JSON (a proxy's error page): keep the text for the error.
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error(`API Pix ${method} ${path}: timeout`)));
      req.on("error", reject);
      req.end(payload);
    });
  }
}
