/**
 * `Idempotency-Key` of the send API (table api_idempotency_keys, migration 0009). A key is reserved before the
 * send (status_code null) and holds the first response afterwards; the same key with the same token within
 * 24 h answers that response again, and no second message is sent. A response that says "try again later"
 * (409, 429, 5xx) releases the key instead, so the retry runs. A key still in flight answers 409
 * ERR_IDEMPOTENCY_IN_PROGRESS.
 */
import { createHash } from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { IDEMPOTENCY_KEY_MAX } from "@balcao/shared";
import type { AppContext } from "../../context";
import { apiIdempotencyKeys } from "../../db/schema";
import { AppError } from "../../http/errors";

export const IDEMPOTENCY_TTL_HOURS = 24;

export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** The header's value: printable ASCII, 1–200 characters; absent → undefined; anything else → 400. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || value.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(value)) throw new AppError("ERR_VALIDATION", 400);
  return value;
}

export interface KeyOwner {
  companyId: number;
  connectionId: number;
  tokenHash: string;
}

export type Reservation = { kind: "new"; id: number } | { kind: "replay"; statusCode: number; body: unknown };

/** Whether a response is final for its key (kept and replayed) or asks the client to retry (key released). */
export const isFinalResponse = (statusCode: number) => statusCode < 500 && statusCode !== 409 && statusCode !== 429;

export class IdempotencyStore {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  async reserve(owner: KeyOwner, key: string): Promise<Reservation> {
    const ofKey = and(
      eq(apiIdempotencyKeys.companyId, owner.companyId),
      eq(apiIdempotencyKeys.tokenHash, owner.tokenHash),
      eq(apiIdempotencyKeys.key, key),
    );
    for (let attempt = 0; attempt < 3; attempt++) {
      const [row] = await this.db
        .insert(apiIdempotencyKeys)
        .values({ companyId: owner.companyId, connectionId: owner.connectionId, tokenHash: owner.tokenHash, key })
        .onConflictDoNothing()
        .returning({ id: apiIdempotencyKeys.id });
      if (row) return { kind: "new", id: row.id };
      const [existing] = await this.db
        .select({
          id: apiIdempotencyKeys.id,
          statusCode: apiIdempotencyKeys.statusCode,
          response: apiIdempotencyKeys.response,
          expired: sql<boolean>`${apiIdempotencyKeys.createdAt} < now() - (${IDEMPOTENCY_TTL_HOURS}::int * interval '1 hour')`,
        })
        .from(apiIdempotencyKeys)
        .where(ofKey)
        .limit(1);
      if (!existing) continue; // released meanwhile: take it
      if (existing.expired) {
        // Older than 24 h: a new request under an old key.
        await this.db.delete(apiIdempotencyKeys).where(and(ofKey, eq(apiIdempotencyKeys.id, existing.id)));
        continue;
      }
      if (existing.statusCode === null) throw new AppError("ERR_IDEMPOTENCY_IN_PROGRESS", 409);
      return { kind: "replay", statusCode: existing.statusCode, body: existing.response };
    }
    throw new AppError("ERR_IDEMPOTENCY_IN_PROGRESS", 409);
  }

  /** Records the first response of a reserved key, or releases the key when the response asks for a retry. */
  async settle(companyId: number, id: number, statusCode: number, body: unknown): Promise<void> {
    const reserved = and(eq(apiIdempotencyKeys.companyId, companyId), eq(apiIdempotencyKeys.id, id), isNull(apiIdempotencyKeys.statusCode));
    if (!isFinalResponse(statusCode)) await this.db.delete(apiIdempotencyKeys).where(reserved);
    else await this.db.update(apiIdempotencyKeys).set({ statusCode, response: body }).where(reserved);
  }

  /** Hourly: keys past their 24 h, of every company (listed in test/tenantGuard.ts). */
  async purge(): Promise<number> {
    const gone = await this.db
      .delete(apiIdempotencyKeys)
      .where(lt(apiIdempotencyKeys.createdAt, sql`now() - (${IDEMPOTENCY_TTL_HOURS}::int * interval '1 hour')`))
      .returning({ id: apiIdempotencyKeys.id });
    return gone.length;
  }
}
