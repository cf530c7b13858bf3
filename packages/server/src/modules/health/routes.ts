import type { App } from "../../app";

export function registerHealthRoutes(app: App): void {
  app.get("/health", { schema: { tags: ["health"] } }, async (_request, reply) => {
    try {
      await app.ctx.database.ping();
      return { status: "ok" };
    } catch {
      return reply.status(503).send({ status: "unavailable" });
    }
  });
}
