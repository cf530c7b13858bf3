import type { App } from "../../app";
import type { AppContext } from "../../context";
import type { DomainEvent } from "../../events/bus";
import { pipelines } from "../messages/module";
import { MessagesService } from "../messages/service";
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

  constructor(ctx: AppContext) {
    const messagesService = new MessagesService(ctx);
    const now = () => this.clock();
    this.bot = new Chatbot(ctx, messagesService, now);
    this.automatic = new AutomaticMessages(ctx, messagesService, now);
  }

  dispatch(event: DomainEvent): void {
    if (event.type === "messages.received") this.enqueue(event.ticketId, () => this.bot.onMessage(event));
    else if (event.type === "tickets.transitioned") this.enqueue(event.ticketId, () => this.automatic.onTransition(event));
  }

  private enqueue(ticketId: number, work: () => Promise<void>): void {
    const previous = this.chains.get(ticketId) ?? Promise.resolve();
    const next = previous.then(work).catch((err) => console.error("chatbot failed", ticketId, err));
    this.chains.set(ticketId, next);
    this.running.add(next);
    void next.finally(() => {
      this.running.delete(next);
      if (this.chains.get(ticketId) === next) this.chains.delete(ticketId);
    });
  }

  /** Resolves once no bot or automatic-message work is queued or running (tests). */
  async idle(): Promise<void> {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.running.size === 0) return;
      await Promise.allSettled([...this.running]);
    }
  }
}

/** The automation of each app context (tests reach it to set the clock and wait for replies). */
export const automations = new WeakMap<AppContext, Automation>();

/** Module entry: subscribes to `messages.received` and `tickets.transitioned`, and intercepts rating answers. */
export function registerChatbot(app: App): void {
  const automation = new Automation(app.ctx);
  const unsubscribe = app.ctx.events.subscribe((event) => automation.dispatch(event));
  const unintercept = pipelines.get(app.ctx)?.intercept(automation.automatic.ratingInterceptor);
  app.addHook("onClose", async () => {
    unsubscribe();
    unintercept?.();
  });
  automations.set(app.ctx, automation);
}
