import type { ContactListDTO, ContactListEvent, ContactListImportDTO, ContactListItemDTO, ContactListItemEvent } from "@balcao/shared";
import { rooms, type EventDelivery, type SocketEmit } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "contactLists.created": { record: ContactListDTO };
    /** Renamed, or its contacts count changed (an item added or removed, an import ended). */
    "contactLists.updated": { record: ContactListDTO };
    "contactLists.deleted": { contactListId: number };
    /** An import was queued, progressed or ended (`record` = the list with its new count, at the end). */
    "contactLists.import": { import: ContactListImportDTO; record?: ContactListDTO };
    "contactListItems.created": { record: ContactListItemDTO };
    /** Edited, or its WhatsApp check answered. */
    "contactListItems.updated": { record: ContactListItemDTO };
    "contactListItems.deleted": { id: number; contactListId: number };
    /** Many items of a list changed at once (an import, a batch of WhatsApp checks). */
    "contactListItems.reload": { contactListId: number };
  }
}

/**
 * `ContactList` and `ContactListItem` (spec §7), to the company's admins only (contact lists are an admin
 * screen, see policy.ts). Item events go out twice: as `ContactListItem` and as `ContactListItem-{listId}`
 * ("also per list"), so a page showing one list can listen to that list alone.
 */
export const deliverContactListEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  const to = rooms.admins(event.companyId);
  const list = (payload: ContactListEvent) => emits.push({ event: "ContactList", rooms: to, payload });
  const item = (contactListId: number, payload: ContactListItemEvent) => {
    emits.push({ event: "ContactListItem", rooms: to, payload });
    emits.push({ event: `ContactListItem-${contactListId}`, rooms: to, payload });
  };
  switch (event.type) {
    case "contactLists.created":
    case "contactLists.updated":
      list({ action: event.type === "contactLists.created" ? "create" : "update", record: event.record });
      break;
    case "contactLists.deleted":
      list({ action: "delete", id: event.contactListId });
      break;
    case "contactLists.import":
      list({ action: "import", import: event.import, ...(event.record && { record: event.record }) });
      break;
    case "contactListItems.created":
    case "contactListItems.updated":
      item(event.record.contactListId, { action: event.type === "contactListItems.created" ? "create" : "update", record: event.record });
      break;
    case "contactListItems.deleted":
      item(event.contactListId, { action: "delete", id: event.id, contactListId: event.contactListId });
      break;
    case "contactListItems.reload":
      item(event.contactListId, { action: "reload", contactListId: event.contactListId });
      break;
  }
  return emits;
};
