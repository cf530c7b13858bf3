import type { AppContext } from "../../context";
import { presentTicketById } from "../tickets/presenter";

/**
 * The tags module records `tickets.tagsChanged` (tag editor, sync, a deleted tag) without the ticket; this
 * consumer turns each into a `tickets.updated` with the ticket as it is now, so boards, ticket lists and open
 * chats see the new tags live (the Kanban's own moves record `tickets.updated` themselves). Keyed by ticket:
 * one ticket's changes stay in order.
 */
export function startTicketTagsRelay(ctx: AppContext): () => void {
  return ctx.events.subscribe(
    "ticketTags",
    async (event) => {
      if (event.type !== "tickets.tagsChanged") return;
      const ticket = await presentTicketById(ctx.database.db, event.companyId, event.ticketId);
      // Deleted meanwhile: its `tickets.deleted` tells the sockets.
      if (ticket) await ctx.events.record(ctx.database.db, { type: "tickets.updated", companyId: event.companyId, ticket });
    },
    { key: (event) => (event.type === "tickets.tagsChanged" ? event.ticketId : undefined), types: ["tickets.tagsChanged"] },
  );
}
