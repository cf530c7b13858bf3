import type { AppMessageEvent } from "@balcao/shared";
import { describe, expect, it } from "vitest";
import { makeMessage, makeTicket } from "./fixtures";
import { shouldNotify } from "./notifications";

const me = { id: 1, allTicket: "disable" as const };
const create = (ticket = makeTicket(), message = makeMessage()): AppMessageEvent => ({ action: "create", message, ticket, contact: ticket.contact });

describe("shouldNotify (spec §4)", () => {
  it("notifies an incoming message on my ticket", () => {
    expect(shouldNotify(create(), { me })).toBe(true);
  });
  it("never for my own messages, updates, or already-read messages", () => {
    expect(shouldNotify(create(makeTicket(), makeMessage({ fromMe: true })), { me })).toBe(false);
    expect(shouldNotify(create(makeTicket(), makeMessage({ read: true })), { me })).toBe(false);
    expect(shouldNotify({ action: "update", message: makeMessage() }, { me })).toBe(false);
  });
  it("never for tickets owned by another user, nor for groups", () => {
    expect(shouldNotify(create(makeTicket({ userId: 2 })), { me })).toBe(false);
    expect(shouldNotify(create(makeTicket({ isGroup: true })), { me })).toBe(false);
  });
  it("pending tickets only when allTicket is 'enable'", () => {
    const pending = makeTicket({ status: "pending", userId: null, user: null });
    expect(shouldNotify(create(pending), { me })).toBe(false);
    expect(shouldNotify(create(pending), { me: { id: 1, allTicket: "enable" } })).toBe(true);
  });
  it("not for the ticket on screen while the page is visible", () => {
    const ticket = makeTicket();
    expect(shouldNotify(create(ticket), { me, openTicketUuid: ticket.uuid, pageVisible: true })).toBe(false);
    expect(shouldNotify(create(ticket), { me, openTicketUuid: ticket.uuid, pageVisible: false })).toBe(true);
  });
});
