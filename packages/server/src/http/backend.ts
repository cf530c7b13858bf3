import { createServer, IncomingMessage, type Server as HttpServer } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Server as SocketServer } from "socket.io";

/**
 * The backend listener (issue 25). Spec §7 says every call goes "to the backend host" at root paths
 * (`POST /auth/login`, `GET /tickets`…); our web app calls the same routes under `/api` on its own origin.
 * With BACKEND_PORT set, a second HTTP server in the same process feeds the SAME Fastify instance: its
 * requests are marked, their root paths are rewritten to `/api/...` before routing (Fastify's rewriteUrl),
 * and so they meet the one route table with the same hooks, validation, permissions and rate limiters —
 * a second mount, not a copy. Paths that already start with `/api/` pass unchanged (the Send API
 * `POST /api/messages/send` as the spec writes it, and the `/api/media/...` URLs our messages carry).
 * Socket.IO requests go to the one engine, so both listeners share rooms and emits.
 */

export const API_PREFIX = "/api";
const SOCKET_PATH = "/socket.io";

/** Came in through the backend listener (or an injection that stands for it). */
const BACKEND = Symbol("balcao.backendListener");
/** Its path was a root path of spec §7, served as `/api` + path. */
const ROOT_MOUNT = Symbol("balcao.rootMount");

type Marked = IncomingMessage & { [BACKEND]?: true; [ROOT_MOUNT]?: true };

export function isBackendRequest(req: IncomingMessage): boolean {
  return (req as Marked)[BACKEND] === true;
}

/** The prefix this request's caller sees the API under: "" on the backend listener's root paths, else "/api". */
export function mountPrefix(request: FastifyRequest): "" | typeof API_PREFIX {
  return (request.raw as Marked)[ROOT_MOUNT] ? "" : API_PREFIX;
}

const hasPrefix = (url: string, prefix: string) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);

/** Fastify `rewriteUrl`: main-listener URLs are untouched; backend root paths become `/api` + path. */
export function rewriteBackendUrl(req: IncomingMessage): string {
  const url = req.url ?? "/";
  if (!isBackendRequest(req) || hasPrefix(url, API_PREFIX)) return url;
  (req as Marked)[ROOT_MOUNT] = true;
  return API_PREFIX + (url.startsWith("/") ? url : `/${url}`);
}

/**
 * CORS for the configured web origins, on backend-listener requests only (the main listener is
 * same-origin and sends no CORS headers). Credentials are allowed, so origins are exact, never "*".
 * Registered before the routes so it also answers preflights, 401s and 404s.
 */
export function registerBackendCors(app: FastifyInstance, origins: readonly string[]): void {
  const allowed = new Set(origins);
  app.addHook("onRequest", async (request, reply) => {
    if (!isBackendRequest(request.raw)) return;
    const origin = request.headers.origin;
    if (!origin || !allowed.has(origin)) return;
    reply.header("Access-Control-Allow-Origin", origin);
    reply.header("Access-Control-Allow-Credentials", "true");
    reply.header("Access-Control-Expose-Headers", "Retry-After, Content-Disposition");
    reply.header("Vary", "Origin");
    if (request.method === "OPTIONS" && request.headers["access-control-request-method"]) {
      reply.header("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, PATCH, DELETE");
      reply.header("Access-Control-Allow-Headers", request.headers["access-control-request-headers"] ?? "authorization, content-type");
      reply.header("Access-Control-Max-Age", "600");
      return reply.status(204).send();
    }
  });
}

/** The backend listener's HTTP server (not listening yet): REST through the shared Fastify, /socket.io to the shared engine. */
export function createBackendServer(app: FastifyInstance, io: SocketServer): HttpServer {
  const server = createServer();
  server.keepAliveTimeout = app.server.keepAliveTimeout;
  const isSocketPath = (url: string | undefined) => hasPrefix(url ?? "", SOCKET_PATH);
  server.on("request", (req, res) => {
    (req as Marked)[BACKEND] = true;
    if (isSocketPath(req.url)) io.engine.handleRequest(req, res);
    else app.routing(req, res);
  });
  server.on("upgrade", (req, socket, head) => {
    (req as Marked)[BACKEND] = true;
    if (isSocketPath(req.url)) io.engine.handleUpgrade(req, socket, head);
    else socket.destroy();
  });
  return server;
}

export async function listenBackend(server: HttpServer, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === "object" && address ? address.port : port;
}

export async function closeBackend(server: HttpServer): Promise<void> {
  if (!server.listening) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * The request class an in-process injection passes (`app.inject({ ..., Request: BackendInjectedRequest })`)
 * to stand for the backend listener: light-my-request builds the request on this prototype, which carries
 * the mark. Test support; production requests are marked by `createBackendServer`.
 */
export class BackendInjectedRequest extends IncomingMessage {}
(BackendInjectedRequest.prototype as Marked)[BACKEND] = true;

/** Socket handshake token in the query (`io(url, { query: { token } })`), as the spec's clients send it. */
export function queryToken(query: Record<string, unknown>): string | undefined {
  const token = query.token;
  return typeof token === "string" && token !== "" ? token : undefined;
}
