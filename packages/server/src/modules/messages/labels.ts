/** Ticket-list preview of a message (spec §2: a location shows 'Localização'). */
export function previewOf(kind: string, body: string, fileName?: string | null): string {
  switch (kind) {
    case "location":
      return "Localização";
    case "vcard":
      return "Contato";
    case "call_log":
      return body;
    case "image":
      return body || "Imagem";
    case "video":
      return body || "Vídeo";
    case "audio":
      return "Áudio";
    case "sticker":
      return "Figurinha";
    case "document":
      return body || fileName || "Documento";
    default:
      return body;
  }
}
