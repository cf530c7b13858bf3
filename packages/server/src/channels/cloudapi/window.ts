/**
 * The Cloud API's 24-hour customer-service window (channels.md §1.4): free-form messages only within 24 h of
 * the customer's last inbound message on that connection; outside it only an approved template goes (else
 * the Graph API answers 131047). Balcão refuses before calling the API, with ERR_OUTSIDE_WHATSAPP_WINDOW,
 * and names the connection so the composer can offer its synced templates. Other channels have no window.
 */
import { and, eq, max } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { connections, messages } from "../../db/schema";
import { AppError } from "../../http/errors";

export const CUSTOMER_SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The failure shown on a free-form message refused outside the window (the Graph API's 131047, stated before the call). */
export const OUTSIDE_WINDOW_REASON =
  "(#131047) Re-engagement message: more than 24 hours have passed since the customer's last message; only an approved template can be sent";

export interface WindowState {
  /** Whether the channel has a window at all (Cloud API only). */
  applies: boolean;
  open: boolean;
  lastInboundAt: Date | null;
  closesAt: Date | null;
}

export async function customerServiceWindow(
  db: DbOrTx,
  companyId: number,
  connectionId: number | null,
  contactId: number | null,
  now = new Date(),
): Promise<WindowState> {
  if (!connectionId || !contactId) return { applies: false, open: true, lastInboundAt: null, closesAt: null };
  const [conn] = await db
    .select({ channel: connections.channel })
    .from(connections)
    .where(and(eq(connections.id, connectionId), eq(connections.companyId, companyId)))
    .limit(1);
  if (conn?.channel !== "cloud-api") return { applies: false, open: true, lastInboundAt: null, closesAt: null };
  const [row] = await db
    .select({ last: max(messages.createdAt) })
    .from(messages)
    .where(
      and(eq(messages.companyId, companyId), eq(messages.contactId, contactId), eq(messages.connectionId, connectionId), eq(messages.fromMe, false)),
    );
  const last = row?.last ? new Date(row.last) : null;
  const closesAt = last ? new Date(last.getTime() + CUSTOMER_SERVICE_WINDOW_MS) : null;
  return { applies: true, open: !!closesAt && now < closesAt, lastInboundAt: last, closesAt };
}

/** Throws ERR_OUTSIDE_WHATSAPP_WINDOW (meta: connectionId, for the template picker) when free text cannot go. */
export async function assertCustomerServiceWindow(
  db: DbOrTx,
  companyId: number,
  ticket: { connectionId: number | null; contactId: number | null },
): Promise<void> {
  const state = await customerServiceWindow(db, companyId, ticket.connectionId, ticket.contactId);
  if (state.applies && !state.open) throw new AppError("ERR_OUTSIDE_WHATSAPP_WINDOW", 400, { connectionId: ticket.connectionId! });
}
