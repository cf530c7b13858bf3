import type { ChatDTO, ChatEvent, ChatMessageDTO, ChatRoomEvent, ChatUserEvent } from "@balcao/shared";
import { rooms, type EventDelivery, type SocketEmit } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    /** `memberIds`: who may see the chat now (the owner included). */
    "chats.created": { chat: ChatDTO; memberIds: number[] };
    /** `removedIds`: members the change took out (they drop the chat). */
    "chats.updated": { chat: ChatDTO; memberIds: number[]; removedIds: number[] };
    "chats.deleted": { chatId: number; memberIds: number[] };
    "chats.messageCreated": { chat: ChatDTO; message: ChatMessageDTO; memberIds: number[] };
    /** `userId` read the chat: their other tabs reset the badge. */
    "chats.read": { chat: ChatDTO; userId: number };
  }
}

/**
 * Internal chat is private to its members: every emit goes to the members' own rooms
 * (`company:{id}:user:{id}`), never to the company room, so a colleague outside the chat and another
 * company receive nothing. `chat` feeds the lists and the top-bar popover, `chat-{id}` the open message
 * pane, `chat-user` the reader's own other tabs.
 */
export const deliverChatEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  const to = (userIds: number[]) => userIds.map((id) => rooms.user(event.companyId, id));
  switch (event.type) {
    case "chats.created":
      emits.push({ event: "chat", rooms: to(event.memberIds), payload: { action: "create", record: event.chat } satisfies ChatEvent });
      break;
    case "chats.updated":
      if (event.memberIds.length) {
        emits.push({ event: "chat", rooms: to(event.memberIds), payload: { action: "update", record: event.chat } satisfies ChatEvent });
        emits.push({
          event: `chat-${event.chat.id}`,
          rooms: to(event.memberIds),
          payload: { action: "update", record: event.chat } satisfies ChatRoomEvent,
        });
      }
      if (event.removedIds.length) {
        emits.push({ event: "chat", rooms: to(event.removedIds), payload: { action: "delete", id: event.chat.id } satisfies ChatEvent });
        emits.push({
          event: `chat-${event.chat.id}`,
          rooms: to(event.removedIds),
          payload: { action: "delete", id: event.chat.id } satisfies ChatRoomEvent,
        });
      }
      break;
    case "chats.deleted":
      emits.push({ event: "chat", rooms: to(event.memberIds), payload: { action: "delete", id: event.chatId } satisfies ChatEvent });
      emits.push({
        event: `chat-${event.chatId}`,
        rooms: to(event.memberIds),
        payload: { action: "delete", id: event.chatId } satisfies ChatRoomEvent,
      });
      break;
    case "chats.messageCreated": {
      const payload = { action: "new-message", newMessage: event.message, record: event.chat } as const;
      emits.push({ event: "chat", rooms: to(event.memberIds), payload: payload satisfies ChatEvent });
      emits.push({ event: `chat-${event.chat.id}`, rooms: to(event.memberIds), payload: payload satisfies ChatRoomEvent });
      break;
    }
    case "chats.read":
      emits.push({ event: "chat-user", rooms: to([event.userId]), payload: { action: "update", record: event.chat } satisfies ChatUserEvent });
      break;
  }
  return emits;
};
