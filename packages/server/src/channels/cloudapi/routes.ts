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
import { GraphError, type GraphTemplate } from "./graph";
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

const templateBody = z.object({
  name: z.string().trim().min(1, "Required").max(512),
  language: z.string().trim().min(2, "Required").max(20),
  bodyParams: z.array(z.string().trim().min(1, "Required").max(1024)).max(20).optional().default([]),
});

/** The template's body text with its {{n}} filled in (what the ticket shows). */
export function renderTemplate(template: GraphTemplate, params: string[]): string {
  const text = template.components?.find((c) => c.type === "BODY")?.text ?? template.name;
  return text.replace(/\{\{(\d+)\}\}/g, (_, n: string) => params[Number(n) - 1] ?? "");
}

export function registerCloudApiTemplateSend(app: App): void {
  const { ctx } = app;
  const db = ctx.database.db;
  app.post(
    "/cloudapi/tickets/:ticketId/template",
    { preHandler: app.authenticate, schema: { params: ticketParams, body: templateBody, tags: ["cloudapi"] } },
    async (request, reply) => {
      const actor = actorOf(request);
      const { ticketId } = request.params as z.infer<typeof ticketParams>;
      const input = request.body as z.output<typeof templateBody>;
      const [t] = await db
        .select({ connectionId: tickets.connectionId })
        .from(tickets)
        .where(and(eq(tickets.id, ticketId), eq(tickets.companyId, actor.companyId)))
        .limit(1);
      if (!t) throw notFound("ERR_NO_TICKET_FOUND");
      const { templates } = t.connectionId ? await storedTemplates(db, actor.companyId, t.connectionId) : { templates: [] };
      const template = templates.find((x) => x.name === input.name && x.language === input.language);
      const expected = (template?.components?.find((c) => c.type === "BODY")?.text?.match(/\{\{\d+\}\}/g) ?? []).length;
      if (!template || expected !== input.bodyParams.length) throw new AppError("ERR_CLOUD_API_TEMPLATE_INVALID", 400);
      const sent = await ctx.services.messages.send(actor, ticketId, {
        body: renderTemplate(template, input.bodyParams),
        template: { name: template.name, language: template.language, bodyParams: input.bodyParams },
      });
      return reply.status(201).send(sent);
    },
  );
}

/** Everything the Cloud API channel serves: Meta's webhook and the web app's helpers. */
export function registerCloudApi(app: App): void {
  registerCloudApiWebhook(app);
  registerCloudApiRoutes(app);
  registerCloudApiTemplateSend(app);
}
