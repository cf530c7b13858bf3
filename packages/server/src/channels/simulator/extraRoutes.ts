/**
 * Simulator routes of issue 21, with the same access (signed-in company or the link's key) and owner relay as
 * the others (routes.ts hands its helpers over):
 * - groups (item 2): create a group with a subject and participants, rename it, write in it as one of them; the
 *   company's answers to the group land in its log;
 * - the connection drops and comes back (item 4): "lost" is WhatsApp's connection lost (TIMEOUT, sends refused),
 *   "back" is CONNECTED again, so what was queued meanwhile is delivered — the company's replies, and the
 *   customers' messages held on the phones as one late batch (`replay`: the previous batch again too);
 *   "replaced" is another WhatsApp Web session taking the number (DISCONNECTED, pairing kept).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import {
  simulatorConnectionBody,
  simulatorConnectionParams,
  simulatorGroupBody,
  simulatorGroupMessageBody,
  simulatorGroupParams,
  simulatorGroupRenameBody,
  simulatorKeyQuery,
  type ConnectionStatus,
  type SimulatorConnectionAnswer,
  type SimulatorGroupDTO,
  type SimulatorGroupMessageDTO,
  type SimulatorMessageDTO,
} from "@balcao/shared";
import type { App } from "../../app";
import { and, eq } from "drizzle-orm";
import { connections } from "../../db/schema";
import { AppError } from "../../http/errors";
import { SimulatorSession, type SimGroup, type SimGroupMessage, type SimMessage, type SimulatorProvider } from "./provider";

type ConnectionRow = typeof connections.$inferSelect;

export interface SimulatorRouteHelpers {
  access: (request: FastifyRequest, connectionId: number) => Promise<ConnectionRow>;
  onOwner: (request: FastifyRequest, reply: FastifyReply, row: ConnectionRow) => Promise<boolean>;
  live: (row: ConnectionRow) => SimulatorSession;
  guard: <T>(work: () => Promise<T>) => Promise<T>;
  provider: () => SimulatorProvider;
  presentMessage: (m: SimMessage) => SimulatorMessageDTO;
}

export function registerSimulatorExtraRoutes(app: App, h: SimulatorRouteHelpers): void {
  const tags = ["simulator"];

  app.post(
    "/simulator/:connectionId/connection",
    { schema: { params: simulatorConnectionParams, querystring: simulatorKeyQuery, body: simulatorConnectionBody, tags } },
    async (request, reply) => {
      const row = await h.access(request, request.params.connectionId);
      if (await h.onOwner(request, reply, row)) return reply;
      let session: SimulatorSession | null = null;
      try {
        const s = app.ctx.channels.session(row.companyId, row.id);
        if (s instanceof SimulatorSession) session = s;
      } catch {
        /* not running here: below */
      }
      if (!session) throw new AppError("ERR_WAPP_NOT_INITIALIZED", 400);
      const { state, replay } = request.body;
      let delivered: number | undefined;
      if (state === "back") {
        const count = await session.restoreConnection(replay ?? false);
        if (count === null) throw new AppError("ERR_WAPP_NOT_INITIALIZED", 400);
        delivered = count;
      } else if (!(state === "lost" ? await session.dropConnection() : await session.replaceConnection()))
        throw new AppError("ERR_WAPP_NOT_INITIALIZED", 400);
      const [current] = await app.ctx.database.db
        .select({ status: connections.status })
        .from(connections)
        .where(and(eq(connections.companyId, row.companyId), eq(connections.id, row.id)));
      return { status: current!.status as ConnectionStatus, ...(delivered !== undefined && { delivered }) } satisfies SimulatorConnectionAnswer;
    },
  );
  const presentGroupMessage = (m: SimGroupMessage): SimulatorGroupMessageDTO => ({ ...h.presentMessage(m), ...(m.from && { from: m.from }) });
  const presentGroup = (row: ConnectionRow, g: SimGroup): SimulatorGroupDTO => {
    const phones = h.provider().phoneBook(row.id).phones;
    return {
      id: g.number,
      subject: g.name,
      participants: g.participants.map((number) => ({ number, name: phones.get(number)?.name ?? number })),
      messages: g.messages.map(presentGroupMessage),
    };
  };

  app.get(
    "/simulator/:connectionId/groups",
    { schema: { params: simulatorConnectionParams, querystring: simulatorKeyQuery, tags } },
    async (request, reply) => {
      const row = await h.access(request, request.params.connectionId);
      if (await h.onOwner(request, reply, row)) return reply;
      return [...h.provider().phoneBook(row.id).groups.values()].map((g) => presentGroup(row, g));
    },
  );

  app.post(
    "/simulator/:connectionId/groups",
    { schema: { params: simulatorConnectionParams, querystring: simulatorKeyQuery, body: simulatorGroupBody, tags } },
    async (request, reply) => {
      const row = await h.access(request, request.params.connectionId);
      if (await h.onOwner(request, reply, row)) return reply;
      const group = await h.guard(async () => h.live(row).createGroup(request.body.subject, request.body.participants));
      return reply.status(201).send(presentGroup(row, group));
    },
  );

  app.put(
    "/simulator/:connectionId/groups/:groupId",
    { schema: { params: simulatorGroupParams, querystring: simulatorKeyQuery, body: simulatorGroupRenameBody, tags } },
    async (request, reply) => {
      const row = await h.access(request, request.params.connectionId);
      if (await h.onOwner(request, reply, row)) return reply;
      const group = await h.guard(() => h.live(row).renameGroup(request.params.groupId, request.body.subject));
      return presentGroup(row, group);
    },
  );

  app.post(
    "/simulator/:connectionId/groups/:groupId/messages",
    { schema: { params: simulatorGroupParams, querystring: simulatorKeyQuery, body: simulatorGroupMessageBody, tags } },
    async (request, reply) => {
      const row = await h.access(request, request.params.connectionId);
      if (await h.onOwner(request, reply, row)) return reply;
      const message = await h.guard(() => h.live(row).groupSend(request.params.groupId, request.body.from, request.body.body));
      return reply.status(201).send(presentGroupMessage(message));
    },
  );
}
