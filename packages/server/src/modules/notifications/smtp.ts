/**
 * Optional e-mail of the connection alerts through the company's own SMTP server (issue 21, item 3).
 *
 * - The setting is one company settings row `smtp` (JSON), hidden from GET /settings; its password is
 *   write-only (GET /settings/smtp answers `hasPassword`).
 * - Durable and outside the alert's transaction: the outbox group `notifications.mail` turns each
 *   `connections.healthAlert` event of a company with e-mail enabled into one job `notifications.alertMail`
 *   (key per outbox event, so a re-delivered event does not send twice), and the job sends it, retried with
 *   exponential backoff when the SMTP server fails; each failure is logged. An SMTP failure never reaches an
 *   HTTP caller as a 5xx (the test button answers 400 ERR_SMTP_SEND_FAILED with the server's words).
 * - SSRF: the host is the admin's own choice, so it is not refused as such; but, like outgoing webhooks, a
 *   host on a private/loopback/link-local address is refused unless WEBHOOK_ALLOW_PRIVATE_TARGETS is set. The
 *   name is resolved once per send, checked, and the connection goes to that checked address (TLS still
 *   verifies the certificate against the name), so a rebinding between check and connect cannot slip in.
 */
import dns from "node:dns";
import { isIP } from "node:net";
import { and, eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import {
  smtpSettingsBody,
  type ConnectionHealthAlertDTO,
  type Language,
  type SmtpSettingsBody,
  type SmtpSettingsDTO,
  type SmtpTestResponse,
} from "@balcao/shared";
import type { AppContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import type { DeliveredEvent } from "../../events/bus";
import { companies, settings, users } from "../../db/schema";
import { AppError } from "../../http/errors";
import { requireAdmin } from "../../http/auth";
import type { Actor } from "../auth/service";
import { isPrivateAddress } from "../webhooks/ssrf";
import { alertMail, testMail, type MailContent } from "./mail";

export const SMTP_SETTING_KEY = "smtp";
export const ALERT_MAIL_JOB = "notifications.alertMail";
export const ALERT_MAIL_GROUP = "notifications.mail";
/** Retries of a failed alert e-mail: 2 s doubled each time, about 34 min in all. */
export const ALERT_MAIL_RETRIES = 10;
const TIMEOUT_MS = 15_000;

interface StoredSmtp {
  enabled: boolean;
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  from: string;
  recipients: string[];
  language: Language;
}

const DEFAULTS: StoredSmtp = { enabled: false, host: "", port: 587, secure: false, user: "", password: "", from: "", recipients: [], language: "pt" };

interface AlertMailJob {
  companyId: number;
  alert: ConnectionHealthAlertDTO;
}

async function loadSmtp(db: DbOrTx, companyId: number): Promise<StoredSmtp> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, companyId), eq(settings.key, SMTP_SETTING_KEY)))
    .limit(1);
  if (!row) return { ...DEFAULTS };
  try {
    return { ...DEFAULTS, ...(JSON.parse(row.value) as Partial<StoredSmtp>) };
  } catch {
    return { ...DEFAULTS };
  }
}

function present(stored: StoredSmtp): SmtpSettingsDTO {
  const { password, ...rest } = stored;
  return { ...rest, hasPassword: password.length > 0 };
}

const configured = (s: StoredSmtp) => s.host.length > 0 && s.from.length > 0;

/** GET /settings/smtp (admins): the setting without its password. */
export async function getSmtpSettings(ctx: AppContext, actor: Actor): Promise<SmtpSettingsDTO> {
  requireAdmin(actor);
  return present(await loadSmtp(ctx.database.db, actor.companyId));
}

/** PUT /settings/smtp (admins): an omitted password keeps the stored one. Enabling needs host and sender. */
export async function saveSmtpSettings(ctx: AppContext, actor: Actor, body: SmtpSettingsBody): Promise<SmtpSettingsDTO> {
  requireAdmin(actor);
  const input = smtpSettingsBody.parse(body);
  const current = await loadSmtp(ctx.database.db, actor.companyId);
  const next: StoredSmtp = {
    enabled: input.enabled,
    host: input.host,
    port: input.port,
    secure: input.secure,
    user: input.user,
    password: input.password ?? current.password,
    from: input.from,
    recipients: [...new Set(input.recipients)],
    language: input.language,
  };
  if (next.enabled && !configured(next)) throw new AppError("ERR_SMTP_NOT_CONFIGURED");
  const value = JSON.stringify(next);
  await ctx.database.db
    .insert(settings)
    .values({ companyId: actor.companyId, key: SMTP_SETTING_KEY, value })
    .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value, updatedAt: new Date() } });
  return present(next);
}

/** Who gets the e-mails: the configured list, else the company's admins. */
async function recipientsOf(db: DbOrTx, companyId: number, smtp: StoredSmtp): Promise<string[]> {
  if (smtp.recipients.length > 0) return smtp.recipients;
  const admins = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.profile, "admin")))
    .orderBy(users.id);
  return admins.map((a) => a.email);
}

