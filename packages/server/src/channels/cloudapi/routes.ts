/**
 * Cloud API helpers for the web app: the approved templates of a connection (synced from the WABA and
 * stored with the connection's settings) and the state of a ticket's 24-hour window, so the composer can
 * disable free text and offer the templates before anything is sent.
 */
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { App } from "../../app";
import { tickets } from "../../db/schema";
import { actorOf } from "../../http/auth";
import { AppError, notFound } from "../../http/errors";
import { loadCloudApiAccount, storedTemplates, storeTemplates } from "./account";
import { GraphError } from "./graph";
import type { CloudApiProvider } from "./provider";
import { registerCloudApiWebhook } from "./webhook";
import { customerServiceWindow } from "./window";

const connectionParams = z.object({ connectionId: z.coerce.number().int().positive().max(2_147_483_647) });
const ticketParams = z.object({ ticketId: z.coerce.number().int().positive().max(2_147_483_647) });

export function registerCloudApiRoutes(app: App): void {
  const { ctx } = app;
  const db = ctx.database.db;
  const auth = { preHandler: app.authenticate };
  const tags = ["cloudapi"];

  app.get("/cloudapi/:connectionId/templates", { ...auth, schema: { params: connectionParams, tags } }, async (request) => {
    const actor = actorOf(request);
    const { connectionId } = request.params as z.infer<typeof connectionParams>;
    if (!(await loadCloudApiAccount(db, actor.companyId, connectionId))) throw notFound("ERR_NO_WAPP_FOUND");
    return storedTemplates(db, actor.companyId, connectionId);
  });

  app.post("/cloudapi/:connectionId/templates/sync", { ...auth, schema: { params: connectionParams, tags } }, async (request) => {
    const actor = actorOf(request);
    const { connectionId } = request.params as z.infer<typeof connectionParams>;
    const account = await loadCloudApiAccount(db, actor.companyId, connectionId);
    const provider = ctx.channels.provider<CloudApiProvider>("cloud-api");
    if (!account || !provider) throw notFound("ERR_NO_WAPP_FOUND");
    try {
      await storeTemplates(db, actor.companyId, connectionId, await provider.listTemplates(account));
    } catch (err) {
      if (err instanceof GraphError) throw new AppError("ERR_WAPP_NOT_INITIALIZED", 400);
      throw err;
    }
    return storedTemplates(db, actor.companyId, connectionId);
  });

  app.get("/cloudapi/tickets/:ticketId/window", { ...auth, schema: { params: ticketParams, tags } }, async (request) => {
    const actor = actorOf(request);
    const { ticketId } = request.params as z.infer<typeof ticketParams>;
    const [t] = await db
      .select({ connectionId: tickets.connectionId, contactId: tickets.contactId })
      .from(tickets)
      .where(and(eq(tickets.id, ticketId), eq(tickets.companyId, actor.companyId)))
      .limit(1);
    if (!t) throw notFound("ERR_NO_TICKET_FOUND");
    const w = await customerServiceWindow(db, actor.companyId, t.connectionId, t.contactId);
    return { applies: w.applies, open: w.open, lastInboundAt: w.lastInboundAt?.toISOString() ?? null, closesAt: w.closesAt?.toISOString() ?? null };
  });
}

/** Everything the Cloud API channel serves: Meta's webhook and the web app's helpers. */
export function registerCloudApi(app: App): void {
  registerCloudApiWebhook(app);
  registerCloudApiRoutes(app);
}
