import { existsSync } from "node:fs";
import path from "node:path";
import cookie from "@fastify/cookie";
import multipart from "@fastify/multipart";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  type preHandlerAsyncHookHandler,
  type RawServerDefault,
} from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Server as HttpServer, IncomingMessage, ServerResponse } from "node:http";
import type { Server as SocketServer } from "socket.io";
import type { AppContext } from "./context";
import { startOutboxPruning } from "./events/prune";
import { enforceAccess } from "./http/access";
import { authenticate } from "./http/auth";
import { closeBackend, createBackendServer, registerBackendCors, rewriteBackendUrl } from "./http/backend";
import { registerErrorHandling } from "./http/errors";
import { registerInputGuard } from "./http/inputGuard";
import { registerMetrics } from "./http/metrics";
import { registerCompression, REVALIDATE, webAppStaticOptions } from "./http/staticDelivery";
import { openApiOptions } from "./http/openapi";
import { registerResponseSchemas } from "./http/responses";
import { registerSecurityHeaders } from "./http/securityHeaders";
import { trackMultipartRoutes, type MultipartForm } from "./http/uploads";
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
  /** Routes that read multipart/form-data, with their declared forms (http/uploads.ts). */
  multipartRoutes: ReadonlyMap<string, MultipartForm>;
  /** The backend listener's server (BACKEND_PORT; http/backend.ts), not listening until startServer; null when off. */
  backendServer: HttpServer | null;
};

const BODY_LIMIT = 1024 * 1024;

/** Builds the whole server (REST under /api, Socket.IO, web app) without listening: tests inject into it. */
export async function buildApp(ctx: AppContext): Promise<App> {
  const fastify = Fastify({
    loggerInstance: ctx.log,
    bodyLimit: BODY_LIMIT,
    // X-Forwarded-For is believed for exactly TRUST_PROXY hops (0: not at all), so a client cannot pick the
    // address the login and sign-up limits count (issue 11).
    // (A hop count given to Fastify as a number trusts nothing; this function trusts the nearest hops.)
    trustProxy: ctx.config.trustProxy > 0 ? (_address: string, hop: number) => hop < ctx.config.trustProxy : false,
    // The backend listener's root paths reach the /api routes (http/backend.ts); main-listener URLs are untouched.
    rewriteUrl: rewriteBackendUrl,
    // Spec §7 writes some lists with a trailing slash (GET /tags/, /users/, /contacts/?…): same route either way.
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  const validateRequest: typeof validatorCompiler = (route) => {
    const validate = validatorCompiler(route);
    // The spec's client writes unset filters as `?date=&status=`: an empty query value means "not given".
    return route.httpPart === "querystring" ? (data: unknown) => validate(withoutEmptyValues(data)) : validate;
  };
  fastify.setValidatorCompiler(validateRequest);

  const app = fastify as unknown as App;
  // Response schemas document the API and are checked against every answer in tests, never refused in production.
  registerResponseSchemas(app, ctx.config.checkResponseSchemas);
  app.decorate("multipartRoutes", trackMultipartRoutes(app));
  app.decorate("ctx", ctx);
  const auth = new AuthService(ctx);
  app.decorate("auth", auth);
  app.decorate("users", new UsersService(ctx, auth));
  const authenticateHook = authenticate(auth);
  const checkAccess = async (request: FastifyRequest) => enforceAccess(request);
  app.decorate("authenticate", authenticateHook);
  app.decorateRequest("actor", null);
  // Routes declare `preHandler: app.authenticate`; it runs at onRequest instead, before validation and body
  // parsing, so an anonymous caller learns nothing about a route's schema and cannot stream an upload.
  fastify.addHook("onRoute", (route) => {
    const handlers = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    if (!handlers.includes(authenticateHook)) return;
    route.preHandler = handlers.filter((handler) => handler !== authenticateHook);
    const onRequest = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [...onRequest, authenticateHook, checkAccess];
  });

  registerErrorHandling(app);
  registerInputGuard(app);
  registerSecurityHeaders(app);
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: 64 * 1024 * 1024, files: 10 } });
  await registerCompression(app);
  await app.register(swagger, openApiOptions());
  // The route table is a map for attackers too: not served in production unless API_DOCS=true (issue 11).
  if (ctx.config.apiDocs) await app.register(swaggerUi, { routePrefix: "/api/docs" });

  if (ctx.config.backend) registerBackendCors(app, ctx.config.backend.corsOrigins);
  // Before the routes: its timing hook applies to the routes registered after it.
  registerMetrics(app);

  await app.register(
    async (api) => {
      const scoped = api as unknown as App;
      Object.assign(scoped, { ctx, auth: app.auth, users: app.users, authenticate: app.authenticate });
      tolerateTrailingSlashTwins(scoped);
      for (const module of modules) module.routes?.(scoped);
    },
    { prefix: "/api" },
  );

  registerWebApp(app, ctx.config.webDist);
  const io = await attachRealtime(app.server, ctx, auth);
  app.decorate("io", io);
  const backendServer = ctx.config.backend ? createBackendServer(app, io) : null;
  app.decorate("backendServer", backendServer);
  app.addHook("onClose", async () => {
    await new Promise<void>((resolve) => io.close(() => resolve()));
    if (backendServer) await closeBackend(backendServer);
  });
  startOutboxPruning(ctx);
  const teardowns = modules.flatMap((m) => {
    const stop = m.start?.(ctx);
    return stop ? [stop] : [];
  });
  // Jobs start once every module has registered its handlers, and stop (finishing running ones) on close.
  app.addHook("onReady", async () => {
    await ctx.events.start();
    if (ctx.database.pool) await ctx.jobs.start();
    else ctx.log.warn("no PostgreSQL pool: durable jobs are disabled");
  });
  app.addHook("onClose", async () => {
    for (const stop of teardowns) stop();
    await ctx.jobs.stop();
    await ctx.events.stop();
    await ctx.notifications.stop();
  });
  return app;
}

