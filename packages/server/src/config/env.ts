import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { BillingConfigError, loadBillingConfig, type BillingConfig } from "../modules/billing/config";

const here = path.dirname(fileURLToPath(import.meta.url));
/** Repository root, so relative paths mean the same whichever workspace npm started us from. */
export const REPO_ROOT = path.resolve(here, "../../../..");

/** Secrets that have shipped in public Whaticket deployments: never accepted. */
const KNOWN_WEAK_SECRETS = new Set(["mysecret", "myanothersecret", "secret", "changeme", "jwt_secret", ""]);
const MIN_SECRET_LENGTH = 32;

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().optional(),
  DATABASE_URL: z.string().url().optional(),
  PUBLIC_URL: z.string().url().optional(),
  JWT_SECRET: z.string().optional(),
  JWT_REFRESH_SECRET: z.string().optional(),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  /** Failed logins allowed per email+IP in 15 minutes before 429 (ASVS 6.3.1). */
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  /** Sign-ups allowed per IP per hour. */
  SIGNUP_RATE_LIMIT: z.coerce.number().int().positive().default(20),
  /** Send API calls allowed per connection token per minute (POST /api/messages/send). */
  SEND_API_RATE_LIMIT: z.coerce.number().int().positive().default(60),
  /** Outgoing webhooks may target private, loopback and link-local addresses (SSRF guard off; default false). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(["true", "false", "1", "0"]).optional(),
  DEFAULT_TIME_ZONE: z.string().default("America/Sao_Paulo"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  WEB_DIST: z.string().optional(),
  /** Bearer token of GET /metrics (Prometheus); unset: no metrics, /metrics answers 404 (http/metrics.ts). */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Channels (WhatsApp connections). Booleans accept true/false/1/0. */
  SIMULATOR_ENABLED: z.enum(["true", "false", "1", "0"]).optional(),
  SIMULATOR_ACK_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(1500),
  SIMULATOR_INVALID_SUFFIX: z
    .string()
    .regex(/^\d{0,8}$/)
    .default("0000"),
  CHANNEL_DEFAULT: z.enum(["simulator", "baileys"]).optional(),
  CHANNELS_AUTOSTART: z.enum(["true", "false", "1", "0"]).optional(),
  CHANNEL_LEASE_TTL_MS: z.coerce.number().int().min(200).default(30_000),
  CHANNEL_LEASE_RENEW_MS: z.coerce.number().int().min(50).default(10_000),
  CHANNEL_COMMAND_POLL_MS: z.coerce.number().int().min(20).default(1_000),
  JOBS_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(1),
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
  SEND_RELAY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  PENDING_SEND_STALE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
  /** A reply queued for its connection this long (minutes; default 24 h) is failed with retry instead of sent late. */
  SEND_QUEUE_MAX_AGE_MINUTES: z.coerce.number().int().min(1).max(43_200).default(1_440),
  BAILEYS_RECONNECT_BASE_MS: z.coerce.number().int().min(1).default(2_000),
  BAILEYS_RECONNECT_MAX_MS: z.coerce.number().int().min(1).default(300_000),
  FFMPEG_PATH: z.string().default("ffmpeg"),
  /** WhatsApp Cloud API (Graph) base URL without version; tests and dev point it at the local fake (channels/cloudapi/fakeGraph.ts). */
  CLOUD_API_BASE_URL: z.string().url().default("https://graph.facebook.com"),
  CLOUD_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/)
    .default("v23.0"),
  /** Reverse proxies in front of the server whose X-Forwarded-For entries are believed (0 = none). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(20).default(0),
  /** Second listener serving the REST API at the spec's root paths (http/backend.ts); off when unset. */
  BACKEND_PORT: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
  BACKEND_HOST: z.string().optional(),
  /** Comma-separated web origins allowed to call the backend listener from a browser (CORS with credentials). */
  BACKEND_CORS_ORIGINS: z.string().optional(),
  /** How often each process re-checks the session behind every open socket (one query per sweep). */
  SOCKET_SESSION_CHECK_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** The OpenAPI page and JSON at /api/docs (default: on, except in production). */
  API_DOCS: z.enum(["true", "false", "1", "0"]).optional(),
  /** Largest file of a message upload, and all files of one request together (MB; streamed to disk). */
  UPLOAD_MAX_MB: z.coerce.number().positive().max(2048).default(64),
  UPLOAD_TOTAL_MAX_MB: z.coerce.number().positive().max(4096).default(128),
});

