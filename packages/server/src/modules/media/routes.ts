import { and, eq } from "drizzle-orm";
import { isAdmin, idField } from "@balcao/shared";
import { z } from "zod";
import type { App } from "../../app";
import { messages, tickets } from "../../db/schema";
import { actorOf } from "../../http/auth";
import { notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { canSeeTicket } from "../tickets/policy";
import { MediaStore } from "./service";
import { INLINE_TYPES } from "./sniff";

const mediaParams = z.object({ id: z.string().uuid() });
const mediaQuery = z.object({ ticket: idField.optional() });

export function registerMediaRoutes(app: App): void {
  const store = new MediaStore(app.ctx);
  const db = app.ctx.database.db;

  /**
   * Admins see every ticket of their company, so every file. Anyone else gets a message's file only through
   * a ticket they may open (the `ticket` the message's mediaUrl names), checked like the ticket itself; a
   * file of a ticket out of their queues is a 404 like a missing one (issue 11).
   */
  const assertVisible = async (actor: Actor, mediaId: string, ticketId: number | undefined): Promise<void> => {
    if (isAdmin(actor)) return;
    if (!ticketId) throw notFound();
    const [row] = await db
      .select({ userId: tickets.userId, queueId: tickets.queueId, status: tickets.status })
      .from(messages)
      .innerJoin(tickets, eq(tickets.id, messages.ticketId))
      .where(
        and(
          eq(messages.companyId, actor.companyId),
          eq(messages.ticketId, ticketId),
          eq(messages.mediaPath, mediaId),
          eq(tickets.companyId, actor.companyId),
        ),
      )
      .limit(1);
    if (!row || !canSeeTicket(actor, row)) throw notFound();
  };

  // Only users of the owning company get a file; another company's id is a 404 like a missing one.
  app.get(
    "/media/:id",
    { preHandler: app.authenticate, schema: { params: mediaParams, querystring: mediaQuery, tags: ["media"] } },
    async (request, reply) => {
      const actor = actorOf(request);
      await assertVisible(actor, request.params.id, request.query.ticket);
      const { record, data } = await store.load(actor.companyId, request.params.id);
      const inline = INLINE_TYPES.has(record.mimeType);
      return reply
        .header("Content-Type", record.mimeType)
        .header("X-Content-Type-Options", "nosniff")
        .header("Content-Security-Policy", "sandbox; default-src 'none'")
        .header("Cache-Control", "private, max-age=3600")
        .header("Content-Disposition", `${inline ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(record.originalName)}`)
        .send(data);
    },
  );
}
