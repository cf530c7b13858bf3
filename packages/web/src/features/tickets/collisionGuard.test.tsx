import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createElement, type ReactElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AppSocket } from "../../api/socket";
import { SocketContext } from "../../api/SocketProvider";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { MessageInput } from "../messages/MessageInput";
import { makeMessage, makeTicket } from "./fixtures";
import { TicketPresence, TYPING_SHOW_MS } from "./presence";

/** A socket stand-in that records what the client emits and plays the server's events. */
function recordingSocket() {
  const handlers = new Map<string, Set<(payload: unknown) => void>>();
  const sent: [string, unknown][] = [];
  const socket = {
    on: (event: string, fn: (payload: unknown) => void) => handlers.set(event, (handlers.get(event) ?? new Set()).add(fn)),
    off: (event: string, fn: (payload: unknown) => void) => handlers.get(event)?.delete(fn),
    emit: (event: string, payload: unknown) => {
      sent.push([event, payload]);
      return true;
    },
  };
  return {
    socket: socket as unknown as AppSocket,
    sent,
    serverEmit: (event: string, payload: unknown) => act(() => handlers.get(event)?.forEach((fn) => fn(payload))),
  };
}

const me = makeUser({ id: 1, name: "Ana Admin" });
function render(element: ReactElement, s = recordingSocket()) {
  const view = renderPage(createElement(SocketContext.Provider, { value: s.socket }, element), { session: fakeSession(me) });
  return { ...view, ...s };
}

afterEach(() => vi.useRealTimers());

describe("TicketPresence", () => {
  it("joins the ticket's viewers, shows the others (not me) and leaves on unmount", async () => {
    const { sent, serverEmit, unmount } = render(<TicketPresence ticketId={7} />);
    expect(sent).toEqual([["joinChatBox", 7]]);
    // Alone (the server lists me only): nothing shown.
    serverEmit("ticketViewers", { ticketId: 7, viewers: [{ id: 1, name: "Ana Admin" }] });
    expect(screen.queryByTestId("ticket-viewers")).toBeNull();
    serverEmit("ticketViewers", {
      ticketId: 7,
      viewers: [
        { id: 1, name: "Ana Admin" },
        { id: 2, name: "Bruno" },
      ],
    });
    expect(screen.getByTestId("ticket-viewers")).toHaveTextContent("Também vendo este atendimento: Bruno");
    // Another ticket's list does not touch this one.
    serverEmit("ticketViewers", { ticketId: 8, viewers: [{ id: 3, name: "Carla" }] });
    expect(screen.getByTestId("ticket-viewers")).toHaveTextContent("Bruno");
    expect(screen.getByTestId("ticket-viewers")).not.toHaveTextContent("Carla");
    unmount();
    expect(sent.at(-1)).toEqual(["leaveChatBox", 7]);
  });

  it("shows 'X está digitando…' for a while after the last notice, and not for my own typing", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { serverEmit } = render(<TicketPresence ticketId={7} />);
    serverEmit("ticketViewers", {
      ticketId: 7,
      viewers: [
        { id: 1, name: "Ana Admin" },
        { id: 2, name: "Bruno" },
      ],
    });
    serverEmit("ticketTyping", { ticketId: 7, user: { id: 1, name: "Ana Admin" } });
    expect(screen.queryByTestId("ticket-typing")).toBeNull();
    serverEmit("ticketTyping", { ticketId: 7, user: { id: 2, name: "Bruno" } });
    expect(screen.getByTestId("ticket-typing")).toHaveTextContent("Bruno está digitando…");
    act(() => vi.advanceTimersByTime(TYPING_SHOW_MS - 1000));
    serverEmit("ticketTyping", { ticketId: 7, user: { id: 2, name: "Bruno" } });
    act(() => vi.advanceTimersByTime(TYPING_SHOW_MS - 1000));
    expect(screen.getByTestId("ticket-typing")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1500));
    expect(screen.queryByTestId("ticket-typing")).toBeNull();
    // Leaving the ticket ends the notice at once.
    serverEmit("ticketTyping", { ticketId: 7, user: { id: 2, name: "Bruno" } });
    serverEmit("ticketViewers", { ticketId: 7, viewers: [{ id: 1, name: "Ana Admin" }] });
    expect(screen.queryByTestId("ticket-typing")).toBeNull();
    expect(screen.queryByTestId("ticket-viewers")).toBeNull();
  });
});

describe("MessageInput collision guard", () => {
  const setup = (ticket = makeTicket({ userId: 2, user: { id: 2, name: "Bruno" } })) => {
    const fetch = mockFetch({
      "POST /api/messages/1": (call) =>
        jsonResponse(201, [makeMessage({ id: 50, fromMe: true, body: String((call.body as { body: string }).body) })]),
      "GET /api/quick-messages/list": () => jsonResponse(200, []),
    });
    localStorage.setItem("signOption", "false");
    const view = render(<MessageInput ticket={ticket} replyingTo={null} onCancelReply={() => {}} />);
    return { ...view, ...fetch };
  };
  const sends = (calls: { method: string; url: string }[]) => calls.filter((c) => c.method === "POST" && c.url.startsWith("/api/messages/"));

  it("asks before sending on a ticket assigned to someone else; cancelling keeps the text, confirming sends", async () => {
    const { calls } = setup();
    const box = screen.getByRole("textbox", { name: "Mensagem" });
    await userEvent.type(box, "Posso ajudar?{Enter}");
    const dialog = await screen.findByRole("dialog", { name: "Este atendimento é de Bruno" });
    expect(dialog).toHaveTextContent("Bruno está atribuído a este atendimento. Enviar a mensagem mesmo assim?");
    expect(sends(calls)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(box).toHaveValue("Posso ajudar?");
    expect(sends(calls)).toHaveLength(0);

    await userEvent.type(box, "{Enter}");
    await userEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Enviar mesmo assim" }));
    await waitFor(() => expect(sends(calls)).toHaveLength(1));
    expect(box).toHaveValue("");
    // Confirmed once for this assignee: the next message goes straight out.
    await userEvent.type(box, "Mais uma{Enter}");
    await waitFor(() => expect(sends(calls)).toHaveLength(2));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("sends without asking on my own ticket, and tells the others I am typing (throttled)", async () => {
    const { calls, sent } = setup(makeTicket({ userId: 1, user: { id: 1, name: "Ana Admin" } }));
    await userEvent.type(screen.getByRole("textbox", { name: "Mensagem" }), "Oi{Enter}");
    await waitFor(() => expect(sends(calls)).toHaveLength(1));
    expect(screen.queryByRole("dialog")).toBeNull();
    // Two keystrokes within the interval: one `typing` notice.
    expect(sent.filter(([event]) => event === "typing")).toEqual([["typing", 1]]);
  });
});