const flag = (value: string | undefined, fallback: boolean) => (value === undefined ? fallback : value === "true" || value === "1");

export interface Config {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  publicUrl?: string;
  jwtSecret: string;
  jwtRefreshSecret: string;
  adminEmail?: string;
  adminPassword?: string;
  loginRateLimit: number;
  signupRateLimit: number;
  sendApiRateLimit: number;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: outgoing webhooks may reach private/loopback addresses. */
  webhookAllowPrivateTargets: boolean;
  defaultTimeZone: string;
  logLevel: string;
  webDist: string;
  /** argon2id cost: OWASP's minimum in production, cheap in tests. */
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
  /** WhatsApp channels: providers, single-owner leases, simulator. */
  channels: {
    /** The simulator provider and its /api/simulator API (off by default in production). */
    simulatorEnabled: boolean;
    /** Delay between the simulator's ack steps 1→2→3 on outbound messages; 0 = only through the API. */
    simulatorAckDelayMs: number;
    /** Simulated numbers ending with this suffix (or with fewer than 10 / more than 15 digits) have no WhatsApp. */
    simulatorInvalidSuffix: string;
    /** Provider of a new connection when the request names none. */
    defaultChannel: "simulator" | "baileys";
    /** Claim and start this process's connections at boot (off in tests). */
    autostart: boolean;
    leaseTtlMs: number;
    leaseRenewMs: number;
    commandPollMs: number;
    baileysReconnectBaseMs: number;
    baileysReconnectMaxMs: number;
    ffmpegPath: string;
    /** WhatsApp Cloud API: Graph base URL (no version) and version (e.g. v23.0). */
    cloudApiBaseUrl: string;
    cloudApiVersion: string;
  };
  /** Durable jobs (jobs/runner.ts): how often an idle worker looks for due jobs. */
  jobs: { pollSeconds: number };
  /** Fallback poll of the outbox when a LISTEN notification was missed (events/bus.ts). */
  outboxPollMs: number;
  /** How long a process waits for the connection's owner to deliver a relayed send (sendRelay.ts). */
  sendRelayTimeoutMs: number;
  /** A reply still pending this long on a connection this process runs was lost with a dead process: failed, with retry. */
  pendingSendStaleMs: number;
  /** A reply waiting for its connection longer than this is failed with retry, never sent late (sendQueue.ts). */
  sendQueueMaxAgeMs: number;
  /** Trusted proxy hops for the client address (request.ip): 0 ignores X-Forwarded-For. */
  trustProxy: number;
  /** Serve /api/docs (API_DOCS; off in production unless asked for). */
  apiDocs: boolean;
  /**
   * Check every JSON answer against its route's documented schema (http/responses.ts): on under NODE_ENV=test, so
   * the suites prove the schemas; the benchmarks turn it off, to measure what production serves.
   */
  checkResponseSchemas: boolean;
  /** The bearer token GET /metrics asks for; null: metrics are off and /metrics answers 404 (http/metrics.ts). */
  metricsToken: string | null;
  /** Multipart upload limits in bytes (http/uploads.ts). */
  uploads: { fileBytes: number; totalBytes: number };
  /** Period of the sweep that closes sockets whose session no longer stands (realtime/revocation.ts). */
  socketSessionCheckMs: number;
  /**
   * The backend listener of spec §7 ("all calls go to the backend host"): the same routes at root paths,
   * Socket.IO with the token also accepted in the query. Undefined = off (BACKEND_PORT unset).
   */
  backend?: { port: number; host: string; corsOrigins: string[] };
  /** Invoices and Pix (modules/billing/config.ts reads the PIX_* and INVOICE_* settings). */
  billing: BillingConfig;
  /** Whether the embedded admin login was generated (and so is printed at start). */
  generatedAdmin?: { email: string; password: string };
}

export class ConfigError extends Error {}

/** Observed entropy of `value` in bits (Shannon, per character, times its length). */
export function entropyBits(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / value.length) * Math.log2(n / value.length);
  return perChar * value.length;
}

