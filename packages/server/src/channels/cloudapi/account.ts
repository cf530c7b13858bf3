/**
 * Where a Cloud API connection's settings live: the phone_number_id in connections.provider_account_id
 * (unique per channel: it routes webhooks), everything else — WABA id, access token, app secret, verify
 * token and the synced templates — in connection_auth.creds, the row Baileys keeps its credentials in,
 * as `{ kind: "cloud-api", v: 1, … }`. That row is never serialised to any client (reference defect 10).
 * A Baileys "new QR" or logout wipes connection_auth; wipeAuthState leaves cloud-api rows alone.
 */
import { timingSafeEqual } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { connectionAuth, connections } from "../../db/schema";
import type { GraphTemplate } from "./graph";
import type { CloudApiAccount } from "./provider";

export interface StoredCloudApi {
  kind: "cloud-api";
  v: 1;
  wabaId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  templates?: GraphTemplate[];
  templatesSyncedAt?: string;
}

export const isStoredCloudApi = (creds: unknown): creds is StoredCloudApi => (creds as { kind?: string } | null)?.kind === "cloud-api";

async function stored(db: DbOrTx, companyId: number, connectionId: number) {
  const [row] = await db
    .select({ phoneNumberId: connections.providerAccountId, channel: connections.channel, creds: connectionAuth.creds })
    .from(connections)
    .leftJoin(connectionAuth, and(eq(connectionAuth.connectionId, connections.id), eq(connectionAuth.companyId, companyId)))
    .where(and(eq(connections.id, connectionId), eq(connections.companyId, companyId)))
    .limit(1);
  return row;
}

export async function loadCloudApiAccount(db: DbOrTx, companyId: number, connectionId: number): Promise<CloudApiAccount | null> {
  const row = await stored(db, companyId, connectionId);
  if (!row || row.channel !== "cloud-api" || !row.phoneNumberId || !isStoredCloudApi(row.creds)) return null;
  const c = row.creds;
  return { phoneNumberId: row.phoneNumberId, wabaId: c.wabaId, accessToken: c.accessToken, appSecret: c.appSecret, verifyToken: c.verifyToken };
}

export interface CloudApiSettingsInput {
  phoneNumberId?: string;
  wabaId?: string;
  accessToken?: string;
  appSecret?: string;
  verifyToken?: string;
}

/** Merges new settings over the stored ones (omitted secrets keep their value). Returns false when incomplete. */
export async function saveCloudApiSettings(tx: DbOrTx, companyId: number, connectionId: number, input: CloudApiSettingsInput): Promise<boolean> {
  const row = await stored(tx, companyId, connectionId);
  const prev = isStoredCloudApi(row?.creds) ? row.creds : undefined;
  const next: StoredCloudApi = {
    kind: "cloud-api",
    v: 1,
    wabaId: input.wabaId ?? prev?.wabaId ?? "",
    accessToken: input.accessToken ?? prev?.accessToken ?? "",
    appSecret: input.appSecret ?? prev?.appSecret ?? "",
    verifyToken: input.verifyToken ?? prev?.verifyToken ?? "",
    ...(prev?.templates && input.wabaId === undefined && { templates: prev.templates, templatesSyncedAt: prev.templatesSyncedAt }),
  };
  const phoneNumberId = input.phoneNumberId ?? row?.phoneNumberId ?? "";
  if (!phoneNumberId || !next.accessToken || !next.appSecret || !next.verifyToken) return false;
  if (input.phoneNumberId !== undefined)
    await tx
      .update(connections)
      .set({ providerAccountId: input.phoneNumberId, updatedAt: new Date() })
      .where(and(eq(connections.id, connectionId), eq(connections.companyId, companyId)));
  await tx
    .insert(connectionAuth)
    .values({ connectionId, companyId, creds: next })
    .onConflictDoUpdate({
      target: connectionAuth.connectionId,
      set: { creds: next, updatedAt: new Date() },
      setWhere: eq(connectionAuth.companyId, companyId),
    });
  return true;
}

/** The approved templates last synced from the account. */
export async function storedTemplates(
  db: DbOrTx,
  companyId: number,
  connectionId: number,
): Promise<{ templates: GraphTemplate[]; syncedAt: string | null }> {
  const row = await stored(db, companyId, connectionId);
  const c = isStoredCloudApi(row?.creds) ? row.creds : undefined;
  return { templates: c?.templates ?? [], syncedAt: c?.templatesSyncedAt ?? null };
}

export async function storeTemplates(db: DbOrTx, companyId: number, connectionId: number, templates: GraphTemplate[]): Promise<void> {
  const row = await stored(db, companyId, connectionId);
  if (!isStoredCloudApi(row?.creds)) return;
  const creds: StoredCloudApi = { ...row.creds, templates, templatesSyncedAt: new Date().toISOString() };
  await db
    .update(connectionAuth)
    .set({ creds, updatedAt: new Date() })
    .where(and(eq(connectionAuth.connectionId, connectionId), eq(connectionAuth.companyId, companyId)));
}

/**
 * The connection a webhook URL names, before any tenant is known (Meta calls it, not a user): the one
 * deliberate cross-tenant read of this channel (listed in test/tenantGuard.ts).
 */
export async function cloudApiWebhookTarget(db: DbOrTx, connectionId: number): Promise<{ companyId: number; account: CloudApiAccount } | null> {
  const [row] = await db
    .select({
      companyId: connections.companyId,
      channel: connections.channel,
      phoneNumberId: connections.providerAccountId,
      creds: connectionAuth.creds,
    })
    .from(connections)
    .innerJoin(connectionAuth, eq(connectionAuth.connectionId, connections.id))
    .where(eq(connections.id, connectionId))
    .limit(1);
  if (!row || row.channel !== "cloud-api" || !row.phoneNumberId || !isStoredCloudApi(row.creds)) return null;
  const c = row.creds;
  return {
    companyId: row.companyId,
    account: { phoneNumberId: row.phoneNumberId, wabaId: c.wabaId, accessToken: c.accessToken, appSecret: c.appSecret, verifyToken: c.verifyToken },
  };
}

/** The connection of a company's phone_number_id (routing inside one verified webhook). */
export async function connectionOfPhoneNumber(db: DbOrTx, companyId: number, phoneNumberId: string): Promise<number | null> {
  const [row] = await db
    .select({ id: connections.id })
    .from(connections)
    .where(and(eq(connections.companyId, companyId), eq(connections.channel, "cloud-api"), eq(connections.providerAccountId, phoneNumberId)))
    .limit(1);
  return row?.id ?? null;
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
