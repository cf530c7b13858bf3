import { and, desc, eq } from "drizzle-orm";
import { idParams, isAdmin, ticketNoteCreateBody, ticketNoteListQuery, type TicketNoteDTO } from "@balcao/shared";
import type { App } from "../../app";
import { ticketNotes, tickets, users } from "../../db/schema";
import { actorOf } from "../../http/auth";
import { AppError, forbidden, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { canSeeTicket } from "../tickets/policy";

/**
 * Notes on a contact, written from a ticket (spec §2 contact drawer). Whoever can open the ticket reads
 * and writes them; a note is deleted by its author or an admin.
 */
export function registerTicketNoteRoutes(app: App): void {
  const db = app.ctx.database.db;
  const auth = { preHandler: app.authenticate };

  const visibleTicket = async (actor: Actor, ticketId: number) => {
    const [t] = await db
      .select()
      .from(tickets)
      .where(and(eq(tickets.id, ticketId), eq(tickets.companyId, actor.companyId)))
      .limit(1);
    if (!t) throw notFound("ERR_NO_TICKET_FOUND");
    if (!canSeeTicket(actor, t)) throw new AppError("ERR_ACCESS_DENIED", 403);
    return t;
  };

  const select = () => db.select({ note: ticketNotes, userName: users.name }).from(ticketNotes).leftJoin(users, eq(users.id, ticketNotes.userId));
  const present = (r: { note: typeof ticketNotes.$inferSelect; userName: string | null }): TicketNoteDTO => ({
    id: r.note.id,
    note: r.note.note,
    ticketId: r.note.ticketId,
    contactId: r.note.contactId,
    userId: r.note.userId,
    user: r.note.userId !== null && r.userName !== null ? { id: r.note.userId, name: r.userName } : null,
    createdAt: r.note.createdAt.toISOString(),
  });

  app.get("/ticket-notes/list", { ...auth, schema: { querystring: ticketNoteListQuery, tags: ["ticket-notes"] } }, async (request) => {
    const actor = actorOf(request);
    const { ticketId, contactId } = request.query;
    if (!ticketId) throw new AppError("ERR_NO_TICKET_FOUND", 400);
    const t = await visibleTicket(actor, ticketId);
    // The drawer shows the contact's notes from every ticket; the ticket proves the caller may see them.
    const rows = await select()
      .where(and(eq(ticketNotes.companyId, actor.companyId), eq(ticketNotes.contactId, contactId ?? t.contactId)))
      .orderBy(desc(ticketNotes.createdAt), desc(ticketNotes.id))
      .limit(200);
    if (contactId && contactId !== t.contactId) return [];
    return rows.map(present);
  });

  app.post("/ticket-notes", { ...auth, schema: { body: ticketNoteCreateBody, tags: ["ticket-notes"] } }, async (request, reply) => {
    const actor = actorOf(request);
    const t = await visibleTicket(actor, request.body.ticketId);
    if (t.contactId !== request.body.contactId) throw notFound("ERR_NO_CONTACT_FOUND");
    const [row] = await db
      .insert(ticketNotes)
      .values({ companyId: actor.companyId, ticketId: t.id, contactId: t.contactId, userId: actor.id, note: request.body.note })
      .returning({ id: ticketNotes.id });
    const [created] = await select().where(eq(ticketNotes.id, row!.id));
    return reply.status(201).send(present(created!));
  });

  app.delete("/ticket-notes/:id", { ...auth, schema: { params: idParams, tags: ["ticket-notes"] } }, async (request) => {
    const actor = actorOf(request);
    const [note] = await db
      .select()
      .from(ticketNotes)
      .where(and(eq(ticketNotes.id, request.params.id), eq(ticketNotes.companyId, actor.companyId)))
      .limit(1);
    if (!note) throw notFound();
    await visibleTicket(actor, note.ticketId);
    if (!isAdmin(actor) && note.userId !== actor.id) throw forbidden();
    await db.delete(ticketNotes).where(eq(ticketNotes.id, note.id));
    return { message: "Observação excluída com sucesso!" };
  });
}
