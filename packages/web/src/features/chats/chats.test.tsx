import type { ChatDTO, ChatMessageDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AppSocket } from "../../api/socket";
import { SocketContext } from "../../api/SocketProvider";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import ChatsPage from "./ChatsPage";
import { ChatsPopover } from "./ChatsPopover";
import { MessageText } from "./MessageText";
import { ShareTicketDialog } from "./ShareTicketDialog";

const playSound = vi.hoisted(() => vi.fn());
vi.mock("../tickets/notifications", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../tickets/notifications")>()),
  playNotificationSound: playSound,
}));

const me = makeUser({ id: 1, name: "Ana", profile: "user" });
const member = (userId: number, name: string, unreads = 0) => ({ userId, unreads, user: { id: userId, name } });
const chat = (id: number, title: string, overrides: Partial<ChatDTO> = {}): ChatDTO => ({
  id,
  uuid: `uuid-${id}`,
  title,
  ownerId: 1,
  lastMessage: "",
  createdAt: "2026-03-10T12:00:00.000Z",
  updatedAt: "2026-03-10T12:00:00.000Z",
  users: [member(1, "Ana"), member(2, "Bruno")],
  ...overrides,
});
const message = (id: number, text: string, senderId = 2, chatId = 10): ChatMessageDTO => ({
  id,
  chatId,
  senderId,
  sender: { id: senderId, name: senderId === 1 ? "Ana" : "Bruno" },
  message: text,
  createdAt: "2026-03-10T12:00:00.000Z",
  tickets: [],
});

function fakeSocket() {
  const handlers = new Map<string, Set<(payload: unknown) => void>>();
  const socket = {
    on: (e: string, fn: (p: unknown) => void) => handlers.set(e, (handlers.get(e) ?? new Set()).add(fn)),
    off: (e: string, fn: (p: unknown) => void) => handlers.get(e)?.delete(fn),
  };
  return { socket: socket as unknown as AppSocket, emit: (e: string, p: unknown) => act(() => handlers.get(e)?.forEach((fn) => fn(p))) };
}

let visibility: DocumentVisibilityState = "visible";
beforeEach(() => {
  visibility = "visible";
  vi.spyOn(document, "visibilityState", "get").mockImplementation(() => visibility);
  playSound.mockClear();
});
afterEach(() => vi.restoreAllMocks());

