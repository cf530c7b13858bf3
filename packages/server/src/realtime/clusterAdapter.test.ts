/**
 * The Socket.IO adapter between server processes (clusterAdapter.ts), on the test's own database: two Socket.IO
 * servers in this process stand for two server processes sharing DATABASE_URL. Their channels are their own, so
 * the test app's Socket.IO server (on the same database) is not one of their cluster.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "socket.io";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { statementsOf } from "../test/statementCount";
import { createTestApp, type TestApp } from "../test/testApp";
import { clusterAdapter } from "./clusterAdapter";

let t: TestApp;
const servers: Server[] = [];
const clients: Socket[] = [];
beforeAll(async () => {
  t = await createTestApp();
});
// Per test, so that a retried test (CI) does not start beside the processes of its failed attempt.
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(servers.splice(0).map((io) => io.close()));
});
afterAll(() => t.close());

/** A Socket.IO server on the database's adapter whose every socket joins one room. */
async function node(): Promise<{ io: Server; url: string }> {
  const http = createServer();
  const io = new Server(http);
  servers.push(io);
  io.adapter(clusterAdapter(t.ctx.database.pool, { channelPrefix: "cluster_adapter_test" }));
  io.on("connection", (socket) => void socket.join("company:1"));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return { io, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

async function client(url: string): Promise<Socket> {
  const socket = connect(url, { transports: ["websocket"], reconnection: false });
  clients.push(socket);
  await new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(undefined));
    socket.once("connect_error", reject);
  });
  return socket;
}

const next = (socket: Socket) => new Promise((resolve) => socket.once("news", resolve));

describe("clusterAdapter", () => {
  it("keeps a room emit in the process while it hears of no other, and publishes it once another announces itself", async () => {
    const a = await node();
    const onA = await client(a.url);
    // Alone: the room's socket gets the emit, and no pg_notify is sent.
    const alone = next(onA);
    expect(await statementsOf(t, () => (a.io.to("company:1").emit("news", 1), alone))).toBe(0);
    expect(await alone).toBe(1);

    // A second process starts: its adapter announces itself, and the first one publishes from then on.
    const b = await node();
    const onB = await client(b.url);
    // Each hears of the other. The second process announces itself on a pool connection while its LISTEN connection
    // is still being set up, so the first may hear of it before it listens: an emit published then would never
    // reach it. That it heard the first one's answer (or its next heartbeat, within 5 s) says it listens.
    await vi.waitFor(
      async () => {
        expect(await a.io.of("/").adapter.serverCount()).toBe(2);
        expect(await b.io.of("/").adapter.serverCount()).toBe(2);
      },
      { timeout: 15_000, interval: 50 },
    );
    const both = Promise.all([next(onA), next(onB)]);
    expect(await statementsOf(t, () => (a.io.to("company:1").emit("news", 2), both))).toBe(1);
    expect(await both).toEqual([2, 2]);
  });
});
