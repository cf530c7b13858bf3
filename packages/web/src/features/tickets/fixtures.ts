import type { MessageDTO, TicketDTO } from "@balcao/shared";

/** Test data builders for the tickets and messages features. */
export function makeTicket(overrides: Partial<TicketDTO> = {}): TicketDTO {
  const id = overrides.id ?? 1;
  return {
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, "0")}`,
    status: "open",
    userId: 1,
    user: { id: 1, name: "Ana Admin" },
    queueId: 5,
    queue: { id: 5, name: "Vendas", color: "#ff0000" },
    whatsappId: 3,
    whatsapp: { id: 3, name: "Loja" },
    contactId: 100 + id,
    contact: { id: 100 + id, name: `Cliente ${id}`, number: "5511999990000", email: "", profilePicUrl: "", isGroup: false },
    tags: [],
    isGroup: false,
    chatbot: false,
    code: null,
    lastMessage: "Olá",
    unreadMessages: 0,
    createdAt: "2025-01-01T10:00:00.000Z",
    updatedAt: "2025-01-01T10:00:00.000Z",
    ...overrides,
  };
}

export function makeMessage(overrides: Partial<MessageDTO> = {}): MessageDTO {
  return {
    id: 1,
    ticketId: 1,
    contactId: 101,
    body: "Olá",
    fromMe: false,
    mediaType: "chat",
    mediaUrl: null,
    mediaName: null,
    mimeType: null,
    quotedMsg: null,
    read: false,
    ack: 0,
    isDeleted: false,
    status: "sent",
    participant: null,
    createdAt: "2025-01-01T10:00:00.000Z",
    contact: null,
    ...overrides,
  };
}