describe("ChatsPage (narrow screen: tabs Chats / Mensagens)", () => {
  it("lists chats with unread badges, opens one in the Mensagens tab, marks it read and sends with Enter", async () => {
    const chats = [
      chat(10, "Plantão", { lastMessage: "Quem cobre?", users: [member(1, "Ana", 3), member(2, "Bruno")] }),
      chat(11, "Financeiro", { ownerId: 2 }),
    ];
    let sent: ChatMessageDTO[] = [];
    const { calls } = mockFetch({
      "GET /api/chats/": () => jsonResponse(200, { records: chats, hasMore: false, unreadCount: 3 }),
      "GET /api/chats/10": () => jsonResponse(200, chats[0]),
      "GET /api/chats/10/messages": () => jsonResponse(200, { records: [message(1, "Quem cobre?")], hasMore: false }),
      "POST /api/chats/10/read": () => jsonResponse(200, chats[0]),
      "POST /api/chats/10/messages": (call) => {
        const m = message(100 + sent.length, (call.body as { message: string }).message, 1);
        sent = [...sent, m];
        return jsonResponse(201, m);
      },
    });
    const { socket } = fakeSocket();
    renderPage(
      <SocketContext.Provider value={socket}>
        <ChatsPage />
      </SocketContext.Provider>,
      { session: fakeSession(me), path: "/chats", routePath: "/chats/:id?" },
    );
    expect(screen.getByRole("tab", { name: "Chats" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Mensagens" })).toBeInTheDocument();
    const items = await screen.findAllByTestId("chat-item");
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByTestId("chat-unread")).toHaveTextContent("3");
    // Only the owner edits or deletes (the actions sit beside the row's button, in the same list item).
    const rows = items.map((item) => item.closest("li")!);
    expect(within(rows[0]!).getByRole("button", { name: "Excluir a conversa Plantão" })).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole("button", { name: /Excluir a conversa/ })).toBeNull();

    await userEvent.click(items[0]!);
    expect(screen.getByRole("tab", { name: "Mensagens" })).toHaveAttribute("aria-selected", "true");
    expect(await screen.findByText("Quem cobre?", { selector: "p *, p" })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url === "/api/chats/10/read")).toBe(true));

    const input = screen.getByRole("textbox", { name: "Mensagem" });
    // Blank is not sent; Shift+Enter breaks the line; Enter sends the trimmed text.
    await userEvent.type(input, "   {Enter}");
    await userEvent.type(input, "Eu cubro{Shift>}{Enter}{/Shift}até as 18h  {Enter}");
    await waitFor(() => expect(sent.map((m) => m.message)).toEqual(["Eu cubro\naté as 18h"]));
    expect(calls.filter((c) => c.method === "POST" && c.url === "/api/chats/10/messages")).toHaveLength(1);
    expect(input).toHaveValue("");
    const mine = await screen.findAllByTestId("chat-message");
    expect(mine.at(-1)).toHaveAttribute("data-mine", "true");
  });

  it("loads older messages page by page with the oldest id as cursor", async () => {
    const { calls } = mockFetch({
      "GET /api/chats/": () => jsonResponse(200, { records: [chat(10, "Plantão")], hasMore: false, unreadCount: 0 }),
      "GET /api/chats/10": () => jsonResponse(200, chat(10, "Plantão")),
      "POST /api/chats/10/read": () => jsonResponse(200, chat(10, "Plantão")),
      "GET /api/chats/10/messages": (call) =>
        call.url.includes("before=50")
          ? jsonResponse(200, { records: [message(49, "mais antiga")], hasMore: false })
          : jsonResponse(200, { records: [message(50, "recente")], hasMore: true }),
    });
    renderPage(<ChatsPage />, { session: fakeSession(me), path: "/chats/10", routePath: "/chats/:id?" });
    await screen.findByText("recente");
    expect(await screen.findByText("mais antiga")).toBeInTheDocument();
    const texts = screen.getAllByTestId("chat-message").map((m) => m.textContent);
    expect(texts[0]).toContain("mais antiga");
    expect(texts[1]).toContain("recente");
    expect(calls.filter((c) => c.url.startsWith("/api/chats/10/messages")).map((c) => c.url)).toEqual([
      "/api/chats/10/messages?pageNumber=1",
      "/api/chats/10/messages?before=50",
    ]);
  });

  it("new chat dialog: the spec's texts, then title and users from the company's users", async () => {
    let created: unknown;
    mockFetch({
      "GET /api/chats/": () => jsonResponse(200, { records: [], hasMore: false, unreadCount: 0 }),
      "GET /api/users/list": () =>
        jsonResponse(200, [
          { id: 1, name: "Ana", email: "ana@x.dev", profile: "user" },
          { id: 2, name: "Bruno", email: "bruno@x.dev", profile: "user" },
          { id: 3, name: "Carla", email: "carla@x.dev", profile: "admin" },
        ]),
      "POST /api/chats": (call) => {
        created = call.body;
        return jsonResponse(201, chat(12, "Escala", { users: [member(1, "Ana"), member(3, "Carla")] }));
      },
      "GET /api/chats/12": () => jsonResponse(200, chat(12, "Escala")),
      "GET /api/chats/12/messages": () => jsonResponse(200, { records: [], hasMore: false }),
      "POST /api/chats/12/read": () => jsonResponse(200, chat(12, "Escala")),
    });
    renderPage(<ChatsPage />, { session: fakeSession(me), path: "/chats", routePath: "/chats/:id?" });
    expect(await screen.findByText("Nenhuma conversa")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Nova" }));
    const dialog = await screen.findByRole("dialog", { name: "Nova conversa" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    expect(await within(dialog).findByText("Por favor, preencha o título da conversa.")).toBeInTheDocument();
    expect(within(dialog).getByText("Por favor, selecione pelo menos um usuário.")).toBeInTheDocument();

    await userEvent.type(within(dialog).getByRole("textbox", { name: "Título" }), "Escala");
    await userEvent.click(within(dialog).getByRole("combobox", { name: "Usuários" }));
    const options = await screen.findAllByRole("option");
    // The caller is always a member: not offered.
    expect(options.map((o) => o.textContent)).toEqual(["Bruno", "Carla"]);
    await userEvent.click(screen.getByRole("option", { name: "Carla" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(created).toEqual({ title: "Escala", users: [{ id: 3 }] }));
    // The new chat opens.
    expect(await screen.findByTestId("chat-pane")).toBeInTheDocument();
  });
});

describe("ChatsPopover", () => {
  it("shows the unread count and recent chats, opens one, and beeps for a message while the tab is hidden", async () => {
    let unreadCount = 2;
    const records = () => [chat(10, "Plantão", { lastMessage: "Quem cobre?", users: [member(1, "Ana", unreadCount), member(2, "Bruno")] })];
    mockFetch({ "GET /api/chats/": () => jsonResponse(200, { records: records(), hasMore: false, unreadCount }) });
    const { socket, emit } = fakeSocket();
    renderPage(
      <SocketContext.Provider value={socket}>
        <ChatsPopover />
      </SocketContext.Provider>,
      { session: fakeSession(me) },
    );
    await waitFor(() => expect(screen.getByTestId("chats-unread")).toHaveTextContent("2"));

    // Visible tab: no sound. Hidden tab: the sound; my own message: never.
    unreadCount = 3;
    emit("chat", { action: "new-message", newMessage: message(7, "Oi"), record: records()[0] });
    expect(playSound).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByTestId("chats-unread")).toHaveTextContent("3"));
    visibility = "hidden";
    emit("chat", { action: "new-message", newMessage: message(8, "Alô"), record: records()[0] });
    expect(playSound).toHaveBeenCalledTimes(1);
    emit("chat", { action: "new-message", newMessage: message(9, "Minha", 1), record: records()[0] });
    expect(playSound).toHaveBeenCalledTimes(1);

    await userEvent.click(screen.getByRole("button", { name: "Chat interno: 3 mensagens não lidas" }));
    const items = await screen.findAllByTestId("chats-popover-item");
    expect(items[0]).toHaveTextContent("Plantão");
    expect(items[0]).toHaveTextContent("Quem cobre?");
    await userEvent.click(items[0]!);
    expect(await screen.findByTestId("location")).toHaveTextContent("/chats/10");
  });
});

describe("ticket mentions", () => {
  it("links the #n the server found in the company to the ticket's page and leaves the others as text", () => {
    renderPage(<MessageText text={"ver #12 e #7, não a#12"} tickets={[{ id: 12, uuid: "9b2f0c1e-uuid" }]} />, { session: fakeSession(me) });
    const links = screen.getAllByRole("link");
    expect(links.map((l) => [l.textContent, l.getAttribute("href")])).toEqual([["#12", "/tickets/9b2f0c1e-uuid"]]);
    expect(screen.getByText(/e #7, não a#12/)).toBeInTheDocument();
  });
});

describe("ShareTicketDialog", () => {
  it("posts #id and the contact's name (and the comment) into the chosen chat", async () => {
    let posted: unknown;
    mockFetch({
      "GET /api/chats/": () => jsonResponse(200, { records: [chat(10, "Plantão"), chat(11, "Financeiro")], hasMore: false, unreadCount: 0 }),
      "POST /api/chats/11/messages": (call) => {
        posted = call.body;
        return jsonResponse(201, message(5, "x", 1, 11));
      },
    });
    const onClose = vi.fn();
    renderPage(<ShareTicketDialog open onClose={onClose} ticket={{ id: 42, contact: { name: "Maria Souza" } }} />, { session: fakeSession(me) });
    const dialog = await screen.findByRole("dialog", { name: "Compartilhar o atendimento #42" });
    const share = within(dialog).getByRole("button", { name: "Compartilhar" });
    expect(share).toBeDisabled();
    await userEvent.click(within(dialog).getByRole("combobox", { name: "Conversa" }));
    await userEvent.click(await screen.findByRole("option", { name: "Financeiro" }));
    await userEvent.type(within(dialog).getByRole("textbox", { name: "Comentário (opcional)" }), "Cliente pediu segunda via");
    await userEvent.click(share);
    await waitFor(() => expect(posted).toEqual({ message: "#42 — Maria Souza\nCliente pediu segunda via" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
