/**
 * The one test setup for the Baileys provider over a scripted stand-in for Baileys' socket (./scriptedSocket.ts,
 * or a suite's own smaller one), shared by baileys.test.ts, reactionsEdits.test.ts, reconnect.test.ts and the
 * provider contract suite (baileys.contract.test.ts): a provider whose sockets the test makes, an app with it
 * registered for a company without a connection limit, and a connection created through the API and paired.
 */
import { eq } from "drizzle-orm";
import pino from "pino";
import { expect } from "vitest";
import type { ConnectionDTO } from "@balcao/shared";
import type { Db } from "../../db/client";
import { connections, plans } from "../../db/schema";
import { buildTenant } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { BaileysProvider, type BaileysLib } from "./provider";

/** What the setup needs of a scripted socket: Baileys hands it its config, and `open()` pairs it. */
export interface ScriptedSocketLike {
  open(): void;
}

export type ScriptedSocketClass<S> = new (config: Record<string, unknown>) => S;

/**
 * A Baileys provider whose every socket is a new `Socket`, handed to `made` (reconnects back off 20–80 ms; no
 * ffmpeg, so voice notes use the built-in converter). `downloadMediaMessage` stands in for WhatsApp's media servers.
 */
export function scriptedBaileysProvider<S>(
  db: Db,
  Socket: ScriptedSocketClass<S>,
  made: (socket: S) => void,
  downloadMediaMessage?: (message: { key: { id: string } }) => Promise<Buffer>,
): BaileysProvider {
  return new BaileysProvider({
    db,
    logger: pino({ level: "silent" }),
    reconnectBaseMs: 20,
    reconnectMaxMs: 80,
    ffmpegPath: "/nonexistent/ffmpeg",
    overrides: {
      makeWASocket: ((config: Record<string, unknown>) => {
        const socket = new Socket(config);
        made(socket);
        return socket;
      }) as unknown as BaileysLib["makeWASocket"],
      ...(downloadMediaMessage && { downloadMediaMessage: downloadMediaMessage as unknown as BaileysLib["downloadMediaMessage"] }),
    },
  });
}

export interface ScriptedBaileysAppOptions<S> {
  Socket: ScriptedSocketClass<S>;
  /** createTestApp's environment besides CHANNEL_DEFAULT=baileys. */
  env?: Record<string, string>;
  downloadMediaMessage?: (message: { key: { id: string } }) => Promise<Buffer>;
  /** Connections are named `${prefix} ${n}`. */
  namePrefix: string;
  /** How long `newConnection` and `connected` wait for the socket and the status. */
  pollTimeoutMs?: number;
}

export interface ScriptedBaileysApp<S> {
  t: TestApp;
  tenant: Awaited<ReturnType<typeof buildTenant>>;
  /** Every socket the provider made, in order; a suite may empty it between tests (`sockets.length = 0`). */
  sockets: S[];
  /** The newest socket. */
  last(): S;
  /** The connection's status in the database. */
  statusOf(connectionId: number): Promise<string>;
  /** A baileys connection created through the API (as the company's admin), once its socket is made. */
  newConnection(): Promise<ConnectionDTO>;
  /** A new connection whose socket opened: CONNECTED. */
  connected(): Promise<ConnectionDTO>;
  /** For afterEach: sessions left reconnecting (backoff) must not open sockets during the next test. */
  stopSessions(): Promise<void>;
}

/** The app with the scripted Baileys provider registered, and a company that may create any number of connections. */
export async function startScriptedBaileysApp<S extends ScriptedSocketLike>(options: ScriptedBaileysAppOptions<S>): Promise<ScriptedBaileysApp<S>> {
  const t = await createTestApp({ CHANNEL_DEFAULT: "baileys", ...options.env });
  const tenant = await buildTenant(t.app);
  // These suites create many connections in one company: no plan limit.
  await t.ctx.database.db.update(plans).set({ connections: 0 }).where(eq(plans.id, tenant.company.planId!));
  const sockets: S[] = [];
  t.ctx.channels.registerProvider(scriptedBaileysProvider(t.ctx.database.db, options.Socket, (s) => sockets.push(s), options.downloadMediaMessage));

  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: options.pollTimeoutMs ?? 10_000, interval: 20 });
  const last = () => sockets[sockets.length - 1]!;
  const statusOf = async (connectionId: number) =>
    (await t.ctx.database.db.select({ status: connections.status }).from(connections).where(eq(connections.id, connectionId)))[0]!.status;
  let seq = 0;

  const newConnection = async (): Promise<ConnectionDTO> => {
    const before = sockets.length;
    const res = await t.app.inject({
      method: "POST",
      url: "/api/whatsapp",
      headers: tenant.adminSession.headers,
      payload: { name: `${options.namePrefix} ${++seq}`, channel: "baileys" },
    });
    expect(res.statusCode, res.body).toBe(201);
    await poll(() => sockets.length).toBe(before + 1);
    return res.json() as ConnectionDTO;
  };

  return {
    t,
    tenant,
    sockets,
    last,
    statusOf,
    newConnection,
    async connected() {
      const c = await newConnection();
      last().open();
      await poll(() => statusOf(c.id)).toBe("CONNECTED");
      return c;
    },
    async stopSessions() {
      for (const id of t.ctx.channels.localConnectionIds()) await t.ctx.channels.command(tenant.company.id, id, "stop");
    },
  };
}
