import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { io, type Socket } from "socket.io-client";
import type { App } from "../app";
import { BackendInjectedRequest, listenBackend } from "../http/backend";

/** The two mounts of the one route table: the web app's `/api` and the backend listener's root paths. */
export type Mount = "api" | "backend";
export const MOUNTS: readonly Mount[] = ["api", "backend"];

/** The path a client of `mount` writes for the spec's `path` (the Send API and media URLs keep `/api`). */
export function mountPath(mount: Mount, path: string): string {
  if (mount === "backend" || path === "/api" || path.startsWith("/api/")) return path;
  return `/api${path}`;
}

/** In-process request through `mount` (the backend one as if it came in through BACKEND_PORT). */
export function injectOn(app: App, mount: Mount, options: InjectOptions & { url: string }): Promise<LightMyRequestResponse> {
  if (mount === "api") return app.inject(options);
  if (!app.backendServer) throw new Error("the backend listener is off: build the test app with BACKEND_PORT");
  return app.inject({ ...options, Request: BackendInjectedRequest });
}

/** Starts the backend listener on a free loopback port (once) and returns its base URL. */
export async function backendUrl(app: App): Promise<string> {
  const server = app.backendServer;
  if (!server) throw new Error("the backend listener is off: build the test app with BACKEND_PORT");
  if (!server.listening) await listenBackend(server, 0, "127.0.0.1");
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

/** A Socket.IO client the way spec §7's clients open it: token in the query, websocket transport. */
export async function connectQuerySocket(url: string, token: string, transports: ("websocket" | "polling")[] = ["websocket"]): Promise<Socket> {
  const socket = io(url, { path: "/socket.io", query: { token }, transports, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once("ready", () => resolve());
    socket.once("connect_error", (err) => {
      socket.close();
      reject(err);
    });
  });
  return socket;
}
