/**
 * Internal chat through HTTP and real sockets: validation texts, owner rules, members-only reads and
 * deliveries, tenant isolation, unread counts and keyset pages.
 */
import { and, eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatDTO, ChatEvent, ChatListResponse, ChatMessageDTO, ChatMessagesResponse, ChatRoomEvent, ChatUserEvent } from "@balcao/shared";
import { chatMessages, chatUsers, tickets } from "../../db/schema";
import { buildContact, buildTenant, buildUser, connectSocket as openSocket, login, nextEventWhere, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});

const connectSocket = async (session: Session) => {
  const socket = await openSocket(t.app, session.token);
  sockets.push(socket);
  return socket;
};
/** Every chat-related event a socket receives (`chat`, `chat-user`, `chat-{id}`). */
const chatTraffic = (socket: Socket) => {
  const seen: { event: string; payload: unknown }[] = [];
  socket.onAny((event: string, payload: unknown) => {
    if (event.startsWith("chat")) seen.push({ event, payload });
  });
  return seen;
};

const api = (s: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: s.headers, ...(payload !== undefined ? { payload } : {}) });

/** A company with an admin, an attendant and a third user (not in the chats below), all logged in. */
async function team() {
  const tenant = await buildTenant(t.app);
  const outsider = await buildUser(t.ctx, tenant.company.id, { name: "Fora da Conversa" });
  return { ...tenant, outsider, outsiderSession: await login(t.app, outsider.email) };
}

