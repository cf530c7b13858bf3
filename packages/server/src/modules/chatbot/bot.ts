import { and, eq, isNull, sql } from "drizzle-orm";
import { readCache } from "../../cache/readCache";
import type { AppContext } from "../../context";
import type { DomainEvents } from "../../events/bus";
import { attendanceCycles, messages, queueOptions, queues, tickets } from "../../db/schema";
import type { MessagesService } from "../messages/service";
import { isOpen } from "../openingHours/hours";
import { loadCompanySchedules } from "../openingHours/routes";
import { loadQueueOptions } from "../queues/options";
import { compareOptions } from "../queues/presenter";
import { cycles } from "../tickets/cycles";
import type { TicketScope } from "../tickets/policy";
import { presentTicketById } from "../tickets/presenter";
import { loadTicketContext, variablesOf, type TicketContext } from "./context";
import { renderTemplate } from "./templates";
import { BACK_LINE, INVALID_OPTION_TEXT, KEY_BACK, KEY_MAIN_MENU, line, MAIN_MENU_LINE, MENU_FALLBACK_TEXT, normalizeAnswer } from "./texts";

type QueueRow = Readonly<typeof queues.$inferSelect>;
type OptionRow = typeof queueOptions.$inferSelect;
type TicketRecord = typeof tickets.$inferSelect;

const scopeOf = (t: Pick<TicketRecord, "userId" | "queueId" | "status">): TicketScope => ({ userId: t.userId, queueId: t.queueId, status: t.status });

/** A queue's option tree as the bot walks it. */
class OptionTree {
  private readonly byId: Map<number, OptionRow>;
  constructor(private readonly rows: OptionRow[]) {
    this.byId = new Map(rows.map((o) => [o.id, o]));
  }
  has(id: number | null): boolean {
    return id === null || this.byId.has(id);
  }
  node(id: number): OptionRow | undefined {
    return this.byId.get(id);
  }
  children(parentId: number | null): OptionRow[] {
    return this.rows.filter((o) => o.parentId === parentId).sort(compareOptions);
  }
}

/**
 * The queue menu and option-tree bot (docs/api.md "Chatbot"), and out-of-hours replies. It talks only
 * to pending tickets without an attendant; its state is the ticket's queueId, chatbot flag and
 * queueOptionId (the current node; null = the queue's root level).
 */
export class Chatbot {
  constructor(
    private readonly ctx: AppContext,
    private readonly messagesService: MessagesService,
    private readonly now: () => Date,
  ) {}

  private get db() {
    return this.ctx.database.db;
  }

  async onMessage(event: DomainEvents["messages.received"] & { companyId: number }): Promise<void> {
    const { companyId } = event;
    // Settings and the connection's queues come from the process's read cache (issue 20), dropped by their events.
    const cache = readCache(this.ctx);
    // Decided on the ticket as the message found it (the event carries it), without reading the ticket: an
    // attended conversation (most customer messages) or a group gets no bot, nor does a returning customer's
    // unrouted ticket when the connection offers no queue and the company keeps no opening hours. A ticket
    // changed in the milliseconds before this runs is judged as the customer's message found it.
    const seen = event.ticket;
    if (seen && (seen.status !== "pending" || seen.userId !== null || seen.isGroup)) return;
    const scheduleType = (await cache.setting(companyId, "scheduleType")) ?? "disabled";
    if (
      seen?.queueId === null &&
      !event.ticketCreated &&
      scheduleType !== "company" &&
      (await cache.connectionQueues(companyId, event.connectionId)).length === 0
    )
      return;
    const c = await loadTicketContext(this.db, companyId, event.ticketId);
    if (!c) return;
    const t = c.ticket;
    if (t.status !== "pending" || t.userId !== null || t.isGroup || t.connectionId === null) return;
    const [m] =
      event.body !== undefined && event.mediaType !== undefined
        ? [{ body: event.body, mediaType: event.mediaType }]
        : await this.db
            .select({ body: messages.body, mediaType: messages.mediaType })
            .from(messages)
            .where(and(eq(messages.id, event.messageId), eq(messages.companyId, companyId)))
            .limit(1);
    if (!m || m.mediaType === "call_log") return;

    const now = this.now();
    if (scheduleType === "company" && !isOpen(await loadCompanySchedules(this.db, companyId), now, c.timeZone)) {
      // Closed: no menu; the ticket waits for the next opening, the customer is told once per cycle.
      await this.outOfHoursOnce(c, c.connection?.outOfHoursMessage ?? "", now);
      return;
    }
    const menuQueues = await cache.connectionQueues(companyId, t.connectionId);

    if (t.queueId !== null) {
      const closed = scheduleType === "queue" && c.queue !== null && !isOpen(c.queue.schedules, now, c.timeZone);
      if (closed) {
        if (t.chatbot) await this.setState(c, { chatbot: false });
        await this.outOfHoursOnce(c, c.queue?.outOfHoursMessage ?? "", now);
        return;
      }
      if (t.chatbot) await this.answerTree(c, m.body, menuQueues, now);
      return;
    }

    // Not routed yet: pick the queue.
    if (menuQueues.length === 0) {
      if (event.ticketCreated) await this.send(c, c.connection?.greetingMessage ?? "", now);
      return;
    }
    if (menuQueues.length === 1) {
      await this.enterQueue(c, menuQueues[0]!, menuQueues, scheduleType, now);
      return;
    }
    if (!t.chatbot) {
      if (await this.setState(c, { chatbot: true })) await this.send(c, this.mainMenu(c, menuQueues), now);
      return;
    }
    const answer = normalizeAnswer(m.body);
    const chosen = /^\d+$/.test(answer) ? menuQueues[Number(answer) - 1] : undefined;
    if (chosen) await this.enterQueue(c, chosen, menuQueues, scheduleType, now);
    else if (answer === KEY_MAIN_MENU || answer === KEY_BACK) await this.send(c, this.mainMenu(c, menuQueues), now);
    else await this.send(c, `${INVALID_OPTION_TEXT}\n\n${this.mainMenu(c, menuQueues)}`, now);
  }

