import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { profileOf, REFRESH_TOKEN_TTL_SECONDS, todayIn, type AuthResponse, type Profile } from "@balcao/shared";
import { readCache } from "../../cache/readCache";
import type { AppContext } from "../../context";
import type { Db } from "../../db/client";
import { companies, refreshSessions, users } from "../../db/schema";
import { AppError } from "../../http/errors";
import { RateLimiter } from "../../http/rateLimit";
import { presentUser } from "../users/presenter";
import type { SessionEndReason } from "./events";
import { TokenService } from "./tokens";

/** The authenticated caller, loaded fresh on every request so role changes and revocations apply at once. */
export interface Actor {
  id: number;
  companyId: number;
  profile: Profile;
  super: boolean;
  sid: string;
  name: string;
  email: string;
  /** Queues the user serves; a profile-user sees only tickets of these (spec §6). */
  queueIds: number[];
  /** When this credential stops being valid (ms since epoch): the access token's or the session's expiry, whichever is first. */
  expiresAt: number;
  /**
   * Set when the company's subscription lapsed and the caller is its admin: the session reaches only the
   * routes that let it pay (http/auth.ts); every other route answers 402 with this due date.
   */
  billingOnly?: { dueDate: string | null };
}

const FIFTEEN_MINUTES = 15 * 60 * 1000;
/** Two tabs refreshing with the same cookie at once is normal, not theft. */
const ROTATION_GRACE_MS = 10_000;

export interface LoginResult extends AuthResponse {
  refreshToken: string;
}

type CompanyRow = typeof companies.$inferSelect;

export class AuthService {
  private readonly perAccount: RateLimiter;
  private readonly perIp: RateLimiter;

  /** The session/actor join of `authenticate`, built once (see prepareSessionActor). */
  private sessionActor?: ReturnType<typeof prepareSessionActor>;

  constructor(private readonly ctx: AppContext) {
    this.perAccount = new RateLimiter(ctx.config.loginRateLimit, FIFTEEN_MINUTES);
    this.perIp = new RateLimiter(ctx.config.loginRateLimit * 5, FIFTEEN_MINUTES);
  }

  /** 402 once the due date has passed in the company's time zone; super users are never locked out. */
  assertSubscriptionActive(company: Pick<CompanyRow, "dueDate" | "timeZone" | "status">, isSuper: boolean): void {
    if (isSuper) return;
    const today = todayIn(company.timeZone || this.ctx.config.defaultTimeZone);
    if (!company.status || (company.dueDate && company.dueDate < today))
      throw new AppError("ERR_SUBSCRIPTION_EXPIRED", 402, company.dueDate ? { dueDate: company.dueDate } : undefined);
  }

  /**
   * Who may still use the app: everyone while the subscription stands; once it lapsed (by due date, the
   * company still active) its admins keep a billing-only session so they can pay (issue 13); everyone else,
   * and everyone of a deactivated company, gets the 402.
   */
  subscriptionAccess(
    company: Pick<CompanyRow, "dueDate" | "timeZone" | "status">,
    user: { super: boolean; profile: string },
  ): { billingOnly?: { dueDate: string | null } } {
    try {
      this.assertSubscriptionActive(company, user.super);
      return {};
    } catch (err) {
      if (company.status && user.profile === "admin") return { billingOnly: { dueDate: company.dueDate } };
      throw err;
    }
  }

