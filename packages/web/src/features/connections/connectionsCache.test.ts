import { describe, expect, it } from "vitest";
import { hasConnectionAlert, removeConnection, upsertConnection } from "./connectionsCache";
import { makeConnection } from "./fixtures";

describe("connections cache", () => {
  it("adds in name order and replaces in place", () => {
    const b = makeConnection({ id: 2, name: "Bravo" });
    const list = upsertConnection([b], makeConnection({ id: 1, name: "Alfa" }));
    expect(list.map((c) => c.name)).toEqual(["Alfa", "Bravo"]);
    const updated = upsertConnection(list, { ...b, status: "DISCONNECTED", updatedAt: "2025-01-02T00:00:00.000Z" });
    expect(updated.find((c) => c.id === 2)?.status).toBe("DISCONNECTED");
    expect(removeConnection(updated, 1).map((c) => c.id)).toEqual([2]);
  });

  it("moves the default star: exactly one default", () => {
    const list = [makeConnection({ id: 1, name: "A", isDefault: true }), makeConnection({ id: 2, name: "B" })];
    const next = upsertConnection(list, makeConnection({ id: 2, name: "B", isDefault: true, updatedAt: "2025-02-01T00:00:00.000Z" }));
    expect(next.filter((c) => c.isDefault).map((c) => c.id)).toEqual([2]);
  });

  it("ignores an answer older than what the socket already delivered", () => {
    const list = [makeConnection({ id: 1, status: "CONNECTED", updatedAt: "2025-01-01T12:00:05.000Z" })];
    expect(upsertConnection(list, makeConnection({ id: 1, status: "qrcode", updatedAt: "2025-01-01T12:00:00.000Z" }))[0].status).toBe("CONNECTED");
  });

  it("alerts for qrcode, PAIRING, DISCONNECTED, TIMEOUT and OPENING only", () => {
    for (const status of ["qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING"] as const)
      expect(hasConnectionAlert([makeConnection({ status })])).toBe(true);
    expect(hasConnectionAlert([makeConnection({ status: "CONNECTED" })])).toBe(false);
    expect(hasConnectionAlert([])).toBe(false);
  });
});