export class PrivateSmtpHostError extends Error {
  constructor(readonly address: string) {
    super(`SMTP host ${address} is a private or local address`);
  }
}

/** The address to connect to: the host itself when private targets are allowed, else its checked address. */
async function targetOf(host: string, allowPrivate: boolean): Promise<{ connectTo: string; servername?: string }> {
  const bare = host.replace(/^\[|\]$/g, "");
  if (allowPrivate) return { connectTo: bare };
  if (isIP(bare)) {
    if (isPrivateAddress(bare)) throw new PrivateSmtpHostError(bare);
    return { connectTo: bare };
  }
  const addresses = await dns.promises.lookup(bare, { all: true });
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  if (bad) throw new PrivateSmtpHostError(bad.address);
  return { connectTo: addresses[0]!.address, servername: bare };
}

/** Sends one e-mail through a company's SMTP setting. Throws on any failure (refused host, SMTP error). */
async function send(ctx: AppContext, smtp: StoredSmtp, to: string[], mail: MailContent): Promise<void> {
  const target = await targetOf(smtp.host, ctx.config.webhookAllowPrivateTargets);
  const transport = nodemailer.createTransport({
    host: target.connectTo,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user && { auth: { user: smtp.user, pass: smtp.password } }),
    ...(target.servername && { tls: { servername: target.servername } }),
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    await transport.sendMail({ from: smtp.from, to, subject: mail.subject, text: mail.text });
  } finally {
    transport.close();
  }
}

/** POST /settings/smtp/test (admins): one test e-mail now, with the saved setting (enabled or not). */
export async function sendTestMail(ctx: AppContext, actor: Actor): Promise<SmtpTestResponse> {
  requireAdmin(actor);
  const db = ctx.database.db;
  const smtp = await loadSmtp(db, actor.companyId);
  if (!configured(smtp)) throw new AppError("ERR_SMTP_NOT_CONFIGURED");
  const to = await recipientsOf(db, actor.companyId, smtp);
  if (to.length === 0) throw new AppError("ERR_SMTP_NOT_CONFIGURED");
  const [company] = await db.select({ name: companies.name }).from(companies).where(eq(companies.id, actor.companyId));
  try {
    await send(ctx, smtp, to, testMail(smtp.language, company?.name ?? ""));
  } catch (err) {
    if (err instanceof PrivateSmtpHostError) throw new AppError("ERR_SMTP_PRIVATE_HOST");
    const detail = (err instanceof Error ? err.message : String(err)).slice(0, 200);
    ctx.log.warn({ companyId: actor.companyId, err: detail }, "SMTP test e-mail failed");
    throw new AppError("ERR_SMTP_SEND_FAILED", undefined, { detail });
  }
  return { recipients: to };
}

/** The job: e-mail one alert; a failure is logged and thrown, so the runner retries it with backoff. */
async function runAlertMail(ctx: AppContext, payload: AlertMailJob, attempt: number): Promise<void> {
  const { companyId, alert } = payload;
  const db = ctx.database.db;
  const smtp = await loadSmtp(db, companyId);
  if (!smtp.enabled || !configured(smtp)) return;
  const to = await recipientsOf(db, companyId, smtp);
  if (to.length === 0) return;
  try {
    await send(ctx, smtp, to, alertMail(smtp.language, alert, ctx.config.publicUrl, ctx.config.defaultTimeZone));
  } catch (err) {
    const last = attempt >= ALERT_MAIL_RETRIES;
    ctx.log.warn(
      { companyId, connectionId: alert.connectionId, attempt, err: err instanceof Error ? err.message : String(err) },
      last ? "connection alert e-mail failed; giving up" : "connection alert e-mail failed; will retry",
    );
    throw err;
  }
  ctx.log.info({ companyId, connectionId: alert.connectionId, recipients: to.length }, "connection alert e-mailed");
}

/** The outbox group: a job per alert of a company whose e-mail is enabled. */
async function onEvent(ctx: AppContext, event: DeliveredEvent): Promise<void> {
  if (event.type !== "connections.healthAlert") return;
  const smtp = await loadSmtp(ctx.database.db, event.companyId);
  if (!smtp.enabled) return;
  await ctx.jobs.enqueue(ALERT_MAIL_JOB, { companyId: event.companyId, alert: event.alert } satisfies AlertMailJob, {
    key: `alert-mail:${event.eventId}`,
  });
}

/** Module start hook: the e-mail job and the outbox group that feeds it. */
export function startAlertMail(ctx: AppContext): () => void {
  ctx.jobs.register<AlertMailJob>(ALERT_MAIL_JOB, (job) => runAlertMail(ctx, job.payload, job.attempt), {
    retryLimit: ALERT_MAIL_RETRIES,
    retryDelaySec: 2,
    expireInSeconds: 120,
  });
  return ctx.events.subscribe(ALERT_MAIL_GROUP, (event) => onEvent(ctx, event), { types: ["connections.healthAlert"] });
}