/** Below this a 32+ character secret is a pattern, not random (`openssl rand -hex 16` stays above ~91). */
const MIN_SECRET_ENTROPY_BITS = 80;
/**
 * Fewer distinct characters than this is a pattern. `openssl rand -hex 16` (32 characters of 16) shows 9 or fewer
 * once in ~10,500 draws, 7 or fewer once in ~28 million: at 10, the ceiling this replaced, 1 in 10,500 random secrets
 * was refused, and secrets.test.ts (200 such draws, run on both databases) failed about one CI run in 26.
 */
const MIN_DISTINCT_CHARACTERS = 8;

/**
 * Whether a long-enough secret is still guessable (issue 11): too few distinct characters or bits, a
 * repeated block ("changemechangeme…"), or a run of consecutive characters ("abcdef…", "123456…").
 */
export function looksLowEntropy(value: string): boolean {
  if (new Set(value).size < MIN_DISTINCT_CHARACTERS || entropyBits(value) < MIN_SECRET_ENTROPY_BITS) return true;
  for (let period = 1; period <= value.length / 2; period++) if ([...value].every((ch, i) => i < period || ch === value[i - period])) return true;
  let steps = 0;
  for (let i = 1; i < value.length; i++) if (Math.abs(value.charCodeAt(i) - value.charCodeAt(i - 1)) === 1) steps++;
  return steps > value.length / 2;
}

function checkSecret(name: string, value: string | undefined): string {
  if (!value) throw new ConfigError(`${name} is required in production (at least ${MIN_SECRET_LENGTH} random characters).`);
  if (value.length < MIN_SECRET_LENGTH || KNOWN_WEAK_SECRETS.has(value.toLowerCase()) || looksLowEntropy(value))
    throw new ConfigError(`${name} is too weak: use at least ${MIN_SECRET_LENGTH} random characters (e.g. \`openssl rand -base64 48\`).`);
  return value;
}

interface StoredSecrets {
  jwtSecret: string;
  jwtRefreshSecret: string;
  adminEmail?: string;
  adminPassword?: string;
}

