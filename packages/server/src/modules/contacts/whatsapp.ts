/**
 * What contacts need from the WhatsApp side: the company's default connection and its live session —
 * in this process, or on the process that runs it through the session relay (messages/sessionRelay.ts).
 * Without a connected default connection running anywhere, numbers are simply not checked.
 */
import { and, eq } from "drizzle-orm";
import { ChannelError } from "../../channels/types";
import type { AppContext } from "../../context";
import { connections } from "../../db/schema";
import { AppError } from "../../http/errors";
import { sessionRelayOf, type SessionAnywhere } from "../messages/sessionRelay";

export async function defaultConnection(ctx: AppContext, companyId: number) {
  const [row] = await ctx.database.db
    .select({ id: connections.id, status: connections.status })
    .from(connections)
    .where(and(eq(connections.companyId, companyId), eq(connections.isDefault, true)))
    .limit(1);
  return row;
}

/** The live session of the company's default connection when it is CONNECTED, else null. */
export async function defaultSession(ctx: AppContext, companyId: number): Promise<SessionAnywhere | null> {
  return liveSession(ctx, companyId, await defaultConnection(ctx, companyId));
}

/** The live session of a CONNECTED connection, here or on the process that runs it; else null. */
async function liveSession(ctx: AppContext, companyId: number, conn: { id: number; status: string } | undefined): Promise<SessionAnywhere | null> {
  if (!conn || conn.status !== "CONNECTED") return null;
  try {
    // Throws ChannelError NOT_CONNECTED when the session runs here but is not live.
    return await sessionRelayOf(ctx).sessionAt(companyId, conn.id);
  } catch (err) {
    if (err instanceof ChannelError) return null;
    throw err;
  }
}

export type NumberCheck = { checked: false } | { checked: true; canonical: string };

/**
 * Asks WhatsApp whether `digits` has an account, through the default connection (or `via`) when it is connected.
 * A number without WhatsApp → ERR_WAPP_INVALID_CONTACT; a failing check → ERR_WAPP_CHECK_CONTACT.
 * Returns the canonical digits WhatsApp uses (e.g. without the 9th digit) when checked.
 */
export async function checkWhatsappNumber(
  ctx: AppContext,
  companyId: number,
  digits: string,
  /** Ask through this connection instead of the default one (the send API asks through the token's). */
  via?: { id: number; status: string },
): Promise<NumberCheck> {
  const session = via ? await liveSession(ctx, companyId, via) : await defaultSession(ctx, companyId);
  if (!session) return { checked: false };
  let canonical: string | null;
  try {
    canonical = await session.checkNumber(digits);
  } catch (err) {
    if (err instanceof ChannelError && err.code === "NOT_CONNECTED") return { checked: false };
    throw new AppError("ERR_WAPP_CHECK_CONTACT", 400);
  }
  if (!canonical) throw new AppError("ERR_WAPP_INVALID_CONTACT", 400);
  return { checked: true, canonical: canonical.replace(/@.*$/, "").replace(/\D/g, "") || digits };
}
