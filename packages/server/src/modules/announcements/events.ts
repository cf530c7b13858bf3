import type { AnnouncementDTO, AnnouncementEvent } from "@balcao/shared";
import { rooms, type EventDelivery, type SocketEmit } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    /** companyId is the author's company; the audience is every company. `wasActive`: before the change. */
    "announcements.created": { announcement: AnnouncementDTO };
    "announcements.updated": { announcement: AnnouncementDTO; wasActive: boolean };
    "announcements.deleted": { announcementId: number; wasActive: boolean };
  }
}

/**
 * `announcement` (spec §7) to every signed-in socket of every company (the platform room). An inactive
 * announcement is a draft: it goes out only when it stops being visible (so open popovers drop it).
 */
export const deliverAnnouncementEvents: EventDelivery = (event) => {
  let payload: AnnouncementEvent | undefined;
  switch (event.type) {
    case "announcements.created":
      if (event.announcement.status) payload = { action: "create", record: event.announcement };
      break;
    case "announcements.updated":
      if (event.announcement.status || event.wasActive) payload = { action: "update", record: event.announcement };
      break;
    case "announcements.deleted":
      if (event.wasActive) payload = { action: "delete", id: event.announcementId };
      break;
  }
  const emits: SocketEmit[] = payload ? [{ event: "announcement", rooms: rooms.platform(), payload }] : [];
  return emits;
};