  async login(email: string, password: string, client: { ip: string; userAgent: string }): Promise<LoginResult> {
    const accountKey = `${client.ip}|${email}`;
    this.perAccount.check(accountKey);
    this.perIp.check(client.ip);
    const { db } = this.ctx.database;
    const [found] = await db
      .select({ user: users, company: companies })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(eq(users.email, email))
      .limit(1);
    const valid = found
      ? await this.ctx.passwords.verify(found.user.passwordHash, password)
      : (await this.ctx.passwords.verifyDummy(password), false);
    if (!found || !valid) {
      this.perAccount.hit(accountKey);
      this.perIp.hit(client.ip);
      throw new AppError("ERR_INVALID_CREDENTIALS", 401);
    }
    this.perAccount.reset(accountKey);
    const { user, company } = found;
    this.subscriptionAccess(company, user);

    const refresh = this.ctx.tokens.newRefreshToken();
    const revoked = await db.transaction(async (tx) => {
      // One active login per user (spec §4): the older devices are logged out.
      const ended = await tx
        .update(refreshSessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshSessions.userId, user.id), isNull(refreshSessions.revokedAt)))
        .returning({ id: refreshSessions.id });
      await tx.insert(refreshSessions).values({
        id: refresh.sid,
        companyId: user.companyId,
        userId: user.id,
        tokenHash: refresh.hash,
        userAgent: client.userAgent.slice(0, 300),
        ip: client.ip.slice(0, 64),
        expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000),
      });
      await tx
        .update(users)
        .set({ online: true, lastSeenAt: new Date() })
        .where(and(eq(users.id, user.id), eq(users.companyId, user.companyId)));
      return ended.map((s) => s.id);
    });
    if (revoked.length > 0) {
      this.ctx.events.publish({
        type: "auth.anotherLogin",
        companyId: user.companyId,
        userId: user.id,
        payload: { action: "update", user: { id: user.id, email: user.email, companyId: user.companyId }, sessionId: refresh.sid },
        revokedSessionIds: revoked,
      });
    }
    const token = await this.ctx.tokens.signAccess({
      id: user.id,
      companyId: user.companyId,
      profile: user.profile,
      super: user.super,
      sid: refresh.sid,
    });
    return { token, refreshToken: refresh.token, user: await presentUser(db, user) };
  }

  /** Rotates the refresh token. A token that was already rotated away (outside the grace) revokes the session. */
  async refresh(presented: string | undefined): Promise<LoginResult> {
    const sid = presented ? TokenService.sessionIdOf(presented) : null;
    if (!presented || !sid) throw new AppError("ERR_SESSION_EXPIRED", 401);
    const { db } = this.ctx.database;
    const [found] = await db
      .select({ session: refreshSessions, user: users, company: companies })
      .from(refreshSessions)
      .innerJoin(users, eq(users.id, refreshSessions.userId))
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(and(eq(refreshSessions.id, sid), isNull(refreshSessions.revokedAt), gt(refreshSessions.expiresAt, new Date())))
      .limit(1);
    if (!found) throw new AppError("ERR_SESSION_EXPIRED", 401);
    const hash = this.ctx.tokens.hashRefresh(presented);
    const { session, user, company } = found;
    const current = TokenService.sameHash(session.tokenHash, hash);
    const justRotated = TokenService.sameHash(session.previousTokenHash, hash) && Date.now() - session.updatedAt.getTime() < ROTATION_GRACE_MS;
    if (!current && !justRotated) {
      await db.update(refreshSessions).set({ revokedAt: new Date() }).where(eq(refreshSessions.id, sid));
      this.ctx.events.publish({ type: "auth.sessionsEnded", companyId: user.companyId, userId: user.id, sessionIds: [sid], reason: "tokenReuse" });
      throw new AppError("ERR_SESSION_EXPIRED", 401);
    }
    this.subscriptionAccess(company, user);
    const next = this.ctx.tokens.newRefreshToken(sid);
    await db
      .update(refreshSessions)
      .set({ tokenHash: next.hash, previousTokenHash: session.tokenHash, updatedAt: new Date() })
      .where(eq(refreshSessions.id, sid));
    const token = await this.ctx.tokens.signAccess({ id: user.id, companyId: user.companyId, profile: user.profile, super: user.super, sid });
    return { token, refreshToken: next.token, user: await presentUser(db, user) };
  }

  async logout(sid: string): Promise<void> {
    const { db } = this.ctx.database;
    const [ended] = await db
      .update(refreshSessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshSessions.id, sid), isNull(refreshSessions.revokedAt)))
      .returning({ userId: refreshSessions.userId, companyId: refreshSessions.companyId });
    if (ended) {
      await db
        .update(users)
        .set({ online: false })
        .where(and(eq(users.id, ended.userId), eq(users.companyId, ended.companyId)));
      this.ctx.events.publish({ type: "auth.sessionsEnded", companyId: ended.companyId, userId: ended.userId, sessionIds: [sid], reason: "logout" });
    }
  }

  /** Verifies a bearer token and its session in one indexed query; see docs/api.md for the statuses. */
  async authenticate(token: string | undefined, options: { allowBillingOnly?: boolean } = {}): Promise<Actor> {
    if (!token) throw new AppError("ERR_SESSION_EXPIRED", 401);
    const claims = await this.ctx.tokens.verifyAccess(token);
    const sessionActor = (this.sessionActor ??= prepareSessionActor(this.ctx.database.db));
    // The read cache keeps it for a burst of requests, dropped at once by the events of a revocation or of a change
    // to the user or the company (cache/readCache.ts); the expiry is checked here on every use.
    const found = await readCache(this.ctx).session(claims.companyId, claims.sid, async () => {
      const [row] = await sessionActor.execute({ sid: claims.sid, userId: claims.id, now: new Date().toISOString() });
      // Kept under the token's company: only a session of that company's user, whose events drop it.
      return row && row.user.companyId === claims.companyId ? row : undefined;
    });
    if (!found || found.user.id !== claims.id || found.sessionExpiresAt.getTime() <= Date.now()) throw new AppError("ERR_SESSION_EXPIRED", 401);
    const { user, company } = found;
    const { billingOnly } = this.subscriptionAccess(company, user);
    // Only callers that confine a billing-only session (http/auth.ts, the socket handshake) may receive one.
    if (billingOnly && !options.allowBillingOnly)
      throw new AppError("ERR_SUBSCRIPTION_EXPIRED", 402, billingOnly.dueDate ? { dueDate: billingOnly.dueDate } : undefined);
    return {
      id: user.id,
      companyId: user.companyId,
      profile: profileOf(user.profile),
      super: user.super,
      sid: claims.sid,
      name: user.name,
      email: user.email,
      queueIds: (found.queueIds ?? []).map(Number),
      expiresAt: Math.min(claims.exp * 1000, found.sessionExpiresAt.getTime()),
      ...(billingOnly && { billingOnly }),
    };
  }

  /** Ends every session of a user (deleted user, password change); their open sockets are closed too. */
  async revokeAllSessions(userId: number, reason: SessionEndReason, exceptSid?: string): Promise<void> {
    const { db } = this.ctx.database;
    const conditions = [eq(refreshSessions.userId, userId), isNull(refreshSessions.revokedAt)];
    if (exceptSid) conditions.push(ne(refreshSessions.id, exceptSid));
    const ended = await db
      .update(refreshSessions)
      .set({ revokedAt: sql`now()` })
      .where(and(...conditions))
      .returning({ id: refreshSessions.id, companyId: refreshSessions.companyId });
    if (ended.length > 0)
      this.ctx.events.publish({ type: "auth.sessionsEnded", companyId: ended[0]!.companyId, userId, sessionIds: ended.map((s) => s.id), reason });
  }
}

/**
 * The session, its user, company and queues, for a token's claims: every authenticated request and socket
 * handshake runs it. Built once with placeholders and named, so neither drizzle rebuilds its SQL nor each pooled
 * connection re-plans it per request.
 */
function prepareSessionActor(db: Db) {
  return db
    .select({
      user: users,
      company: companies,
      queueIds: sql<
        number[]
      >`coalesce((select array_agg(uq.queue_id order by uq.queue_id) from user_queues uq where uq.user_id = ${users.id}), '{}')`,
      sessionExpiresAt: refreshSessions.expiresAt,
    })
    .from(refreshSessions)
    .innerJoin(users, eq(users.id, refreshSessions.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(
      and(
        eq(refreshSessions.id, sql.placeholder("sid")),
        eq(refreshSessions.userId, sql.placeholder("userId")),
        isNull(refreshSessions.revokedAt),
        gt(refreshSessions.expiresAt, sql`${sql.placeholder("now")}::timestamptz`),
      ),
    )
    .limit(1)
    .prepare("auth_session_actor");
}
