import { and, eq, inArray, sql } from "drizzle-orm";
import {
  isCampaignEditable,
  type CampaignCounts,
  type CampaignDTO,
  type CampaignShippingDTO,
  type CampaignShippingStatus,
  type CampaignStatus,
} from "@balcao/shared";
import type { DbOrTx } from "../../db/client";
import { campaignShippings, campaigns, connections, contactListItems, contactLists } from "../../db/schema";

type CampaignRow = typeof campaigns.$inferSelect;
type ShippingRow = typeof campaignShippings.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function presentCampaigns(db: DbOrTx, companyId: number, rows: CampaignRow[], now = new Date()): Promise<CampaignDTO[]> {
  if (rows.length === 0) return [];
  const connectionIds = [...new Set(rows.map((r) => r.connectionId).filter((v): v is number => v !== null))];
  const listIds = [...new Set(rows.map((r) => r.contactListId).filter((v): v is number => v !== null))];
  const conns = connectionIds.length
    ? await db
        .select({ id: connections.id, name: connections.name, status: connections.status })
        .from(connections)
        .where(and(eq(connections.companyId, companyId), inArray(connections.id, connectionIds)))
    : [];
  const lists = listIds.length
    ? await db
        .select({ id: contactLists.id, name: contactLists.name })
        .from(contactLists)
        .where(and(eq(contactLists.companyId, companyId), inArray(contactLists.id, listIds)))
    : [];
  return rows.map((c) => {
    const status = c.status as CampaignStatus;
    return {
      id: c.id,
      companyId: c.companyId,
      name: c.name,
      message1: c.message1,
      message2: c.message2,
      message3: c.message3,
      message4: c.message4,
      message5: c.message5,
      confirmationMessage1: c.confirmationMessage1,
      confirmationMessage2: c.confirmationMessage2,
      confirmationMessage3: c.confirmationMessage3,
      confirmationMessage4: c.confirmationMessage4,
      confirmationMessage5: c.confirmationMessage5,
      status,
      confirmation: c.confirmation,
      scheduledAt: iso(c.scheduledAt),
      completedAt: iso(c.completedAt),
      whatsappId: c.connectionId,
      whatsapp: conns.find((w) => w.id === c.connectionId) ?? null,
      contactListId: c.contactListId,
      contactList: lists.find((l) => l.id === c.contactListId) ?? null,
      mediaPath: c.mediaPath,
      mediaName: c.mediaName,
      pauseReason: status === "EM_ANDAMENTO" ? c.pauseReason : null,
      editable: isCampaignEditable({ status, scheduledAt: c.scheduledAt }, now),
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
    };
  });
}

export async function presentCampaignById(db: DbOrTx, companyId: number, id: number): Promise<CampaignDTO | null> {
  const rows = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, id)))
    .limit(1);
  return (await presentCampaigns(db, companyId, rows))[0] ?? null;
}

/**
 * The report's counters in one pass over the campaign's shipping rows. Before the first run there are no
 * rows: valid contacts are then the list's items not known to be off WhatsApp.
 */
export async function campaignCounts(db: DbOrTx, companyId: number, campaign: { id: number; contactListId: number | null }): Promise<CampaignCounts> {
  const [c] = await db
    .select({
      total: sql<number>`count(*)::int`,
      invalid: sql<number>`count(*) filter (where ${campaignShippings.lastError} = 'ERR_WAPP_INVALID_CONTACT')::int`,
      requested: sql<number>`count(${campaignShippings.confirmationRequestedAt})::int`,
      confirmed: sql<number>`count(${campaignShippings.confirmedAt})::int`,
      delivered: sql<number>`count(${campaignShippings.deliveredAt})::int`,
      failed: sql<number>`count(*) filter (where ${campaignShippings.status} = 'failed')::int`,
    })
    .from(campaignShippings)
    .where(and(eq(campaignShippings.companyId, companyId), eq(campaignShippings.campaignId, campaign.id)));
  let valid = (c?.total ?? 0) - (c?.invalid ?? 0);
  if (!c?.total && campaign.contactListId !== null) {
    const [items] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(contactListItems)
      .where(
        and(
          eq(contactListItems.companyId, companyId),
          eq(contactListItems.contactListId, campaign.contactListId),
          sql`${contactListItems.isWhatsappValid} is not false`,
        ),
      );
    valid = items?.n ?? 0;
  }
  return {
    validContacts: valid,
    confirmationRequested: c?.requested ?? 0,
    confirmations: c?.confirmed ?? 0,
    delivered: c?.delivered ?? 0,
    failed: c?.failed ?? 0,
  };
}

/** Internal states → the report's: a confirmation being sent reads as "sending". */
const WIRE_STATUS: Record<string, CampaignShippingStatus> = {
  pending: "pending",
  requesting: "sending",
  confirmation: "confirmation",
  confirmed: "confirmed",
  sending: "sending",
  delivered: "delivered",
  failed: "failed",
};

export function presentShipping(s: ShippingRow): CampaignShippingDTO {
  return {
    id: s.id,
    campaignId: s.campaignId,
    contactListItemId: s.contactListItemId,
    name: s.name,
    number: s.number,
    email: s.email,
    message: s.message,
    confirmationMessage: s.confirmationMessage,
    confirmation: s.confirmation,
    confirmationRequestedAt: iso(s.confirmationRequestedAt),
    confirmedAt: iso(s.confirmedAt),
    deliveredAt: iso(s.deliveredAt),
    status: WIRE_STATUS[s.status] ?? "pending",
    lastError: s.lastError,
  };
}
