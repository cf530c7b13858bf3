/**
 * HTTP client for the REST API of docs/api.md: base `/api`, cookies included, bearer token header.
 * A 403 ERR_TOKEN_EXPIRED refreshes the token once and retries; a 401 (or 402 subscription expired)
 * ends the session, which sends the user to /login through the route guards.
 */
import type { ApiErrorBody, AuthResponse } from "@balcao/shared";
import { sessionStore } from "./session";

export const API_BASE = "/api";

export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;

  constructor(status: number, body: ApiErrorBody) {
    super(body.error);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }

  get code(): string {
    return this.body.error;
  }
}

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** Public calls (login, sign-up, plans) never refresh the token nor end the session. */
  anonymous?: boolean;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const qs = params.toString();
  return `${API_BASE}${path.startsWith("/") ? path : `/${path}`}${qs ? `?${qs}` : ""}`;
}

async function readError(res: Response): Promise<ApiErrorBody> {
  const text = await res.text().catch(() => "");
  try {
    const parsed = JSON.parse(text) as Partial<ApiErrorBody>;
    if (parsed && typeof parsed.error === "string") return parsed as ApiErrorBody;
  } catch {
    // not JSON: fall through to the raw text
  }
  return { error: text || res.statusText || "" };
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json" };
  const token = opts.anonymous ? null : sessionStore.getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) {
    body = opts.body;
  } else if (opts.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  return fetch(buildUrl(path, opts.query), {
    method: opts.method ?? "GET",
    headers,
    body,
    credentials: "include",
    signal: opts.signal,
  });
}

let refreshing: Promise<AuthResponse> | null = null;

/** Exchanges the refresh cookie for a new access token; concurrent callers share one request. */
export function refreshAccessToken(): Promise<AuthResponse> {
  refreshing ??= (async () => {
    try {
      const res = await send("/auth/refresh_token", { method: "POST", anonymous: true });
      if (!res.ok) throw new ApiError(res.status, await readError(res));
      const data = (await res.json()) as AuthResponse;
      sessionStore.setToken(data.token);
      return data;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

export async function apiRequest<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  let res = await send(path, opts);

  if (!opts.anonymous && res.status === 403) {
    const body = await readError(res);
    if (body.error !== "ERR_TOKEN_EXPIRED") throw new ApiError(403, body);
    try {
      await refreshAccessToken();
    } catch (err) {
      sessionStore.end("unauthorized");
      throw err;
    }
    res = await send(path, opts);
  }

  if (res.ok) {
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  const body = await readError(res);
  if (!opts.anonymous) {
    if (res.status === 401) sessionStore.end("unauthorized", body);
    else if (res.status === 402 && body.error === "ERR_SUBSCRIPTION_EXPIRED" && !sessionStore.isBillingOnly())
      sessionStore.end("subscriptionExpired", body);
  }
  throw new ApiError(res.status, body);
}

export const api = {
  get: <T>(path: string, query?: RequestOptions["query"], opts?: Omit<RequestOptions, "query" | "method">) => apiRequest<T>(path, { ...opts, query }),
  post: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions, "body" | "method">) => apiRequest<T>(path, { ...opts, method: "POST", body }),
  put: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions, "body" | "method">) => apiRequest<T>(path, { ...opts, method: "PUT", body }),
  delete: <T = void>(path: string, opts?: Omit<RequestOptions, "method">) => apiRequest<T>(path, { ...opts, method: "DELETE" }),
};
