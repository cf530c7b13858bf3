import type { AnnouncementDTO, AnnouncementPriority } from "@balcao/shared";
import type { announcements } from "../../db/schema";

type AnnouncementRow = typeof announcements.$inferSelect;

/** The attachment's URL: authorised for any signed-in user; the media id in it changes when the file does. */
export const announcementMediaUrl = (id: number, mediaId: string) => `/api/announcements/${id}/media/${mediaId}`;

export function presentAnnouncement(a: AnnouncementRow, read?: boolean): AnnouncementDTO {
  return {
    id: a.id,
    title: a.title,
    text: a.text,
    priority: (a.priority >= 1 && a.priority <= 3 ? a.priority : 3) as AnnouncementPriority,
    mediaPath: a.mediaPath ? announcementMediaUrl(a.id, a.mediaPath) : null,
    mediaName: a.mediaPath ? a.mediaName : null,
    status: a.status,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
    ...(read !== undefined && { read }),
  };
}
