/**
 * Cloud API helpers for the web app: the approved templates of a connection (synced from the WABA and
 * stored with the connection's settings) and the state of a ticket's 24-hour window, so the composer can
 * disable free text and offer the templates before anything is sent.
 */
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { cloudApiReactionBody, cloudApiTemplateSendBody, renderTemplateBody, templateRequirements, type CloudApiWindowDTO } from "@balcao/shared";
import type { App } from "../../app";
import { tickets } from "../../db/schema";
import { actorOf } from "../../http/auth";
import { canSeeTicket } from "../../modules/tickets/policy";
import { AppError, notFound } from "../../http/errors";
import { loadCloudApiAccount, storedTemplates, storeTemplates } from "./account";
import { GraphError, type GraphTemplate } from "./graph";
import type { CloudApiProvider } from "./provider";
import { registerCloudApiWebhook } from "./webhook";
import { customerServiceWindow } from "./window";

const connectionParams = z.object({ connectionId: z.coerce.number().int().positive().max(2_147_483_647) });
const ticketParams = z.object({ ticketId: z.coerce.number().int().positive().max(2_147_483_647) });
const messageParams = z.object({ messageId: z.coerce.number().int().positive().max(2_147_483_647) });

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
      .select({
        connectionId: tickets.connectionId,
        contactId: tickets.contactId,
        userId: tickets.userId,
        queueId: tickets.queueId,
        status: tickets.status,
      })
      .from(tickets)
      .where(and(eq(tickets.id, ticketId), eq(tickets.companyId, actor.companyId)))
      .limit(1);
    if (!t) throw notFound("ERR_NO_TICKET_FOUND");
    // Only for a ticket the user may open (as GET /messages/:ticketId).
    if (!canSeeTicket(actor, t)) throw new AppError("ERR_ACCESS_DENIED", 403);
    const w = await customerServiceWindow(db, actor.companyId, t.connectionId, t.contactId);
    const dto: CloudApiWindowDTO = {
      applies: w.applies,
      open: w.open,
      lastInboundAt: w.lastInboundAt?.toISOString() ?? null,
      closesAt: w.closesAt?.toISOString() ?? null,
    };
    return dto;
  });
}

/** Refuses a send that does not match the approved template: body count, header kind, dynamic buttons. */
function assertTemplateParams(
  template: GraphTemplate | undefined,
  input: z.output<typeof cloudApiTemplateSendBody>,
): asserts template is GraphTemplate {
  const needs = template ? templateRequirements(template) : null;
  const invalid = () => new AppError("ERR_CLOUD_API_TEMPLATE_INVALID", 400);
  if (!needs || needs.bodyParams !== input.bodyParams.length) throw invalid();
  if ((needs.header?.type ?? null) !== (input.header?.type ?? null)) throw invalid();
  const given = new Map(input.buttons.map((b) => [b.index, b]));
  if (given.size !== input.buttons.length) throw invalid();
  for (const b of needs.buttons) if (b.required && !given.has(b.index)) throw invalid();
  for (const b of input.buttons) if (!needs.buttons.some((n) => n.index === b.index && n.subType === b.subType)) throw invalid();
}

export function registerCloudApiTemplateSend(app: App): void {
  const { ctx } = app;
  const db = ctx.database.db;
  app.post(
    "/cloudapi/tickets/:ticketId/template",
    { preHandler: app.authenticate, schema: { params: ticketParams, body: cloudApiTemplateSendBody, tags: ["cloudapi"] } },
    async (request, reply) => {
      const actor = actorOf(request);
      const { ticketId } = request.params as z.infer<typeof ticketParams>;
      const input = request.body as z.output<typeof cloudApiTemplateSendBody>;
      const [t] = await db
        .select({ connectionId: tickets.connectionId })
        .from(tickets)
        .where(and(eq(tickets.id, ticketId), eq(tickets.companyId, actor.companyId)))
        .limit(1);
      if (!t) throw notFound("ERR_NO_TICKET_FOUND");
      const { templates } = t.connectionId ? await storedTemplates(db, actor.companyId, t.connectionId) : { templates: [] };
      const template = templates.find((x) => x.name === input.name && x.language === input.language);
      assertTemplateParams(template, input);
      const sent = await ctx.services.messages.send(actor, ticketId, {
        body: renderTemplateBody(template, input.bodyParams),
        template: {
          name: template.name,
          language: template.language,
          bodyParams: input.bodyParams,
          ...(input.header && { header: input.header }),
          ...(input.buttons.length > 0 && { buttons: input.buttons }),
        },
      });
      return reply.status(201).send(sent);
    },
  );

  app.post(
    "/cloudapi/messages/:messageId/reaction",
    { preHandler: app.authenticate, schema: { params: messageParams, body: cloudApiReactionBody, tags: ["cloudapi"] } },
    async (request, reply) => {
      const { messageId } = request.params as z.infer<typeof messageParams>;
      const { emoji } = request.body as z.output<typeof cloudApiReactionBody>;
      await ctx.services.messages.react(actorOf(request), messageId, emoji);
      return reply.status(204).send();
    },
  );
}

/** Everything the Cloud API channel serves: Meta's webhook and the web app's helpers. */
export function registerCloudApi(app: App): void {
  registerCloudApiWebhook(app);
  registerCloudApiRoutes(app);
  registerCloudApiTemplateSend(app);
}