/** Embedded mode keeps generated secrets in DATA_DIR so sessions survive restarts. */
function loadOrCreateStoredSecrets(dataDir: string): StoredSecrets {
  const file = path.join(dataDir, "secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as StoredSecrets;
  mkdirSync(dataDir, { recursive: true });
  const secrets: StoredSecrets = {
    jwtSecret: randomBytes(48).toString("base64url"),
    jwtRefreshSecret: randomBytes(48).toString("base64url"),
    adminEmail: "admin@balcao.local",
    adminPassword: randomBytes(9).toString("base64url"),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/** BACKEND_CORS_ORIGINS as exact origins; defaults to PUBLIC_URL's. Credentials rule out "*". */
function corsOrigins(list: string | undefined, publicUrl: string | undefined): string[] {
  if (list === undefined) return publicUrl ? [new URL(publicUrl).origin] : [];
  return list
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      let url: URL;
      try {
        url = new URL(item);
      } catch {
        throw new ConfigError(`Invalid setting BACKEND_CORS_ORIGINS: "${item}" is not an origin (https://app.example.com).`);
      }
      if (url.protocol !== "http:" && url.protocol !== "https:")
        throw new ConfigError(`Invalid setting BACKEND_CORS_ORIGINS: "${item}" is not http(s).`);
      return url.origin;
    });
}

/** Reads and validates every setting once, at boot. Throws ConfigError with a readable reason. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ConfigError(`Invalid setting ${first?.path.join(".")}: ${first?.message}`);
  }
  const e = parsed.data;
  const baseDir = source.INIT_CWD && !e.DATA_DIR ? source.INIT_CWD : process.cwd();
  const dataDir = path.resolve(baseDir, e.DATA_DIR ?? "data");
  const production = e.NODE_ENV === "production";

  let jwtSecret = e.JWT_SECRET;
  let jwtRefreshSecret = e.JWT_REFRESH_SECRET;
  let generatedAdmin: Config["generatedAdmin"];
  if (production) {
    jwtSecret = checkSecret("JWT_SECRET", jwtSecret);
    jwtRefreshSecret = checkSecret("JWT_REFRESH_SECRET", jwtRefreshSecret);
    if (jwtSecret === jwtRefreshSecret) throw new ConfigError("JWT_SECRET and JWT_REFRESH_SECRET must differ.");
  } else if (!jwtSecret || !jwtRefreshSecret) {
    const stored = loadOrCreateStoredSecrets(dataDir);
    jwtSecret ??= stored.jwtSecret;
    jwtRefreshSecret ??= stored.jwtRefreshSecret;
    if (!e.ADMIN_EMAIL && stored.adminEmail && stored.adminPassword) generatedAdmin = { email: stored.adminEmail, password: stored.adminPassword };
  }

  const backend =
    e.BACKEND_PORT === undefined
      ? undefined
      : { port: e.BACKEND_PORT, host: e.BACKEND_HOST ?? e.HOST, corsOrigins: corsOrigins(e.BACKEND_CORS_ORIGINS, e.PUBLIC_URL) };
  if (backend && backend.port !== 0 && backend.port === e.PORT) throw new ConfigError("BACKEND_PORT must differ from PORT.");

  let billing: BillingConfig;
  try {
    billing = loadBillingConfig(source, e.NODE_ENV, e.PUBLIC_URL);
  } catch (err) {
    throw err instanceof BillingConfigError ? new ConfigError(err.message) : err;
  }

  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    publicUrl: e.PUBLIC_URL,
    backend,
    jwtSecret: jwtSecret!,
    jwtRefreshSecret: jwtRefreshSecret!,
    adminEmail: e.ADMIN_EMAIL ?? generatedAdmin?.email,
    adminPassword: e.ADMIN_PASSWORD ?? generatedAdmin?.password,
    generatedAdmin,
    billing,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    signupRateLimit: e.SIGNUP_RATE_LIMIT,
    sendApiRateLimit: e.SEND_API_RATE_LIMIT,
    webhookAllowPrivateTargets: flag(e.WEBHOOK_ALLOW_PRIVATE_TARGETS, false),
    defaultTimeZone: e.DEFAULT_TIME_ZONE,
    socketSessionCheckMs: e.SOCKET_SESSION_CHECK_MS,
    trustProxy: e.TRUST_PROXY,
    apiDocs: flag(e.API_DOCS, !production),
    checkResponseSchemas: e.NODE_ENV === "test",
    metricsToken: e.METRICS_TOKEN ?? null,
    uploads: { fileBytes: Math.round(e.UPLOAD_MAX_MB * 1024 * 1024), totalBytes: Math.round(e.UPLOAD_TOTAL_MAX_MB * 1024 * 1024) },
    jobs: { pollSeconds: e.JOBS_POLL_SECONDS },
    outboxPollMs: e.OUTBOX_POLL_MS,
    sendRelayTimeoutMs: e.SEND_RELAY_TIMEOUT_MS,
    pendingSendStaleMs: e.PENDING_SEND_STALE_MS,
    sendQueueMaxAgeMs: e.SEND_QUEUE_MAX_AGE_MINUTES * 60_000,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === "test" ? "silent" : "info"),
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : path.join(REPO_ROOT, "packages/web/dist"),
    channels: {
      simulatorEnabled: flag(e.SIMULATOR_ENABLED, !production),
      simulatorAckDelayMs: e.SIMULATOR_ACK_DELAY_MS,
      simulatorInvalidSuffix: e.SIMULATOR_INVALID_SUFFIX,
      defaultChannel: e.CHANNEL_DEFAULT ?? (production || !flag(e.SIMULATOR_ENABLED, !production) ? "baileys" : "simulator"),
      autostart: flag(e.CHANNELS_AUTOSTART, e.NODE_ENV !== "test"),
      leaseTtlMs: e.CHANNEL_LEASE_TTL_MS,
      leaseRenewMs: Math.min(e.CHANNEL_LEASE_RENEW_MS, Math.floor(e.CHANNEL_LEASE_TTL_MS / 2)),
      commandPollMs: e.CHANNEL_COMMAND_POLL_MS,
      baileysReconnectBaseMs: e.BAILEYS_RECONNECT_BASE_MS,
      baileysReconnectMaxMs: e.BAILEYS_RECONNECT_MAX_MS,
      ffmpegPath: e.FFMPEG_PATH,
      cloudApiBaseUrl: e.CLOUD_API_BASE_URL.replace(/\/+$/, ""),
      cloudApiVersion: e.CLOUD_API_VERSION,
    },
    argon2: e.NODE_ENV === "test" ? { memoryCost: 1024, timeCost: 1, parallelism: 1 } : { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
  };
}
