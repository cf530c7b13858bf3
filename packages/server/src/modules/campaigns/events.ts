import type { CampaignCounts, CampaignDTO, CampaignEvent } from "@balcao/shared";
import { rooms, type EventDelivery } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "campaigns.created": { campaign: CampaignDTO };
    /** Edited, or its state moved (started, paused, resumed, cancelled, restarted, finished). */
    "campaigns.updated": { campaign: CampaignDTO };
    "campaigns.deleted": { campaignId: number };
    /** A shipping row moved (a message or confirmation went out, a reply confirmed): the report's counters. */
    "campaigns.progress": { campaignId: number; counts: CampaignCounts };
    /**
     * A shipping now awaits the contact's reply. No socket sees it: it tells every process's read cache that this
     * company's customer messages must be checked for confirmations again (cache/readCache.ts).
     */
    "campaigns.confirmationRequested": { campaignId: number; contactId: number | null };
  }
}

/** `campaign` to the company's admins (campaigns are an admin page, spec §6). */
export const deliverCampaignEvents: EventDelivery = (event) => {
  const to = (payload: CampaignEvent) => [{ event: "campaign", rooms: rooms.admins(event.companyId), payload }];
  switch (event.type) {
    case "campaigns.created":
      return to({ action: "create", record: event.campaign });
    case "campaigns.updated":
      return to({ action: "update", record: event.campaign });
    case "campaigns.deleted":
      return to({ action: "delete", id: event.campaignId });
    case "campaigns.progress":
      return to({ action: "progress", campaignId: event.campaignId, counts: event.counts });
  }
  return [];
};
