import type { ChatDTO } from "./schemas/chats";

/**
 * The caller's unread count in a chat. A module of its own, without zod: the web app's top bar reads it, and the
 * chat schemas' module would bring zod with it (issue 20).
 */
export const unreadsOf = (chat: Pick<ChatDTO, "users">, userId: number | undefined): number =>
  chat.users.find((u) => u.userId === userId)?.unreads ?? 0;
