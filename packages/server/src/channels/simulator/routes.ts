/**
 * The simulator's HTTP API (/api/simulator/...): act as customers of a simulator connection.
 * Reachable by signed-in users of the owning company, or with the connection's secret link key
 * (`?key=`, derived server-side from JWT_SECRET and the connection's token, shown to admins only).
 * Not registered at all when SIMULATOR_ENABLED=false (every path answers 404).
 * It lives with the simulator provider because it drives that provider's own classes (phones, customer
 * messages); domain modules see only the ChannelProvider interface.
 * The phones live in the memory of the process that runs the connection: a call that lands on another
 * process is run on the owner through the session relay (messages/sessionRelay.ts) and answered with the
 * owner's status, headers and body.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import {
  simulatorAckBody,
  simulatorEditBody,
  simulatorReactionBody,
  simulatorCallBody,
  simulatorConnectionParams,
  simulatorInboundBody,
  simulatorKeyQuery,
  simulatorMessageParams,
  simulatorPhoneBody,
  simulatorPhoneParams,
  simulatorScanBody,
  type ConnectionStatus,
  type SimulatorLinkDTO,
  type SimulatorMessageDTO,
  type SimulatorPhoneDTO,
  type SimulatorStateDTO,
} from "@balcao/shared";
import type { App } from "../../app";
import { SimulatorError, SimulatorSession, type CustomerMessage, type SimMessage, type SimPhone, type SimulatorProvider } from "./provider";
import { ChannelError } from "../types";
import { connectionAuth, connections } from "../../db/schema";
import { isAdmin } from "@balcao/shared";
import { actorOf, bearerToken, requireAdmin } from "../../http/auth";
import { AppError, forbidden, notFound } from "../../http/errors";
import { sniffMimeType } from "../../modules/media/sniff";
import { sessionRelayOf } from "../../modules/messages/sessionRelay";
import { registerSimulatorExtraRoutes } from "./extraRoutes";

/** Marks a call already relayed to the owner: it is never relayed again. */
const RELAYED = "x-balcao-relayed";
/** Request headers a relayed call carries. */
const CALL_HEADERS = ["authorization", "content-type", "accept-language"] as const;
/** Answer headers a relayed call brings back. */
const ANSWER_HEADERS = ["content-type", "content-security-policy", "content-disposition", "x-content-type-options", "cache-control"] as const;