  // ─── Menus ──────────────────────────────────────────────────────────────────────────────────

  /** The connection's greeting and the numbered queues. */
  private mainMenu(c: TicketContext, menuQueues: readonly QueueRow[]): string {
    const head = c.connection?.greetingMessage.trim() || MENU_FALLBACK_TEXT;
    return `${head}\n\n${menuQueues.map((q, i) => line(String(i + 1), q.name)).join("\n")}`;
  }

  /** A level of the tree: the root (queue greeting) or an inner option (its message), its children, the way back. */
  private levelMenu(queue: Pick<QueueRow, "greetingMessage">, node: OptionRow | undefined, children: OptionRow[], multiQueue: boolean): string {
    const head = (node ? node.message.trim() || node.title : queue.greetingMessage.trim()) || MENU_FALLBACK_TEXT;
    const lines = children.map((o) => line(o.option, o.title));
    if (node) lines.push(BACK_LINE, MAIN_MENU_LINE);
    else if (multiQueue) lines.push(MAIN_MENU_LINE);
    return `${head}\n\n${lines.join("\n")}`;
  }

  // ─── Transitions ────────────────────────────────────────────────────────────────────────────

  /** The customer lands in a queue: its option menu, else its greeting; out of hours, the queue's message. */
  private async enterQueue(c: TicketContext, queue: QueueRow, menuQueues: readonly QueueRow[], scheduleType: string, now: Date): Promise<void> {
    const tree = new OptionTree(await loadQueueOptions(this.db, c.ticket.companyId, queue.id));
    const roots = tree.children(null);
    const closed = scheduleType === "queue" && !isOpen(queue.schedules, now, c.timeZone);
    const chatbot = roots.length > 0 && !closed;
    const moved = await this.setState(c, { queueId: queue.id, queueOptionId: null, chatbot });
    if (!moved) return;
    const inQueue: TicketContext = { ...c, queue: { ...queue }, ticket: { ...c.ticket, queueId: queue.id } };
    if (closed) await this.outOfHoursOnce(inQueue, queue.outOfHoursMessage, now);
    else if (chatbot) await this.send(inQueue, this.levelMenu(queue, undefined, roots, menuQueues.length > 1), now);
    else await this.send(inQueue, queue.greetingMessage, now);
  }

