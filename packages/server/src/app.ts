import { existsSync } from "node:fs";
import path from "node:path";
import cookie from "@fastify/cookie";
import multipart from "@fastify/multipart";
import helmet from "@fastify/helmet";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type preHandlerAsyncHookHandler, type RawServerDefault } from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server as SocketServer } from "socket.io";
import type { AppContext } from "./context";
import { authenticate } from "./http/auth";
import { registerErrorHandling } from "./http/errors";
import { AuthService } from "./modules/auth/service";
import { modules } from "./modules";
import { UsersService } from "./modules/users/service";
import { attachRealtime } from "./realtime/server";

/** The Fastify instance every route module receives: zod-typed, with the app's services attached. */
export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider> & {
  ctx: AppContext;
  auth: AuthService;
  users: UsersService;
  authenticate: preHandlerAsyncHookHandler;
  io: SocketServer;
};

const BODY_LIMIT = 1024 * 1024;

/** Builds the whole server (REST under /api, Socket.IO, web app) without listening: tests inject into it. */
export async function buildApp(ctx: AppContext): Promise<App> {
  const fastify = Fastify({
    logger: { level: ctx.config.logLevel, redact: ["req.headers.authorization", "req.headers.cookie"] },
    bodyLimit: BODY_LIMIT,
    trustProxy: ctx.config.env === "production",
  }).withTypeProvider<ZodTypeProvider>();
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);

  const app = fastify as unknown as App;
  app.decorate("ctx", ctx);
  const auth = new AuthService(ctx);
  app.decorate("auth", auth);
  app.decorate("users", new UsersService(ctx, auth));
  app.decorate("authenticate", authenticate(auth));
  app.decorateRequest("actor", null);

  registerErrorHandling(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI (emotion) injects <style> tags at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        mediaSrc: ["'self'", "blob:"],
        connectSrc: ["'self'", "ws:", "wss:"],
        frameSrc: ["https://www.youtube.com", "https://www.youtube-nocookie.com"],
        objectSrc: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: 64 * 1024 * 1024, files: 10 } });
  await app.register(swagger, {
    openapi: { info: { title: "Balcão API", version: "0.1.0" }, servers: [{ url: "/api" }] },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });

  await app.register(
    async (api) => {
      const scoped = api as unknown as App;
      Object.assign(scoped, { ctx, auth: app.auth, users: app.users, authenticate: app.authenticate });
      for (const module of modules) module.routes?.(scoped);
    },
    { prefix: "/api" },
  );

  registerWebApp(app, ctx.config.webDist);
  const io = await attachRealtime(app.server, ctx, auth);
  app.decorate("io", io);
  app.addHook("onClose", async () => {
    await new Promise<void>((resolve) => io.close(() => resolve()));
  });
  return app;
}

/** Every non-API GET serves the single-page app (its router owns /login, /tickets/:id…). */
function registerWebApp(app: App, webDist: string): void {
  const built = existsSync(path.join(webDist, "index.html"));
  if (built) app.register(fastifyStatic, { root: webDist, wildcard: false, index: false });
  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (url.startsWith("/api/") || url === "/api" || url.startsWith("/socket.io")) return reply.status(404).send({ error: "ERR_NOT_FOUND" });
    if (request.method !== "GET" && request.method !== "HEAD") return reply.status(404).send({ error: "ERR_NOT_FOUND" });
    if (!built) return reply.status(503).type("text/plain").send("The web app is not built yet: run `npm run build`.");
    return reply.header("Cache-Control", "no-cache").sendFile("index.html");
  });
}
