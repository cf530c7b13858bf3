import { describe, expect, it } from "vitest";
import { makeMessage } from "../tickets/fixtures";
import { buildTimeline } from "./grouping";

const at = (day: number, hour = 10) => new Date(2025, 0, day, hour).toISOString();

describe("buildTimeline", () => {
  it("puts a date separator before each day's first message", () => {
    const items = buildTimeline([
      makeMessage({ id: 1, createdAt: at(1) }),
      makeMessage({ id: 2, createdAt: at(1, 11) }),
      makeMessage({ id: 3, createdAt: at(2) }),
    ]);
    expect(items.map((i) => (i.kind === "date" ? i.label : i.kind))).toEqual(["01/01/2025", "message", "message", "02/01/2025", "message"]);
  });

  it("marks 'Conversa encerrada' / 'Conversa iniciada' where the ticket changes", () => {
    const items = buildTimeline([
      makeMessage({ id: 1, ticketId: 7, createdAt: at(1) }),
      makeMessage({ id: 2, ticketId: 7, createdAt: at(1, 11) }),
      makeMessage({ id: 3, ticketId: 8, createdAt: at(1, 12) }),
      makeMessage({ id: 4, ticketId: 9, createdAt: at(3) }),
    ]);
    expect(items.map((i) => i.kind)).toEqual([
      "date",
      "message",
      "message",
      "ticketEnded",
      "ticketStarted",
      "message",
      "ticketEnded",
      "date",
      "ticketStarted",
      "message",
    ]);
    expect(items[3]).toMatchObject({ kind: "ticketEnded", ticketId: 7 });
    expect(items[4]).toMatchObject({ kind: "ticketStarted", ticketId: 8 });
  });

  it("is empty for no messages", () => {
    expect(buildTimeline([])).toEqual([]);
  });
});
