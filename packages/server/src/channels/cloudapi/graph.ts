/**
 * A small client for the WhatsApp Cloud API (Meta's Graph API), channels.md §1. Base URL and version come
 * from config (CLOUD_API_BASE_URL, CLOUD_API_VERSION), so tests and dev point it at the local fake
 * (fakeGraph.ts). Nothing here knows about Balcão's tables.
 */
import { createHash } from "node:crypto";

export interface GraphOptions {
  /** e.g. https://graph.facebook.com (no version, no trailing slash). */
  baseUrl: string;
  /** e.g. v23.0 */
  version: string;
  accessToken: string;
  fetch?: typeof fetch;
  /** Per request budget (ms). */
  timeoutMs?: number;
}

/** The Graph error envelope (channels.md §1.1): {error:{message,type,code,error_data:{details},fbtrace_id}}. */
export class GraphError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    message: string,
    readonly details?: string,
  ) {
    super(message);
  }

  /** channels.md §1.6: retry soon 130429, 131056, 131000, 5xx; never retry the rest. */
  get retryable(): boolean {
    return this.httpStatus >= 500 || [130429, 131056, 131000, 4, 80007].includes(this.code);
  }

  /** 190 (token), 368 (policy block), 131031 (account locked): the admin must act. */
  get needsAdmin(): boolean {
    return [0, 190, 368, 131031].includes(this.code);
  }
}

export interface GraphSendResponse {
  messaging_product: "whatsapp";
  contacts?: { input: string; wa_id: string }[];
  messages: { id: string; message_status?: string }[];
}

export interface GraphMediaInfo {
  url: string;
  mime_type: string;
  sha256?: string;
  file_size?: string | number;
  id: string;
}

export interface GraphTemplate {
  name: string;
  language: string;
  status: string;
  category?: string;
  components?: { type: string; format?: string; text?: string; buttons?: { type: string; text?: string; url?: string }[] }[];
}

export class GraphClient {
  private readonly fetch: typeof fetch;
  constructor(private readonly options: GraphOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  url(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, "")}/${this.options.version}/${path.replace(/^\/+/, "")}`;
  }

  private async request<T>(method: string, urlOrPath: string, body?: FormData | object, raw = false): Promise<T> {
    const url = /^https?:\/\//.test(urlOrPath) ? urlOrPath : this.url(urlOrPath);
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.accessToken}` };
    let payload: FormData | string | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    let res: Response;
    try {
      res = await this.fetch(url, { method, headers, body: payload, signal: AbortSignal.timeout(this.options.timeoutMs ?? 20_000) });
    } catch (err) {
      // Network failure or timeout: treated like a 5xx (retry soon).
      throw new GraphError(503, 131000, `Graph API unreachable: ${(err as Error)?.message ?? String(err)}`);
    }
    if (!res.ok) {
      const text = await res.text().catch(() => "");
      let parsed: { error?: { message?: string; code?: number; error_data?: { details?: string } } } = {};
      try {
        parsed = JSON.parse(text) as typeof parsed;
      } catch {
        /* not JSON (e.g. an HTML error page from a proxy) */
      }
      const e = parsed.error;
      throw new GraphError(res.status, e?.code ?? (res.status >= 500 ? 131000 : 100), e?.message ?? `HTTP ${res.status}`, e?.error_data?.details);
    }
    if (raw) return Buffer.from(await res.arrayBuffer()) as T;
    return (await res.json()) as T;
  }

  /** GET /{phoneNumberId}: checks the token and learns the display number. */
  phoneNumber(phoneNumberId: string): Promise<{ id: string; display_phone_number?: string; verified_name?: string }> {
    return this.request("GET", `${encodeURIComponent(phoneNumberId)}?fields=display_phone_number,verified_name`);
  }

  /** POST /{phoneNumberId}/messages with `messaging_product` added. */
  sendMessage(phoneNumberId: string, message: Record<string, unknown>): Promise<GraphSendResponse> {
    return this.request("POST", `${encodeURIComponent(phoneNumberId)}/messages`, {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      ...message,
    });
  }

  /** Marks a received message (and every earlier one) read. */
  markRead(phoneNumberId: string, messageId: string): Promise<{ success: boolean }> {
    return this.request("POST", `${encodeURIComponent(phoneNumberId)}/messages`, {
      messaging_product: "whatsapp",
      status: "read",
      message_id: messageId,
    });
  }

  /** POST /{phoneNumberId}/media (multipart) → media id (lives 30 days). */
  async uploadMedia(phoneNumberId: string, data: Buffer, mimeType: string, fileName: string): Promise<string> {
    const form = new FormData();
    form.set("messaging_product", "whatsapp");
    form.set("type", mimeType);
    form.set("file", new Blob([new Uint8Array(data)], { type: mimeType }), fileName);
    const res = await this.request<{ id: string }>("POST", `${encodeURIComponent(phoneNumberId)}/media`, form);
    return res.id;
  }

  mediaInfo(mediaId: string, phoneNumberId?: string): Promise<GraphMediaInfo> {
    const q = phoneNumberId ? `?phone_number_id=${encodeURIComponent(phoneNumberId)}` : "";
    return this.request("GET", `${encodeURIComponent(mediaId)}${q}`);
  }

  deleteMedia(mediaId: string): Promise<{ success: boolean }> {
    return this.request("DELETE", encodeURIComponent(mediaId));
  }

  /**
   * Downloads a media id's bytes. The URL from GET /{mediaId} lives about 5 minutes: a URL that answers
   * 401/403/404/410 is resolved again once and the download retried. The sha256 is checked when given.
   */
  async downloadMedia(mediaId: string, phoneNumberId?: string, cached?: GraphMediaInfo): Promise<{ data: Buffer; mimeType: string }> {
    let info = cached ?? (await this.mediaInfo(mediaId, phoneNumberId));
    let data: Buffer;
    try {
      data = await this.request<Buffer>("GET", info.url, undefined, true);
    } catch (err) {
      if (!(err instanceof GraphError) || ![401, 403, 404, 410].includes(err.httpStatus)) throw err;
      info = await this.mediaInfo(mediaId, phoneNumberId);
      data = await this.request<Buffer>("GET", info.url, undefined, true);
    }
    if (info.sha256 && createHash("sha256").update(data).digest("hex") !== info.sha256) throw new GraphError(502, 131052, "media sha256 mismatch");
    return { data, mimeType: info.mime_type };
  }

  /** Every template of the WABA, following paging.next. */
  async templates(wabaId: string): Promise<GraphTemplate[]> {
    const out: GraphTemplate[] = [];
    let next: string | undefined = `${encodeURIComponent(wabaId)}/message_templates?limit=100`;
    for (let page = 0; next && page < 50; page++) {
      const res: { data: GraphTemplate[]; paging?: { next?: string } } = await this.request("GET", next);
      out.push(...res.data);
      next = res.paging?.next;
    }
    return out;
  }
}
