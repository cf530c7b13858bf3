import { and, desc, eq, gt, isNotNull, lt, sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/client";
import type { DomainEvents } from "../../events/bus";
import { attendanceCycles, tickets } from "../../db/schema";
import type { InboundClaim, InboundInterceptor } from "../messages/inbound";
import type { MessagesService } from "../messages/service";
import { loadSettings, loadTicketContext, variablesOf, type TicketContext } from "./context";
import { renderTemplate } from "./templates";
import { acceptGreeting, RATING_INVALID_TEXT, RATING_SCALE_TEXT, RATING_THANKS_TEXT, transferNotice } from "./texts";

/** Invalid answers to a rating prompt before the bot stops waiting (the last one is handled as a new conversation). */
export const MAX_RATING_ATTEMPTS = 3;
/** A rating prompt older than this is no longer waited for. */
export const RATING_WINDOW_MS = 24 * 60 * 60 * 1000;

/** "2", " 3 ", "*1*", "3 - muito satisfeito", "2." → the rating; anything else → null. */
export function parseRating(body: string): 1 | 2 | 3 | null {
  const m = /^[\s*_[(]*([1-3])(?!\d)/.exec(body);
  return m ? (Number(m[1]) as 1 | 2 | 3) : null;
}

type Transition = DomainEvents["tickets.transitioned"] & { companyId: number };

/**
 * Automatic messages around a ticket's life (docs/api.md "Automatic messages"): greeting on accept,
 * transfer notice, rating prompt and completion message on resolve, and the rating answers.
 */
export class AutomaticMessages {
  constructor(
    private readonly ctx: AppContext,
    private readonly messagesService: MessagesService,
    private readonly now: () => Date,
  ) {}

  private get db() {
    return this.ctx.database.db;
  }

  async onTransition(event: Transition): Promise<void> {
    const c = await loadTicketContext(this.db, event.companyId, event.ticketId);
    // Groups get no automatic messages (spec §4 names the greeting; the others follow).
    if (!c || c.ticket.isGroup) return;
    const s = await loadSettings(this.db, event.companyId, ["sendGreetingAccepted", "sendMsgTransfTicket", "userRating"]);
    const now = this.now();
    switch (event.transition) {
      case "accept":
        if (s.sendGreetingAccepted === "enabled" && c.userName) await this.send(c, acceptGreeting(c.userName), now);
        return;
      case "transfer":
      case "reassign": {
        if (s.sendMsgTransfTicket !== "enabled") return;
        const queueChanged = event.before.queueId !== c.ticket.queueId && c.queue !== null;
        const userChanged = c.ticket.userId !== null && event.before.userId !== c.ticket.userId;
        const text = transferNotice({
          queueName: queueChanged ? c.queue!.name : undefined,
          userName: userChanged ? (c.userName ?? undefined) : undefined,
        });
        if (text) await this.send(c, text, now);
        return;
      }
      case "resolve": {
        const ratingMessage = c.connection?.ratingMessage.trim() || c.queue?.ratingMessage.trim() || "";
        if (s.userRating === "enabled" && ratingMessage && (await this.requestRating(c, now)))
          await this.send(c, `${ratingMessage}\n\n${RATING_SCALE_TEXT}`, now);
        else await this.send(c, completionOf(c), now);
        return;
      }
      default:
        return;
    }
  }

  /** Marks the cycle the resolve just finished as waiting for a rating (only one with an attendant). */
  private async requestRating(c: TicketContext, now: Date): Promise<boolean> {
    const [cycle] = await this.db
      .select({ id: attendanceCycles.id, userId: attendanceCycles.userId, requested: attendanceCycles.ratingRequestedAt })
      .from(attendanceCycles)
      .where(
        and(eq(attendanceCycles.companyId, c.ticket.companyId), eq(attendanceCycles.ticketId, c.ticket.id), isNotNull(attendanceCycles.finishedAt)),
      )
      .orderBy(desc(attendanceCycles.id))
      .limit(1);
    if (!cycle || cycle.userId === null || cycle.requested) return false;
    await this.db
      .update(attendanceCycles)
      .set({ ratingRequestedAt: now, ratingAttempts: 0, updatedAt: new Date() })
      .where(eq(attendanceCycles.id, cycle.id));
    return true;
  }

  /**
   * The inbound interceptor for rating answers: a customer message arriving while the contact's last
   * closed ticket on this connection waits for a rating is that rating (1–3), or an invalid attempt
   * (asked again); it never opens a new ticket, except the attempt that exhausts MAX_RATING_ATTEMPTS,
   * which stops the wait and goes on as a new conversation.
   */
  readonly ratingInterceptor: InboundInterceptor = {
    name: "rating",
    claim: async (tx: Tx, { source, contactId, message }): Promise<InboundClaim | null> => {
      if (message.kind === "call_log") return null;
      const now = this.now();
      const [cycle] = await tx
        .select({ id: attendanceCycles.id, ticketId: attendanceCycles.ticketId, attempts: attendanceCycles.ratingAttempts })
        .from(attendanceCycles)
        .innerJoin(tickets, eq(tickets.id, attendanceCycles.ticketId))
        .where(
          and(
            eq(attendanceCycles.companyId, source.companyId),
            eq(tickets.companyId, source.companyId),
            eq(tickets.contactId, contactId),
            eq(tickets.connectionId, source.connectionId),
            eq(tickets.status, "closed"),
            eq(attendanceCycles.rated, false),
            lt(attendanceCycles.ratingAttempts, MAX_RATING_ATTEMPTS),
            gt(attendanceCycles.ratingRequestedAt, new Date(now.getTime() - RATING_WINDOW_MS)),
          ),
        )
        .orderBy(desc(attendanceCycles.ratingRequestedAt))
        .limit(1)
        .for("update", { of: attendanceCycles });
      if (!cycle) return null;
      const rating = parseRating(message.body);
      if (rating) {
        await tx.update(attendanceCycles).set({ rating, rated: true, ratingAt: now, updatedAt: new Date() }).where(eq(attendanceCycles.id, cycle.id));
        return { ticketId: cycle.ticketId, afterCommit: () => this.afterRating(source.companyId, cycle.ticketId, now) };
      }
      const attempts = cycle.attempts + 1;
      await tx
        .update(attendanceCycles)
        .set({ ratingAttempts: sql`${attendanceCycles.ratingAttempts} + 1`, updatedAt: new Date() })
        .where(eq(attendanceCycles.id, cycle.id));
      if (attempts >= MAX_RATING_ATTEMPTS) return null;
      return {
        ticketId: cycle.ticketId,
        afterCommit: async () => {
          await this.messagesService.sendAutomatic(source.companyId, cycle.ticketId, `${RATING_INVALID_TEXT}\n\n${RATING_SCALE_TEXT}`);
        },
      };
    },
  };

  /** After a valid rating: the completion message (a short thanks when the company has none). */
  private async afterRating(companyId: number, ticketId: number, now: Date): Promise<void> {
    const c = await loadTicketContext(this.db, companyId, ticketId);
    if (!c) return;
    await this.send(c, completionOf(c) || RATING_THANKS_TEXT, now);
  }

  private async send(c: TicketContext, text: string, now: Date): Promise<void> {
    if (!text.trim()) return;
    await this.messagesService.sendAutomatic(c.ticket.companyId, c.ticket.id, renderTemplate(text, variablesOf(c, now)));
  }
}

/** The connection's completion message, else the queue's. */
function completionOf(c: TicketContext): string {
  return c.connection?.complationMessage.trim() || c.queue?.complationMessage.trim() || "";
}
