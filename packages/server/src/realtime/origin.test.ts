import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant } from "../test/factories";
import { createTestApp, type TestApp } from "../test/testApp";

/** Issue 11: with PUBLIC_URL unset, Socket.IO accepted a handshake from any Origin (any web page). */

let t: TestApp;
let token: string;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  token = (await buildTenant(t.app)).userSession.token;
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  port = typeof address === "object" && address ? address.port : 0;
});
afterAll(() => t.close());

/** "ready", or the connect_error message (the server refused the upgrade or the token). */
function handshake(headers: Record<string, string>): Promise<string> {
  const socket = io(`http://127.0.0.1:${port}`, {
    path: "/socket.io",
    auth: { token },
    transports: ["websocket"],
    reconnection: false,
    extraHeaders: headers,
  });
  return new Promise((resolve) => {
    const done = (result: string) => {
      socket.close();
      resolve(result);
    };
    socket.once("ready", () => done("ready"));
    socket.once("connect_error", (err) => done(`refused: ${err.message}`));
  });
}

describe("Socket.IO Origin without PUBLIC_URL", () => {
  it("refuses a page of another site", async () => {
    expect(await handshake({ origin: "https://evil.example" })).toMatch(/^refused/);
    expect(await handshake({ origin: `http://127.0.0.1:${port + 1}` })).toMatch(/^refused/);
    expect(await handshake({ origin: "null" })).toMatch(/^refused/);
  });

  it("accepts the page the server itself served (same host) and clients without Origin", async () => {
    expect(await handshake({ origin: `http://127.0.0.1:${port}` })).toBe("ready");
    expect(await handshake({})).toBe("ready");
  });
});