async function createChat(owner: Session, users: number[], title = "Plantão") {
  const res = await api(owner, "POST", "/chats", { title, users: users.map((id) => ({ id })) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ChatDTO;
}

describe("validation (spec §5)", () => {
  it("answers the spec's texts for a missing title or no users, and refuses blank messages", async () => {
    const d = await team();
    const cases: [object, string][] = [
      [{ title: "", users: [{ id: d.user.id }] }, "Por favor, preencha o título da conversa."],
      [{ title: "   ", users: [d.user.id] }, "Por favor, preencha o título da conversa."],
      [{ users: [{ id: d.user.id }] }, "Por favor, preencha o título da conversa."],
      [{ title: "Plantão", users: [] }, "Por favor, selecione pelo menos um usuário."],
      [{ title: "Plantão" }, "Por favor, selecione pelo menos um usuário."],
    ];
    for (const [payload, text] of cases) {
      const res = await api(d.adminSession, "POST", "/chats", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe(text);
    }
    const chat = await createChat(d.adminSession, [d.user.id]);
    for (const message of ["", "   \n  "]) {
      const res = await api(d.userSession, "POST", `/chats/${chat.id}/messages`, { message });
      expect(res.statusCode).toBe(400);
    }
    expect(await t.ctx.database.db.select().from(chatMessages).where(eq(chatMessages.chatId, chat.id))).toEqual([]);
    const edit = await api(d.adminSession, "PUT", `/chats/${chat.id}`, { title: "", users: [{ id: d.user.id }] });
    expect(edit.json().error).toBe("Por favor, preencha o título da conversa.");
  });

  it("accepts only members of the caller's company", async () => {
    const d = await team();
    const other = await team();
    const res = await api(d.adminSession, "POST", "/chats", { title: "Mistura", users: [{ id: other.user.id }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_NO_USER_FOUND");
    const chat = await createChat(d.adminSession, [d.user.id]);
    const edit = await api(d.adminSession, "PUT", `/chats/${chat.id}`, { users: [d.user.id, other.admin.id] });
    expect(edit.statusCode).toBe(400);
    expect(
      (await api(d.adminSession, "GET", `/chats/${chat.id}`))
        .json()
        .users.map((u: { userId: number }) => u.userId)
        .sort(),
    ).toEqual([d.admin.id, d.user.id].sort());
  });
});

describe("members, owner and isolation", () => {
  it("the owner is a member; only members see a chat; only the owner edits or deletes it", async () => {
    const d = await team();
    const other = await team();
    const chat = await createChat(d.userSession, [d.admin.id], "Escala");
    expect(chat).toMatchObject({ title: "Escala", ownerId: d.user.id, lastMessage: "" });
    expect(chat.users.map((u) => u.userId).sort()).toEqual([d.admin.id, d.user.id].sort());
    expect(chat.users.every((u) => Object.keys(u.user).sort().join() === "id,name")).toBe(true);

    // Non-members: a colleague outside the chat and another company's admin get 404 everywhere.
    for (const s of [d.outsiderSession, other.adminSession]) {
      for (const [method, url, body] of [
        ["GET", `/chats/${chat.id}`],
        ["GET", `/chats/${chat.id}/messages`],
        ["POST", `/chats/${chat.id}/messages`, { message: "Oi" }],
        ["POST", `/chats/${chat.id}/read`, {}],
        ["PUT", `/chats/${chat.id}`, { title: "Tomada" }],
        ["DELETE", `/chats/${chat.id}`],
      ] as const) {
        const res = await api(s, method, url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().error).toBe("ERR_NO_CHAT_FOUND");
      }
      expect(((await api(s, "GET", "/chats/")).json() as ChatListResponse).records.map((c) => c.id)).not.toContain(chat.id);
    }

    // A member who is not the owner (even an admin) may talk but not edit or delete.
    expect((await api(d.adminSession, "PUT", `/chats/${chat.id}`, { title: "Outra" })).statusCode).toBe(403);
    expect((await api(d.adminSession, "DELETE", `/chats/${chat.id}`)).statusCode).toBe(403);
    expect((await api(d.adminSession, "POST", `/chats/${chat.id}/messages`, { message: "Estou dentro" })).statusCode).toBe(201);

    const edited = await api(d.userSession, "PUT", `/chats/${chat.id}`, { title: "Escala de sábado", users: [{ id: d.outsider.id }] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((edited.json() as ChatDTO).users.map((u) => u.userId).sort()).toEqual([d.user.id, d.outsider.id].sort());
    // The admin was removed: the chat is gone for them.
    expect((await api(d.adminSession, "GET", `/chats/${chat.id}/messages`)).statusCode).toBe(404);
    expect((await api(d.outsiderSession, "GET", `/chats/${chat.id}/messages`)).statusCode).toBe(200);

    expect((await api(d.userSession, "DELETE", `/chats/${chat.id}`)).statusCode).toBe(204);
    expect((await api(d.userSession, "GET", `/chats/${chat.id}`)).statusCode).toBe(404);
    expect(await t.ctx.database.db.select().from(chatUsers).where(eq(chatUsers.chatId, chat.id))).toEqual([]);
  });

  it("lists the caller's chats by latest activity with search; unreads grow per other member and reset on read", async () => {
    const d = await team();
    const first = await createChat(d.adminSession, [d.user.id], "Financeiro");
    const second = await createChat(d.adminSession, [d.user.id, d.outsider.id], "Suporte técnico");
    await createChat(d.adminSession, [d.outsider.id], "Só com o terceiro");
    await api(d.adminSession, "POST", `/chats/${first.id}/messages`, { message: "Fechamento hoje" });
    await api(d.adminSession, "POST", `/chats/${first.id}/messages`, { message: "  às 18h  " });

    const list = (await api(d.userSession, "GET", "/chats/?pageNumber=1")).json() as ChatListResponse;
    expect(list.records.map((c) => c.id)).toEqual([first.id, second.id]);
    expect(list.hasMore).toBe(false);
    expect(list.unreadCount).toBe(2);
    expect(list.records[0]!.lastMessage).toBe("às 18h");
    expect(list.records[0]!.users.find((u) => u.userId === d.user.id)!.unreads).toBe(2);
    // The sender's own count does not move.
    expect(list.records[0]!.users.find((u) => u.userId === d.admin.id)!.unreads).toBe(0);

    const searched = (await api(d.userSession, "GET", "/chats/?searchParam=tecnico")).json() as ChatListResponse;
    expect(searched.records.map((c) => c.id)).toEqual([second.id]);

    const read = await api(d.userSession, "POST", `/chats/${first.id}/read`, { userId: d.admin.id });
    expect(read.statusCode).toBe(200);
    // `userId` in the body is the spec client's field; the caller is the one who read.
    expect((read.json() as ChatDTO).users.find((u) => u.userId === d.user.id)!.unreads).toBe(0);
    expect((await api(d.userSession, "GET", "/chats/")).json().unreadCount).toBe(0);
    const [adminRow] = await t.ctx.database.db
      .select()
      .from(chatUsers)
      .where(and(eq(chatUsers.chatId, first.id), eq(chatUsers.userId, d.admin.id)));
    expect(adminRow!.unreads).toBe(0);
  });

  it("pages the chat list 20 at a time", async () => {
    const d = await team();
    for (let i = 0; i < 21; i++) await createChat(d.adminSession, [d.user.id], `Sala ${i}`);
    const page1 = (await api(d.userSession, "GET", "/chats/?pageNumber=1")).json() as ChatListResponse;
    const page2 = (await api(d.userSession, "GET", "/chats/?pageNumber=2")).json() as ChatListResponse;
    expect(page1.records).toHaveLength(20);
    expect(page1.hasMore).toBe(true);
    expect(page2.records).toHaveLength(1);
    expect(page2.hasMore).toBe(false);
    expect(new Set([...page1.records, ...page2.records].map((c) => c.id)).size).toBe(21);
  });
});

describe("message pages", () => {
  it("answers keyset pages of 20, oldest first within a page, newest page first", async () => {
    const d = await team();
    const chat = await createChat(d.adminSession, [d.user.id]);
    const sent: ChatMessageDTO[] = [];
    for (let i = 1; i <= 45; i++)
      sent.push((await api(i % 2 ? d.adminSession : d.userSession, "POST", `/chats/${chat.id}/messages`, { message: `m${i}` })).json());

    const newest = (await api(d.userSession, "GET", `/chats/${chat.id}/messages?pageNumber=1`)).json() as ChatMessagesResponse;
    expect(newest.records.map((m) => m.message)).toEqual(sent.slice(25).map((m) => m.message));
    expect(newest.hasMore).toBe(true);
    expect(newest.records[0]!.sender).toEqual({ id: d.user.id, name: d.user.name }); // m26: even = the attendant
    expect(newest.records[1]!.sender).toEqual({ id: d.admin.id, name: d.admin.name });

    const older = (await api(d.userSession, "GET", `/chats/${chat.id}/messages?before=${newest.records[0]!.id}`)).json() as ChatMessagesResponse;
    expect(older.records.map((m) => m.message)).toEqual(sent.slice(5, 25).map((m) => m.message));
    expect(older.hasMore).toBe(true);
    const oldest = (await api(d.userSession, "GET", `/chats/${chat.id}/messages?before=${older.records[0]!.id}`)).json() as ChatMessagesResponse;
    expect(oldest.records.map((m) => m.message)).toEqual(["m1", "m2", "m3", "m4", "m5"]);
    expect(oldest.hasMore).toBe(false);
    // The spec client's pageNumber reaches the same pages.
    const page2 = (await api(d.userSession, "GET", `/chats/${chat.id}/messages?pageNumber=2`)).json() as ChatMessagesResponse;
    expect(page2.records.map((m) => m.id)).toEqual(older.records.map((m) => m.id));

    // A cursor from another chat is refused, never a way to read it.
    const otherChat = await createChat(d.adminSession, [d.outsider.id]);
    const foreign = (await api(d.adminSession, "POST", `/chats/${otherChat.id}/messages`, { message: "segredo" })).json() as ChatMessageDTO;
    expect((await api(d.userSession, "GET", `/chats/${chat.id}/messages?before=${foreign.id}`)).statusCode).toBe(400);
  });
});

describe("ticket mentions (beyond the spec)", () => {
  it("links #n only to tickets of the caller's company, in the answer, the pages and the event", async () => {
    const d = await team();
    const other = await team();
    const ticketOf = async (companyId: number) => {
      const contact = await buildContact(t.ctx, companyId);
      const [row] = await t.ctx.database.db.insert(tickets).values({ companyId, contactId: contact.id, status: "open" }).returning();
      return row!;
    };
    const own = await ticketOf(d.company.id);
    const foreign = await ticketOf(other.company.id);
    const chat = await createChat(d.adminSession, [d.user.id]);
    const socket = await connectSocket(d.userSession);
    const event = nextEventWhere<ChatRoomEvent>(socket, `chat-${chat.id}`, (e) => e.action === "new-message");
    const text = `Veja #${own.id}, #${foreign.id}, #99999999 e de novo #${own.id}; a#${own.id} não`;
    const res = await api(d.adminSession, "POST", `/chats/${chat.id}/messages`, { message: text });
    const expected = [{ id: own.id, uuid: own.uuid }];
    expect((res.json() as ChatMessageDTO).tickets).toEqual(expected);
    expect(((await event) as Extract<ChatRoomEvent, { action: "new-message" }>).newMessage.tickets).toEqual(expected);
    const page = (await api(d.userSession, "GET", `/chats/${chat.id}/messages`)).json() as ChatMessagesResponse;
    expect(page.records[0]!.tickets).toEqual(expected);
  });
});

describe("realtime: members only", () => {
  it("create, new-message, read, update and delete reach the members' sockets and nobody else's", async () => {
    const d = await team();
    const other = await team();
    const ownerSocket = await connectSocket(d.adminSession);
    const memberSocket = await connectSocket(d.userSession);
    const outsiderSocket = await connectSocket(d.outsiderSession);
    const otherCompanySocket = await connectSocket(other.adminSession);
    const outsiderSeen = chatTraffic(outsiderSocket);
    const otherSeen = chatTraffic(otherCompanySocket);

    const created = nextEventWhere<ChatEvent>(memberSocket, "chat", (e) => e.action === "create" && e.record.title === "Ao vivo");
    const chat = await createChat(d.adminSession, [d.user.id], "Ao vivo");
    expect((await created).action).toBe("create");

    const listEvent = nextEventWhere<ChatEvent>(memberSocket, "chat", (e) => e.action === "new-message");
    const paneEvent = nextEventWhere<ChatRoomEvent>(memberSocket, `chat-${chat.id}`, (e) => e.action === "new-message");
    const ownerEcho = nextEventWhere<ChatRoomEvent>(ownerSocket, `chat-${chat.id}`, (e) => e.action === "new-message");
    await api(d.adminSession, "POST", `/chats/${chat.id}/messages`, { message: "Alguém cobre o turno?" });
    const pane = (await paneEvent) as Extract<ChatRoomEvent, { action: "new-message" }>;
    expect(pane.newMessage).toMatchObject({ message: "Alguém cobre o turno?", senderId: d.admin.id, sender: { id: d.admin.id } });
    expect(pane.record.users.find((u) => u.userId === d.user.id)!.unreads).toBe(1);
    expect((await listEvent).action).toBe("new-message");
    await ownerEcho;

    // Reading in one tab tells the reader's other tabs (chat-user), nobody else.
    const secondTab = await connectSocket(d.userSession);
    const readEvent = nextEventWhere<ChatUserEvent>(secondTab, "chat-user", (e) => e.record.id === chat.id);
    await api(d.userSession, "POST", `/chats/${chat.id}/read`, {});
    expect((await readEvent).record.users.find((u) => u.userId === d.user.id)!.unreads).toBe(0);

    // An edit reaches the members as `update`.
    const addEvent = nextEventWhere<ChatEvent>(memberSocket, "chat", (e) => e.action === "update");
    await api(d.adminSession, "PUT", `/chats/${chat.id}`, { title: "Ao vivo", users: [d.user.id] });
    await addEvent;

    // Removing the member: they get `delete`.
    const removed = nextEventWhere<ChatEvent>(memberSocket, "chat", (e) => e.action === "delete" && e.id === chat.id);
    await api(d.adminSession, "PUT", `/chats/${chat.id}`, { users: [d.admin.id] });
    await removed;

    const deleted = nextEventWhere<ChatRoomEvent>(ownerSocket, `chat-${chat.id}`, (e) => e.action === "delete");
    expect((await api(d.adminSession, "DELETE", `/chats/${chat.id}`)).statusCode).toBe(204);
    await deleted;

    await t.ctx.events.drain();
    await new Promise((r) => setTimeout(r, 200));
    expect(outsiderSeen).toEqual([]);
    expect(otherSeen).toEqual([]);
  });
});
