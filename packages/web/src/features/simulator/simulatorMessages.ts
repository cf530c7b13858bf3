import type { MessageDTO, SimulatorMessageDTO } from "@balcao/shared";

/** Largest file the page sends: the API takes base64 inside a 1 MB JSON body (docs/api.md: ≤ ~700 KB). */
export const MAX_FILE_BYTES = 700 * 1024;

export type MediaKind = "image" | "video" | "audio" | "document";

/** Which message type a picked file becomes, by its content type. */
export function mediaKindOf(mimeType: string): MediaKind {
  if (/^image\/(png|jpe?g|gif|webp)$/i.test(mimeType)) return "image";
  if (/^video\//i.test(mimeType)) return "video";
  if (/^audio\//i.test(mimeType)) return "audio";
  return "document";
}

/** A file's bytes as base64 (without the data: prefix). */
export function readFileAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.onload = () => {
      const result = String(reader.result ?? "");
      resolve(result.slice(result.indexOf(",") + 1));
    };
    reader.readAsDataURL(file);
  });
}

/**
 * A simulated message in the shape the conversation view renders (features/messages MessageContent), seen
 * from the customer's phone: "out" (sent by the customer) is the phone's own message.
 */
export function toMessageDTO(message: SimulatorMessageDTO, index: number, mediaUrl: string | null): MessageDTO {
  return {
    id: index + 1,
    ticketId: 0,
    contactId: null,
    body: message.body,
    fromMe: message.direction === "out",
    mediaType: message.kind,
    mediaUrl: message.hasMedia ? mediaUrl : null,
    mediaName: message.fileName ?? null,
    mimeType: message.mimeType ?? null,
    quotedMsg: null,
    read: message.ack >= 3,
    ack: message.ack,
    isDeleted: message.deleted,
    status: "sent",
    participant: null,
    createdAt: message.timestamp,
    contact: null,
  };
}

/** Short preview of a message for the phone list and the reply banner. */
export function previewOf(message: SimulatorMessageDTO, labels: { deleted: string; kind: (kind: string) => string }): string {
  if (message.deleted) return labels.deleted;
  if (message.kind === "chat") return message.body;
  if (message.kind === "location") return labels.kind("location");
  if (message.kind === "vcard") return labels.kind("vcard");
  return message.body ? `${labels.kind(message.kind)}: ${message.body}` : labels.kind(message.kind);
}