function withoutEmptyValues(data: unknown): unknown {
  if (!data || typeof data !== "object") return data;
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== ""));
}

/**
 * With ignoreTrailingSlash, "/tags" and "/tags/" are one route, and registering both fails at boot.
 * Modules written before (or copying) the `for (const url of ["/tags/", "/tags"])` pattern keep working:
 * the twin that differs only by its trailing slash is skipped. A true duplicate still fails.
 */
function tolerateTrailingSlashTwins(instance: App): void {
  const seen = new Map<string, string>();
  for (const method of ["get", "head", "post", "put", "delete", "patch", "options"] as const) {
    const original = instance[method] as unknown as (this: App, url: unknown, ...rest: unknown[]) => App;
    (instance as unknown as Record<string, unknown>)[method] = function (this: App, url: unknown, ...rest: unknown[]) {
      if (typeof url === "string") {
        const key = `${method} ${this.prefix}${url.length > 1 ? url.replace(/\/+$/, "") : url}`;
        const previous = seen.get(key);
        if (previous !== undefined && previous !== url) return this;
        seen.set(key, url);
      }
      return original.call(this, url, ...rest);
    };
  }
}

/** Every non-API GET serves the single-page app (its router owns /login, /tickets/:id…). */
function registerWebApp(app: App, webDist: string): void {
  const built = existsSync(path.join(webDist, "index.html"));
  if (built) app.register(fastifyStatic, webAppStaticOptions(webDist));
  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (url.startsWith("/api/") || url === "/api" || url.startsWith("/socket.io")) return reply.status(404).send({ error: "ERR_NOT_FOUND" });
    if (request.method !== "GET" && request.method !== "HEAD") return reply.status(404).send({ error: "ERR_NOT_FOUND" });
    if (!built) return reply.status(503).type("text/plain").send("The web app is not built yet: run `npm run build`.");
    return reply.header("Cache-Control", REVALIDATE).sendFile("index.html");
  });
}
