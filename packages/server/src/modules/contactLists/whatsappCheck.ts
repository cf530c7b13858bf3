/**
 * The list items' WhatsApp validity (`isWhatsappValid`), checked in the background through the provider
 * interface (`ChannelSession.checkNumber`: Baileys asks WhatsApp's `onWhatsApp`, the simulator applies its
 * phone rule) of the company's default connection. One job per list (`contactLists.checkNumbers`, key
 * `list:{id}`) walks the list's unchecked items in id order; it is enqueued when items are created, imported
 * or get a new number. Without a connected default connection the items stay unchecked (null, shown as
 * "not checked"); a connection running on another process is asked through the session relay
 * (messages/sessionRelay.ts), and one that runs nowhere yet (a takeover under way) makes the job retry.
 */
import { and, asc, eq, gt, inArray, isNull } from "drizzle-orm";
import { ChannelError } from "../../channels/types";
import type { AppContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { contactListItems } from "../../db/schema";
import type { Job } from "../../jobs/runner";
import { defaultConnection } from "../contacts/whatsapp";
import { sessionRelayOf, type SessionAnywhere } from "../messages/sessionRelay";
import { presentContactListItem } from "./presenter";

export const CONTACT_LIST_CHECK_JOB = "contactLists.checkNumbers";
const BATCH = 100;
const CONCURRENCY = 4;
/** Up to this many changed items of a batch go out one by one; more → a `reload` (at most every 2 s). */
const ITEM_EVENTS_MAX = 20;
const RELOAD_EVERY_MS = 2_000;

export interface CheckJobPayload {
  companyId: number;
  contactListId: number;
}

export const checkJobKey = (contactListId: number) => `list:${contactListId}`;

export class NumberChecker {
  constructor(private readonly ctx: AppContext) {}

  register(): void {
    this.ctx.jobs.register<CheckJobPayload>(CONTACT_LIST_CHECK_JOB, (job) => this.handle(job), {
      retryLimit: 5,
      retryDelaySec: 2,
      expireInSeconds: 1800,
      concurrency: 2,
    });
  }

  enqueue(companyId: number, contactListId: number, tx?: DbOrTx): Promise<string | null> {
    return this.ctx.jobs.enqueue(CONTACT_LIST_CHECK_JOB, { companyId, contactListId } satisfies CheckJobPayload, {
      key: checkJobKey(contactListId),
      ...(tx && { tx }),
    });
  }

  private async session(companyId: number): Promise<SessionAnywhere | null> {
    const connection = await defaultConnection(this.ctx, companyId);
    if (!connection || connection.status !== "CONNECTED") return null;
    let session: SessionAnywhere | null;
    try {
      session = await sessionRelayOf(this.ctx).sessionAt(companyId, connection.id);
    } catch (err) {
      if (!(err instanceof ChannelError)) throw err;
      session = null;
    }
    // Connected, but no live process runs its session right now: retried.
    if (!session) throw new Error(`connection ${connection.id} is not running on any process`);
    return session;
  }

  private async handle(job: Job<CheckJobPayload>): Promise<void> {
    await this.run(job.payload.companyId, job.payload.contactListId);
  }

  /** Checks every unchecked item of the list; returns how many got an answer. */
  async run(companyId: number, contactListId: number): Promise<number> {
    const session = await this.session(companyId);
    if (!session) return 0;
    const db = this.ctx.database.db;
    let cursor = 0;
    let answered = 0;
    let lastReload = 0;
    for (;;) {
      const batch = await db
        .select({ id: contactListItems.id, number: contactListItems.number })
        .from(contactListItems)
        .where(
          and(
            eq(contactListItems.companyId, companyId),
            eq(contactListItems.contactListId, contactListId),
            isNull(contactListItems.isWhatsappValid),
            gt(contactListItems.id, cursor),
          ),
        )
        .orderBy(asc(contactListItems.id))
        .limit(BATCH);
      if (batch.length === 0) break;
      cursor = batch[batch.length - 1]!.id;
      const valid: number[] = [];
      const invalid: number[] = [];
      let disconnected = false;
      for (let i = 0; i < batch.length && !disconnected; i += CONCURRENCY) {
        await Promise.all(
          batch.slice(i, i + CONCURRENCY).map(async (item) => {
            try {
              ((await session.checkNumber(item.number)) ? valid : invalid).push(item.id);
            } catch (err) {
              // Disconnected meanwhile: stop; other failures leave this item unchecked.
              if (err instanceof ChannelError && err.code === "NOT_CONNECTED") disconnected = true;
              else this.ctx.log.warn({ err, contactListId }, "contact list: number check failed");
            }
          }),
        );
      }
      const changed = [...(await this.mark(companyId, contactListId, valid, true)), ...(await this.mark(companyId, contactListId, invalid, false))];
      answered += changed.length;
      if (changed.length > 0 && changed.length <= ITEM_EVENTS_MAX)
        this.ctx.events.publish(
          ...changed.map((row) => ({ type: "contactListItems.updated" as const, companyId, record: presentContactListItem(row) })),
        );
      else if (changed.length > 0 && Date.now() - lastReload >= RELOAD_EVERY_MS) {
        lastReload = Date.now();
        this.ctx.events.publish({ type: "contactListItems.reload", companyId, contactListId });
      }
      if (disconnected) break;
    }
    // Always a last `reload` when anything changed: a page that refetched its rows while the answers came in
    // (the import's own reload) could otherwise keep rows read before them.
    if (answered > 0) this.ctx.events.publish({ type: "contactListItems.reload", companyId, contactListId });
    return answered;
  }

  private async mark(companyId: number, contactListId: number, ids: number[], isWhatsappValid: boolean) {
    if (ids.length === 0) return [];
    return this.ctx.database.db
      .update(contactListItems)
      .set({ isWhatsappValid })
      .where(
        and(
          eq(contactListItems.companyId, companyId),
          eq(contactListItems.contactListId, contactListId),
          inArray(contactListItems.id, ids),
          // An item whose number changed meanwhile was reset to null and is checked again by the next job.
          isNull(contactListItems.isWhatsappValid),
        ),
      )
      .returning();
  }
}
