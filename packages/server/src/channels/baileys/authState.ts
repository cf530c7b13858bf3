/**
 * Baileys auth state in the database (channels.md §2.2), never in files:
 * - creds: connection_auth.creds = { format: "baileys-v7", creds: <BufferJSON-encoded AuthenticationCreds> }
 *   (the format tag lets a future Baileys v8 migrate or reset the state instead of misreading it);
 * - keys: one row per (type, id) in connection_auth_keys, value = { v: <BufferJSON-encoded value> } (the
 *   wrapper keeps scalar values such as lid-mapping strings from being re-parsed as numbers);
 *   `set` writes only the keys it names, with upserts and deletes in one transaction (`null` deletes).
 * These rows are secret: no API reads them (reference defect 10).
 */
import type { AuthenticationCreds, AuthenticationState, SignalDataSet, SignalDataTypeMap } from "baileys";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { connectionAuth, connectionAuthKeys } from "../../db/schema";
import type { BaileysLib } from "./provider";

export const AUTH_FORMAT = "baileys-v7";

export interface DbAuthState {
  state: AuthenticationState;
  saveCreds(): Promise<void>;
  /** Whether these creds were ever paired with a phone. */
  paired(): boolean;
}

export async function useDbAuthState(db: Db, lib: BaileysLib, companyId: number, connectionId: number): Promise<DbAuthState> {
  const encode = (value: unknown) => JSON.parse(JSON.stringify(value, lib.BufferJSON.replacer)) as unknown;
  const decode = <T>(value: unknown): T => JSON.parse(JSON.stringify(value), lib.BufferJSON.reviver) as T;

  const [row] = await db
    .select({ creds: connectionAuth.creds })
    .from(connectionAuth)
    .where(and(eq(connectionAuth.connectionId, connectionId), eq(connectionAuth.companyId, companyId)))
    .limit(1);
  const stored = row?.creds as { format?: string; creds?: unknown } | null | undefined;
  const creds: AuthenticationCreds = stored?.format === AUTH_FORMAT && stored.creds ? decode<AuthenticationCreds>(stored.creds) : lib.initAuthCreds();

  let saving = Promise.resolve();
  const saveCreds = () => {
    // creds.update fires often; writes are chained so the last state always lands last.
    saving = saving.then(async () => {
      const value = { format: AUTH_FORMAT, creds: encode(creds) };
      await db
        .insert(connectionAuth)
        .values({ connectionId, companyId, creds: value })
        .onConflictDoUpdate({ target: connectionAuth.connectionId, set: { creds: value, updatedAt: new Date() } });
    });
    return saving;
  };

  const state: AuthenticationState = {
    creds,
    keys: {
      get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
        const result: { [id: string]: SignalDataTypeMap[T] } = {};
        if (ids.length === 0) return result;
        const rows = await db
          .select({ keyId: connectionAuthKeys.keyId, value: connectionAuthKeys.value })
          .from(connectionAuthKeys)
          .where(and(keysOf(companyId, connectionId), eq(connectionAuthKeys.type, type), inArray(connectionAuthKeys.keyId, ids)));
        for (const r of rows) {
          let value = decode<SignalDataTypeMap[T]>((r.value as { v?: unknown } | null)?.v ?? null);
          if (type === "app-state-sync-key" && value)
            value = lib.proto.Message.AppStateSyncKeyData.fromObject(value as object) as unknown as SignalDataTypeMap[T];
          result[r.keyId] = value;
        }
        return result;
      },
      set: async (data: SignalDataSet) => {
        const upserts: (typeof connectionAuthKeys.$inferInsert)[] = [];
        const deletes: { type: string; ids: string[] }[] = [];
        for (const [type, entries] of Object.entries(data)) {
          const removed: string[] = [];
          for (const [id, value] of Object.entries(entries ?? {})) {
            if (value === null || value === undefined) removed.push(id);
            else upserts.push({ connectionId, companyId, type, keyId: id, value: { v: encode(value) }, updatedAt: new Date() });
          }
          if (removed.length) deletes.push({ type, ids: removed });
        }
        if (upserts.length === 0 && deletes.length === 0) return;
        await db.transaction(async (tx) => {
          for (const d of deletes)
            await tx
              .delete(connectionAuthKeys)
              .where(and(keysOf(companyId, connectionId), eq(connectionAuthKeys.type, d.type), inArray(connectionAuthKeys.keyId, d.ids)));
          for (let i = 0; i < upserts.length; i += 500)
            await tx
              .insert(connectionAuthKeys)
              .values(upserts.slice(i, i + 500))
              .onConflictDoUpdate({
                target: [connectionAuthKeys.connectionId, connectionAuthKeys.type, connectionAuthKeys.keyId],
                set: { value: sql`excluded.value`, updatedAt: new Date() },
              });
        });
      },
      clear: async () => {
        await db.delete(connectionAuthKeys).where(keysOf(companyId, connectionId));
      },
    },
  };
  return { state, saveCreds, paired: () => !!creds.me?.id };
}

/** Logged out / re-pair: both row sets go (channels.md §2.2 "new QR = delete both"). */
export async function wipeAuthState(db: Db, companyId: number, connectionId: number): Promise<void> {
  await db.delete(connectionAuthKeys).where(keysOf(companyId, connectionId));
  // A Cloud API connection keeps its settings in the same row (cloudapi/account.ts): they are not a pairing.
  await db
    .delete(connectionAuth)
    .where(
      and(
        eq(connectionAuth.connectionId, connectionId),
        eq(connectionAuth.companyId, companyId),
        sql`coalesce(${connectionAuth.creds}->>'kind', '') <> 'cloud-api'`,
      ),
    );
}

/** badSession: the Signal sessions are corrupt; drop them (they renegotiate) and keep the pairing. */
export async function clearSignalSessions(db: Db, companyId: number, connectionId: number): Promise<void> {
  await db.delete(connectionAuthKeys).where(and(keysOf(companyId, connectionId), eq(connectionAuthKeys.type, "session")));
}

function keysOf(companyId: number, connectionId: number) {
  return and(eq(connectionAuthKeys.connectionId, connectionId), eq(connectionAuthKeys.companyId, companyId));
}