interface RelayedCall {
  method: "GET" | "POST" | "DELETE";
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

interface RelayedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type ConnectionRow = typeof connections.$inferSelect;
/** What the routes that only reach a connection's session need of its row. */
type ConnectionRef = Pick<ConnectionRow, "id" | "companyId">;

export function simulatorKey(jwtSecret: string, connection: Pick<ConnectionRow, "id" | "token">): string {
  return createHmac("sha256", jwtSecret)
    .update(`simulator:${connection.id}:${connection.token ?? ""}`)
    .digest("base64url");
}

function presentMessage(m: SimMessage): SimulatorMessageDTO {
  return {
    id: m.id,
    direction: m.direction,
    kind: m.kind,
    body: m.body,
    ack: m.ack,
    deleted: m.deleted,
    hasMedia: !!m.media,
    ...(m.media && { mimeType: m.media.mimeType, fileName: m.media.fileName, ...(m.media.voice !== undefined && { voice: m.media.voice }) }),
    ...(m.quotedId && { quotedId: m.quotedId }),
    timestamp: m.timestamp.toISOString(),
    ...(m.reaction && { reaction: m.reaction }),
    ...(m.edited && { edited: true }),
    ...(m.viewOnce && { viewOnce: true }),
    ...(m.ephemeral && { ephemeral: m.ephemeral }),
    ...(m.queued && { queued: true }),
  };
}

function presentPhone(p: SimPhone): SimulatorPhoneDTO {
  return { number: p.number, name: p.name, messages: p.messages.map(presentMessage) };
}

export function registerSimulatorRoutes(app: App): void {
  const { ctx } = app;
  if (!ctx.config.channels.simulatorEnabled) return;
  const db = ctx.database.db;
  const tags = ["simulator"];
  const provider = () => {
    const p = ctx.channels.provider<SimulatorProvider>("simulator");
    if (!p) throw notFound();
    return p;
  };

  /** A simulator connection of the company, or 404 (ERR_NO_WAPP_FOUND). */
  const simulatorRow = (row: ConnectionRow | undefined): ConnectionRow => {
    if (!row || row.channel !== "simulator") throw notFound("ERR_NO_WAPP_FOUND");
    return row;
  };
  const companyRow = async (companyId: number, connectionId: number): Promise<ConnectionRow> => {
    const [row] = await db
      .select()
      .from(connections)
      .where(and(eq(connections.id, connectionId), eq(connections.companyId, companyId)))
      .limit(1);
    return simulatorRow(row);
  };

  /** The secret link's key, when the caller comes by the link rather than signed in. */
  const linkKey = (request: FastifyRequest): string | undefined => {
    const key = (request.query as { key?: string } | undefined)?.key;
    return key && !bearerToken(request) ? key : undefined;
  };
  const signedIn = async (request: FastifyRequest) => {
    const actor = await app.auth.authenticate(bearerToken(request));
    request.actor = actor;
    return actor;
  };

  /** The simulator connection the caller may drive: by signed-in company, or by secret link key. */
  const access = async (request: FastifyRequest, connectionId: number): Promise<ConnectionRow> => {
    const key = linkKey(request);
    if (key) {
      const [row] = await db.select().from(connections).where(eq(connections.id, connectionId)).limit(1);
      const expected = row ? Buffer.from(simulatorKey(ctx.config.jwtSecret, row)) : Buffer.alloc(0);
      const given = Buffer.from(key);
      if (!row || expected.length !== given.length || !timingSafeEqual(expected, given)) throw notFound("ERR_NO_WAPP_FOUND");
      return simulatorRow(row);
    }
    return companyRow((await signedIn(request)).companyId, connectionId);
  };

  /**
   * The customer-message route's access (issue 20: it ran a read of the connection's row for every message). A
   * signed-in caller whose company's simulator session of this connection runs connected in this process has its
   * connection proven by that session (the channel manager keys its sessions by company, and ends one before its
   * connection's row is deleted: `forget`): nothing to read. Any other case reads the row, as `access` does.
   */
  const sendAccess = async (request: FastifyRequest, connectionId: number): Promise<ConnectionRef> => {
    if (linkKey(request)) return access(request, connectionId);
    const ref = { id: connectionId, companyId: (await signedIn(request)).companyId };
    return localSession(ref)?.status === "connected" ? ref : companyRow(ref.companyId, connectionId);
  };

  /** The connection's session in this process, in whatever state, or null. */
  const localSession = (row: ConnectionRef): SimulatorSession | null => {
    try {
      const session = ctx.channels.session(row.companyId, row.id);
      return session instanceof SimulatorSession ? session : null;
    } catch {
      return null;
    }
  };

  /** The live session, which only exists in the process that owns the connection. */
  const live = (row: ConnectionRef): SimulatorSession => {
    try {
      const session = ctx.channels.session(row.companyId, row.id);
      if (session instanceof SimulatorSession && session.status === "connected") return session;
    } catch {
      /* mapped below */
    }
    throw new AppError("ERR_WAPP_NOT_INITIALIZED", 400);
  };

  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof SimulatorError) throw new AppError(err.code, err.code === "ERR_SIMULATOR_NO_MESSAGE" ? 404 : 400);
      if (err instanceof ChannelError)
        throw new AppError(err.code === "INVALID_NUMBER" ? "ERR_WAPP_INVALID_CONTACT" : "ERR_WAPP_NOT_INITIALIZED", 400);
      throw err;
    }
  };

  /**
   * When another process runs the connection, runs this call there and answers with its response (true);
   * false when it is to be served here.
   */
  const relay = sessionRelayOf(ctx);
  const onOwner = async (request: FastifyRequest, reply: FastifyReply, row: ConnectionRef): Promise<boolean> => {
    if (request.headers[RELAYED] || ctx.channels.isLocal(row.id) || !(await relay.ownedElsewhere(row.id))) return false;
    const headers: Record<string, string> = {};
    for (const name of CALL_HEADERS) {
      const value = request.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    if (request.body === undefined) delete headers["content-type"];
    const payload: RelayedCall = {
      method: request.method as RelayedCall["method"],
      url: request.url,
      headers,
      ...(request.body !== undefined && { body: request.body }),
    };
    let answer: RelayedAnswer;
    try {
      answer = (await relay.call({ kind: "call", route: "simulator", companyId: row.companyId, connectionId: row.id, payload })) as RelayedAnswer;
    } catch {
      throw new AppError("ERR_WAPP_NOT_INITIALIZED", 400);
    }
    reply.status(answer.status).headers(answer.headers);
    await reply.send(Buffer.from(answer.body, "base64"));
    return true;
  };
  const stopRelay = relay.handle("simulator", async ({ payload }) => {
    const call = payload as RelayedCall;
    const res = await app.inject({
      method: call.method,
      url: call.url,
      headers: { ...call.headers, [RELAYED]: "1" },
      ...(call.body !== undefined && { payload: JSON.stringify(call.body) }),
    });
    const headers: Record<string, string> = {};
    for (const name of ANSWER_HEADERS) {
      const value = res.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    return { status: res.statusCode, headers, body: res.rawPayload.toString("base64") } satisfies RelayedAnswer;
  });
  app.addHook("onClose", async () => stopRelay());

  const phones = (row: ConnectionRow): SimulatorPhoneDTO[] => [...provider().phoneBook(row.id).phones.values()].map(presentPhone);

  app.get("/simulator/connections", { preHandler: app.authenticate, schema: { tags } }, async (request) => {
    const actor = actorOf(request);
    const rows = await db
      .select({ id: connections.id, name: connections.name, status: connections.status, qrcode: connections.qrcode })
      .from(connections)
      .where(and(eq(connections.companyId, actor.companyId), eq(connections.channel, "simulator")))
      .orderBy(connections.name);
    // The pairing code pairs the company's number: admins only (issue 11).
    return rows.map((r) => ({ ...r, qrcode: isAdmin(actor) ? r.qrcode : null, status: r.status as ConnectionStatus }));
  });

  app.get(
    "/simulator/:connectionId",
    { schema: { params: simulatorConnectionParams, querystring: simulatorKeyQuery, tags } },
    async (request, reply): Promise<SimulatorStateDTO | FastifyReply> => {
      const row = await access(request, request.params.connectionId);
      if (await onOwner(request, reply, row)) return reply;
      // Attendants and link holders play customers; only an admin sees (and so can scan) the pairing code.
      const showCode = !!request.actor && isAdmin(request.actor);
      return {
        connection: { id: row.id, name: row.name, status: row.status as ConnectionStatus, qrcode: showCode ? row.qrcode : "" },
        live: ctx.channels.isLocal(row.id),
        paired: await provider().isPaired(row.companyId, row.id),
        queued: provider().phoneBook(row.id).held.length,
        phones: phones(row),
      };
    },
  );

  // Only a signed-in admin may hand out the phone link (its level is checked before any lookup).
  app.get(
    "/simulator/:connectionId/link",
    { preHandler: app.authenticate, schema: { params: simulatorConnectionParams, tags } },
    async (request): Promise<SimulatorLinkDTO> => {
      const row = await access(request, request.params.connectionId);
      requireAdmin(actorOf(request));
      const key = simulatorKey(ctx.config.jwtSecret, row);
      return { key, url: `/simulator/${row.id}?key=${encodeURIComponent(key)}` };
    },
  );

  app.post(
    "/simulator/:connectionId/scan",
    { schema: { params: simulatorConnectionParams, querystring: simulatorKeyQuery, body: simulatorScanBody, tags } },
    async (request) => {
      const row = await access(request, request.params.connectionId);
      // Pairing a number is an admin's act, never an attendant's or a link holder's (issue 11).
      if (!request.actor || !isAdmin(request.actor)) throw forbidden();
      const code = request.body.code;
      return guard(async () => {
        let local: SimulatorSession | undefined;
        try {
          const s = ctx.channels.session(row.companyId, row.id);
          if (s instanceof SimulatorSession) local = s;
        } catch {
          /* not here */
        }
        if (local) await local.pair(code);
        else {
          // The session runs in another process (or nowhere): check the code shown, store the pairing, restart it.
          if (row.status !== "qrcode" || !row.qrcode || row.qrcode !== code) throw new SimulatorError("ERR_SIMULATOR_INVALID_CODE");
          await db
            .insert(connectionAuth)
            .values({ connectionId: row.id, companyId: row.companyId, creds: { paired: true } })
            .onConflictDoUpdate({ target: connectionAuth.connectionId, set: { creds: { paired: true }, updatedAt: new Date() } });
          await ctx.channels.command(row.companyId, row.id, "start");
        }
        const [fresh] = await db
          .select({ status: connections.status })
          .from(connections)
          .where(and(eq(connections.companyId, row.companyId), eq(connections.id, row.id)));
        return { status: (fresh?.status ?? row.status) as ConnectionStatus };
      });
    },
  );

  app.get(
    "/simulator/:connectionId/phones",
    { schema: { params: simulatorConnectionParams, querystring: simulatorKeyQuery, tags } },
    async (request, reply) => {
      const row = await access(request, request.params.connectionId);
      if (await onOwner(request, reply, row)) return reply;
      return phones(row);
    },
  );

  app.post(
    "/simulator/:connectionId/phones",
    { schema: { params: simulatorConnectionParams, querystring: simulatorKeyQuery, body: simulatorPhoneBody, tags } },
    async (request, reply) => {
      const row = await access(request, request.params.connectionId);
      if (await onOwner(request, reply, row)) return reply;
      const { number, name } = request.body;
      const phone = await guard(async () => {
        const session = localSession(row);
        if (session?.status === "connected") return session.addPhone(number, name);
        // A linked connection that is down still takes new phones, so they can write and be held (issue 21).
        if (session?.status !== "qrcode" && (await provider().isPaired(row.companyId, row.id))) return provider().addPhone(row.id, number, name);
        return live(row).addPhone(number, name);
      });
      return reply.status(201).send(presentPhone(phone));
    },
  );

  app.get(
    "/simulator/:connectionId/phones/:number/messages",
    { schema: { params: simulatorPhoneParams, querystring: simulatorKeyQuery, tags } },
    async (request, reply) => {
      const row = await access(request, request.params.connectionId);
      if (await onOwner(request, reply, row)) return reply;
      const phone = provider().phoneBook(row.id).phones.get(request.params.number);
      return (phone?.messages ?? []).map(presentMessage);
    },
  );

  app.post(
    "/simulator/:connectionId/phones/:number/messages",
    { schema: { params: simulatorPhoneParams, querystring: simulatorKeyQuery, body: simulatorInboundBody, tags } },
    async (request, reply) => {
      const row = await sendAccess(request, request.params.connectionId);
      if (await onOwner(request, reply, row)) return reply;
      const body = request.body;
      const input: CustomerMessage =
        "data" in body || body.type === "image" || body.type === "video" || body.type === "document" || body.type === "audio"
          ? ({ ...body, data: "data" in body && body.data ? Buffer.from(body.data, "base64") : undefined } as CustomerMessage)
          : (body as CustomerMessage);
      const number = request.params.number;
      // Connected here: delivered now (201). Linked but down — dropped, taken over, or run by no process — it
      // waits on the phone for the next CONNECTED (202, `queued`; issue 21). Not linked: refused.
      const paired = localSession(row)?.status === "connected" || (await provider().isPaired(row.companyId, row.id));
      const session = localSession(row);
      if (session?.status === "connected") {
        const message = await guard(() => session.customerSend(number, input, body.name));
        return reply.status(201).send(presentMessage(message));
      }
      if (!paired || session?.status === "qrcode") throw new AppError("ERR_WAPP_NOT_INITIALIZED", 400);
      const held = await guard(async () => provider().hold(row.companyId, row.id, number, input, body.name));
      return reply.status(202).send(presentMessage(held));
    },
  );

  app.delete(
    "/simulator/:connectionId/phones/:number/messages/:messageId",
    { schema: { params: simulatorMessageParams, querystring: simulatorKeyQuery, tags } },
    async (request, reply) => {
      const row = await access(request, request.params.connectionId);
      if (await onOwner(request, reply, row)) return reply;
      await guard(() => live(row).customerDelete(request.params.number, request.params.messageId));
      return reply.status(204).send();
    },
  );

  app.post(
    "/simulator/:connectionId/phones/:number/messages/:messageId/ack",
    { schema: { params: simulatorMessageParams, querystring: simulatorKeyQuery, body: simulatorAckBody, tags } },
    async (request, reply) => {
      const row = await access(request, request.params.connectionId);
      if (await onOwner(request, reply, row)) return reply;
      await guard(() => live(row).customerAck(request.params.number, request.params.messageId, request.body.ack));
      return reply.status(204).send();
    },
  );

  // Issue 21: the customer reacts to a message (theirs or the company's) and edits one of their texts.
  app.post(
    "/simulator/:connectionId/phones/:number/messages/:messageId/reaction",
    { schema: { params: simulatorMessageParams, querystring: simulatorKeyQuery, body: simulatorReactionBody, tags } },
    async (request, reply) => {
      const row = await access(request, request.params.connectionId);
      if (await onOwner(request, reply, row)) return reply;
      const message = await guard(() => live(row).customerReact(request.params.number, request.params.messageId, request.body.emoji));
      return presentMessage(message);
    },
  );

  app.post(
    "/simulator/:connectionId/phones/:number/messages/:messageId/edit",
    { schema: { params: simulatorMessageParams, querystring: simulatorKeyQuery, body: simulatorEditBody, tags } },
    async (request, reply) => {
      const row = await access(request, request.params.connectionId);
      if (await onOwner(request, reply, row)) return reply;
      const message = await guard(() => live(row).customerEdit(request.params.number, request.params.messageId, request.body.body));
      return presentMessage(message);
    },
  );

  app.get(
    "/simulator/:connectionId/phones/:number/messages/:messageId/media",
    { schema: { params: simulatorMessageParams, querystring: simulatorKeyQuery, tags } },
    async (request, reply) => {
      const row = await access(request, request.params.connectionId);
      if (await onOwner(request, reply, row)) return reply;
      const message = provider()
        .phoneBook(row.id)
        .phones.get(request.params.number)
        ?.messages.find((m) => m.id === request.params.messageId);
      if (!message?.media) throw new AppError("ERR_SIMULATOR_NO_MESSAGE", 404);
      // The type the bytes are, not the one the customer declared (an "image/png" that is HTML must not render).
      const sniffed = sniffMimeType(message.media.data);
      const declared = message.media.mimeType;
      const type = sniffed !== "application/octet-stream" && declared.split("/")[0] === sniffed.split("/")[0] ? declared : sniffed;
      return reply
        .header("Content-Type", type)
        .header("Content-Security-Policy", "sandbox; default-src 'none'")
        .header("Content-Disposition", "attachment")
        .header("X-Content-Type-Options", "nosniff")
        .header("Cache-Control", "private, no-store")
        .send(message.media.data);
    },
  );

  app.post(
    "/simulator/:connectionId/phones/:number/calls",
    { schema: { params: simulatorPhoneParams, querystring: simulatorKeyQuery, body: simulatorCallBody, tags } },
    async (request, reply) => {
      const row = await access(request, request.params.connectionId);
      if (await onOwner(request, reply, row)) return reply;
      const call = await guard(() => live(row).customerCall(request.params.number, request.body?.isVideo ?? false));
      return reply.status(201).send(presentMessage(call));
    },
  );

  // Issue 21: groups, and the connection dropping and coming back (extraRoutes.ts).
  registerSimulatorExtraRoutes(app, { access, onOwner, live, guard, provider, presentMessage });
}
