import { describe, expect, it } from "vitest";
import { makeMessage } from "../tickets/fixtures";
import {
  appendMessage,
  flattenMessages,
  markOptimisticFailed,
  optimisticMessage,
  settleOptimistic,
  updateMessage,
  type MessagePages,
} from "./messagesCache";
import { makeTicket } from "../tickets/fixtures";

const data = (): MessagePages => ({
  pageParams: [1, 2],
  pages: [
    { messages: [makeMessage({ id: 3 }), makeMessage({ id: 4 })], hasMore: true, ticket: makeTicket() },
    { messages: [makeMessage({ id: 1 }), makeMessage({ id: 2 })], hasMore: false, ticket: makeTicket() },
  ],
});

describe("messages cache", () => {
  it("flattens pages oldest first", () => {
    expect(flattenMessages(data()).map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });

  it("appends new messages at the newest end and updates acks in place", () => {
    let d = appendMessage(data(), makeMessage({ id: 5 }));
    expect(flattenMessages(d).map((m) => m.id)).toEqual([1, 2, 3, 4, 5]);
    d = updateMessage(d, makeMessage({ id: 2, ack: 3, fromMe: true }));
    expect(flattenMessages(d)[1].ack).toBe(3);
  });

  it("settles an optimistic message with the server's answer, or marks it failed", () => {
    const temp = optimisticMessage(1, "oi");
    let d = appendMessage(data(), temp);
    expect(flattenMessages(d).at(-1)).toMatchObject({ body: "oi", ack: 0, status: "pending" });
    d = settleOptimistic(d, temp.id, [makeMessage({ id: 9, body: "oi", fromMe: true, ack: 1 })]);
    expect(flattenMessages(d).map((m) => m.id)).toEqual([1, 2, 3, 4, 9]);

    const temp2 = optimisticMessage(1, "falhou");
    d = markOptimisticFailed(appendMessage(d, temp2), temp2.id, 10);
    expect(flattenMessages(d).at(-1)).toMatchObject({ id: 10, status: "failed" });
  });

  it("an own message announced by the socket replaces the optimistic twin (no duplicate)", () => {
    const temp = optimisticMessage(1, "mesmo texto");
    let d = appendMessage(data(), temp);
    d = appendMessage(d, makeMessage({ id: 11, body: "mesmo texto", fromMe: true, ack: 1 }));
    d = settleOptimistic(d, temp.id, [makeMessage({ id: 11, body: "mesmo texto", fromMe: true, ack: 1 })]);
    expect(flattenMessages(d).map((m) => m.id)).toEqual([1, 2, 3, 4, 11]);
  });
});
