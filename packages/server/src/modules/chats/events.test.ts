import { describe, expect, it } from "vitest";
import type { ChatDTO, ChatMessageDTO } from "@balcao/shared";
import { deliverChatEvents } from "./events";

const chat: ChatDTO = { id: 7, uuid: "u", title: "Plantão", ownerId: 1, lastMessage: "", createdAt: "", updatedAt: "", users: [] };
const message: ChatMessageDTO = { id: 3, chatId: 7, senderId: 1, sender: null, message: "Oi", createdAt: "", tickets: [] };
const user = (id: number) => `company:5:user:${id}`;

describe("chat events go to the members' own rooms only", () => {
  it("routes each event to the members (never the company room)", () => {
    const created = deliverChatEvents({ type: "chats.created", companyId: 5, chat, memberIds: [1, 2] });
    expect(created).toEqual([{ event: "chat", rooms: [user(1), user(2)], payload: { action: "create", record: chat } }]);

    const sent = deliverChatEvents({ type: "chats.messageCreated", companyId: 5, chat, message, memberIds: [1, 2] });
    expect(sent.map((e) => [e.event, e.rooms])).toEqual([
      ["chat", [user(1), user(2)]],
      ["chat-7", [user(1), user(2)]],
    ]);

    const updated = deliverChatEvents({ type: "chats.updated", companyId: 5, chat, memberIds: [1], removedIds: [2] });
    expect(updated.map((e) => [e.event, e.rooms, (e.payload as { action: string }).action])).toEqual([
      ["chat", [user(1)], "update"],
      ["chat-7", [user(1)], "update"],
      ["chat", [user(2)], "delete"],
      ["chat-7", [user(2)], "delete"],
    ]);

    const read = deliverChatEvents({ type: "chats.read", companyId: 5, chat, userId: 2 });
    expect(read).toEqual([{ event: "chat-user", rooms: [user(2)], payload: { action: "update", record: chat } }]);

    const all = [...created, ...sent, ...updated, ...read, ...deliverChatEvents({ type: "chats.deleted", companyId: 5, chatId: 7, memberIds: [1] })];
    expect(all.flatMap((e) => e.rooms).every((room) => /^company:5:user:\d+$/.test(room))).toBe(true);
  });
});
