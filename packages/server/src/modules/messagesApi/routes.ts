import { sendApiBody } from "@balcao/shared";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app";
import type { AppContext } from "../../context";
import { bearerToken } from "../../http/auth";
import { readMultipart, sendApiForm } from "../messages/routes";
import type { SendInput } from "../messages/service";
import { IdempotencyStore, idempotencyKeyOf } from "./idempotency";
import { SendApiService } from "./service";

/**
 * `POST /api/messages/send` (spec §7): bearer = a connection's token, JSON `{number, body}` or multipart
 * `number`, `body`, files `medias`. Order: token (401/402) → rate limit (429) → Idempotency-Key (replay or
 * reserve) → connection status (409) → body → send. The same path on the backend listener (docs/decisions.md).
 */
export function registerMessagesApiRoutes(app: App): void {
  const service = new SendApiService(app.ctx, app.auth);
  const keys = new IdempotencyStore(app.ctx);
  /** The key each running request reserved, settled with its response in onSend. */
  const reserved = new WeakMap<FastifyRequest, { companyId: number; id: number }>();

  app.post(
    "/messages/send",
    {
      schema: { tags: ["messages-api"] },
      config: { multipart: sendApiForm(app.ctx.config) },
      // Every answer of a reserved key — success or any error the error handler shaped — is what a replay gets.
      onSend: async (request, reply, payload) => {
        const reservation = reserved.get(request);
        if (!reservation) return payload;
        reserved.delete(request);
        let body: unknown = null;
        try {
          body = typeof payload === "string" ? JSON.parse(payload) : null;
        } catch {
          body = null;
        }
        await keys.settle(reservation.companyId, reservation.id, reply.statusCode, body);
        return payload;
      },
    },
    async (request, reply) => {
      const connection = await service.authenticate(bearerToken(request));
      service.rateLimit(connection);
      const key = idempotencyKeyOf(request.headers["idempotency-key"]);
      if (key) {
        const reservation = await keys.reserve(
          { companyId: connection.companyId, connectionId: connection.id, tokenHash: connection.tokenHash },
          key,
        );
        if (reservation.kind === "replay") return reply.status(reservation.statusCode).header("idempotent-replayed", "true").send(reservation.body);
        reserved.set(request, { companyId: connection.companyId, id: reservation.id });
      }
      service.assertConnected(connection);
      if (!request.isMultipart()) {
        const body = sendApiBody.parse(request.body ?? {});
        return reply.status(200).send(await service.send(connection, { number: body.number, body: body.body }));
      }
      const { input, fields, cleanup } = await readMultipart(request, app.ctx.config);
      try {
        const { number } = sendApiBody.parse({ number: fields.number });
        return reply.status(200).send(await service.send(connection, { number, body: input.body, files: filesOf(input) }));
      } finally {
        // Files moved into the media store are gone from the temporary folder; this removes the rest.
        await cleanup();
      }
    },
  );
}

const filesOf = (input: SendInput) => input.files ?? [];

/** Hourly purge of keys past their 24 hours (one process at a time, through the job runner). */
export function startMessagesApi(ctx: AppContext): void {
  const keys = new IdempotencyStore(ctx);
  ctx.jobs.every("messagesApi.purgeIdempotencyKeys", "17 * * * *", async () => {
    const purged = await keys.purge();
    if (purged) ctx.log.info({ purged }, "send API: expired idempotency keys purged");
  });
}
