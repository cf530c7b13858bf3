import type { App } from "../../app";
import type { AppContext } from "../../context";
import { LIVE_PACE_MS, type DomainEvent } from "../../events/bus";
import { pipelines } from "../messages/module";
import { AutomaticMessages } from "./automatic";
import { Chatbot } from "./bot";

/**
 * Runs the bot and the automatic messages off domain events, one ticket at a time (a ticket's work
 * waits for its previous work, so replies keep the order of the customer's messages).
 */
export class Automation {
  /** The clock of opening hours, templates and rating windows (tests set it). */
  clock: () => Date = () => new Date();
  readonly bot: Chatbot;
  readonly automatic: AutomaticMessages;
  private readonly chains = new Map<number, Promise<void>>();
  private readonly running = new Set<Promise<void>>();

  private readonly log: AppContext["log"];

  constructor(private readonly ctx: AppContext) {
    this.log = ctx.log.child({ name: "chatbot" });
    const messagesService = ctx.services.messages;
    const now = () => this.clock();
    this.bot = new Chatbot(ctx, messagesService, now);
    this.automatic = new AutomaticMessages(ctx, messagesService, now);
  }

  /** Resolves when the event's work is done (the outbox moves its cursor past a batch once all of it is). */
  dispatch(event: DomainEvent): Promise<void> {
    if (event.type === "messages.received") return this.enqueue(event.ticketId, () => this.bot.onMessage(event));
    if (event.type === "tickets.transitioned") return this.enqueue(event.ticketId, () => this.automatic.onTransition(event));
    return Promise.resolve();
  }

  private enqueue(ticketId: number, work: () => Promise<void>): Promise<void> {
    const previous = this.chains.get(ticketId) ?? Promise.resolve();
    const next = previous.then(work).catch((err) => this.log.error({ err, ticketId }, "chatbot failed"));
    this.chains.set(ticketId, next);
    this.running.add(next);
    void next.finally(() => {
      this.running.delete(next);
      if (this.chains.get(ticketId) === next) this.chains.delete(ticketId);
    });
    return next;
  }

  /** Resolves once no event waits in the outbox and no bot or automatic-message work runs (tests). */
  async idle(): Promise<void> {
    for (;;) {
      await this.ctx.events.drain();
      await new Promise((resolve) => setImmediate(resolve));
      if (this.running.size === 0) {
        await this.ctx.events.drain();
        if (this.running.size === 0) return;
      }
      await Promise.allSettled([...this.running]);
    }
  }
}

/** The automation of each app context (tests reach it to set the clock and wait for replies). */
export const automations = new WeakMap<AppContext, Automation>();

/** Module entry: subscribes to `messages.received` and `tickets.transitioned`, and intercepts rating answers. */
export function registerChatbot(app: App): void {
  const automation = new Automation(app.ctx);
  // In order per ticket, tickets concurrently: replies keep the order of the customer's messages.
  const unsubscribe = app.ctx.events.subscribe("automation", (event) => automation.dispatch(event), {
    types: ["messages.received", "tickets.transitioned"],
    key: (event) => ("ticketId" in event && typeof event.ticketId === "number" ? event.ticketId : undefined),
    paceMs: LIVE_PACE_MS,
  });
  const unintercept = pipelines.get(app.ctx)?.intercept(automation.automatic.ratingInterceptor);
  app.addHook("onClose", async () => {
    unsubscribe();
    unintercept?.();
  });
  automations.set(app.ctx, automation);
}