  /** One answer inside a queue's option tree. */
  private async answerTree(c: TicketContext, body: string, menuQueues: readonly QueueRow[], now: Date): Promise<void> {
    const queue = c.queue;
    if (!queue) return;
    const tree = new OptionTree(await loadQueueOptions(this.db, c.ticket.companyId, queue.id));
    const multiQueue = menuQueues.length > 1;
    // The node may have been deleted (or emptied) by an admin meanwhile: fall back to the root level.
    let current = tree.has(c.ticket.queueOptionId) ? c.ticket.queueOptionId : null;
    if (current !== null && tree.children(current).length === 0) current = null;
    const answer = normalizeAnswer(body);

    const showLevel = async (nodeId: number | null) => {
      const children = tree.children(nodeId);
      if (children.length === 0) {
        // Nothing left to choose (the tree was emptied): leave the bot, an attendant takes over.
        await this.setState(c, { chatbot: false, queueOptionId: null });
        return;
      }
      if (await this.setState(c, { queueOptionId: nodeId }))
        await this.send(c, this.levelMenu(queue, nodeId === null ? undefined : tree.node(nodeId), children, multiQueue), now);
    };

    if (answer === KEY_MAIN_MENU || (answer === KEY_BACK && current === null)) {
      if (multiQueue) {
        if (await this.setState(c, { queueId: null, queueOptionId: null, chatbot: true })) await this.send(c, this.mainMenu(c, menuQueues), now);
      } else await showLevel(null);
      return;
    }
    if (answer === KEY_BACK) {
      await showLevel(tree.node(current!)?.parentId ?? null);
      return;
    }
    const chosen = tree.children(current).find((o) => o.option === answer);
    if (!chosen) {
      const children = tree.children(current);
      if (children.length === 0) return showLevel(null);
      await this.send(
        c,
        `${INVALID_OPTION_TEXT}\n\n${this.levelMenu(queue, current === null ? undefined : tree.node(current), children, multiQueue)}`,
        now,
      );
      return;
    }
    const grandchildren = tree.children(chosen.id);
    if (grandchildren.length > 0) {
      if (await this.setState(c, { queueOptionId: chosen.id })) await this.send(c, this.levelMenu(queue, chosen, grandchildren, multiQueue), now);
      return;
    }
    // A leaf: its message, then the ticket waits in the queue for an attendant (queueOptionId keeps the choice).
    if (await this.setState(c, { queueOptionId: chosen.id, chatbot: false })) await this.send(c, chosen.message, now);
  }

  /**
   * Applies a bot state change if the ticket is still the bot's (pending, no attendant), stamps the
   * cycle (queue set → queuedAt; first bot use → chatbotAt) and tells the ticket lists.
   */
  private async setState(c: TicketContext, next: Partial<Pick<TicketRecord, "queueId" | "queueOptionId" | "chatbot">>): Promise<boolean> {
    const before = c.ticket;
    const updated = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(tickets)
        .set({ ...next, updatedAt: new Date() })
        .where(and(eq(tickets.id, before.id), eq(tickets.companyId, before.companyId), eq(tickets.status, "pending"), isNull(tickets.userId)))
        .returning();
      if (!row) return null;
      if (next.queueId !== undefined && next.queueId !== before.queueId) await cycles.queued(tx, row);
      if (row.chatbot) await cycles.chatbot(tx, row);
      return row;
    });
    if (!updated) return false;
    c.ticket = updated;
    const visible = before.queueId !== updated.queueId || before.chatbot !== updated.chatbot;
    if (visible) {
      const dto = await presentTicketById(this.db, before.companyId, before.id);
      if (dto) this.ctx.events.publish({ type: "tickets.updated", companyId: before.companyId, ticket: dto, previous: scopeOf(before) });
    }
    return true;
  }

  /** The out-of-hours message, at most once per attendance cycle (claimed atomically on the cycle row). */
  private async outOfHoursOnce(c: TicketContext, text: string, now: Date): Promise<void> {
    if (!text.trim()) return;
    const claimed = await this.db
      .update(attendanceCycles)
      .set({ outOfHoursSentAt: now, updatedAt: new Date() })
      .where(
        and(
          eq(attendanceCycles.companyId, c.ticket.companyId),
          eq(attendanceCycles.ticketId, c.ticket.id),
          sql`${attendanceCycles.finishedAt} is null`,
          sql`${attendanceCycles.outOfHoursSentAt} is null`,
        ),
      )
      .returning({ id: attendanceCycles.id });
    if (claimed.length) await this.send(c, text, now);
  }

  private async send(c: TicketContext, text: string, now: Date): Promise<void> {
    if (!text.trim()) return;
    await this.messagesService.sendAutomatic(c.ticket.companyId, c.ticket.id, renderTemplate(text, variablesOf(c, now)));
  }
}
