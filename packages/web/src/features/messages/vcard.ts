import type { ContactDTO, ContactListResponse, TicketDTO } from "@balcao/shared";
import { api, ApiError } from "../../api/client";

export interface VcardContact {
  name: string;
  /** Digits only (country code + area code + number). */
  number: string;
}

/** Reads the name and the first phone of a vCard (the `waid` parameter wins over the visible number). */
export function parseVcard(body: string): VcardContact {
  const lines = body
    .replace(/\r\n/g, "\n")
    .replace(/\n[ \t]/g, "")
    .split("\n");
  let name = "";
  let number = "";
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).toUpperCase();
    const value = line.slice(colon + 1).trim();
    if (key === "FN" && !name) name = value;
    else if (key.startsWith("N") && key.split(";")[0] === "N" && !name) name = value.split(";").filter(Boolean).reverse().join(" ");
    else if (key.split(";")[0] === "TEL" && !number) {
      const waid = /waid=(\d+)/i.exec(key)?.[1];
      number = waid ?? value.replace(/\D/g, "");
    }
  }
  return { name: name || number, number };
}

/**
 * Starts a ticket with a shared contact: finds it by number (GET /contacts), creates it when missing
 * (POST /contacts), then opens a ticket on the same connection and queue as the current one.
 */
export async function startTicketFromVcard(card: VcardContact, from: Pick<TicketDTO, "queueId" | "whatsappId">): Promise<TicketDTO> {
  let contact: ContactDTO | undefined;
  try {
    const found = await api.get<ContactListResponse>("/contacts", { searchParam: card.number, pageNumber: 1 });
    contact = found.contacts?.find((c) => (c.number ?? "").replace(/\D/g, "").endsWith(card.number.slice(-8)));
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
  contact ??= await api.post<ContactDTO>("/contacts", {
    name: card.name.trim().length >= 2 ? card.name.trim().slice(0, 50) : card.number,
    number: card.number,
  });
  return api.post<TicketDTO>("/tickets", {
    contactId: contact.id,
    status: "open",
    queueId: from.queueId ?? undefined,
    whatsappId: from.whatsappId ?? undefined,
  });
}
