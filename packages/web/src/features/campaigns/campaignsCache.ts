import type { CampaignDetailDTO, CampaignDTO, CampaignEvent } from "@balcao/shared";
import type { QueryClient } from "@tanstack/react-query";
import { containsSearch, mergeRow, patchPagedLists } from "../../components/list/listCache";
import { campaignKeys } from "./queryKeys";

/** The server's search: the campaign's name, ignoring case and accents. */
export const matchesCampaignSearch = (c: CampaignDTO, search: string) => containsSearch(search, c.name);

/** The server's order: newest first. */
export const byNewest = (a: CampaignDTO, b: CampaignDTO) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id;

/** Applies a `campaign` event (or a save answer) to every cached campaigns list and to the cached report. */
export function patchCampaignsCache(queryClient: QueryClient, event: CampaignEvent): void {
  if (event.action === "progress") {
    queryClient.setQueryData<CampaignDetailDTO>(campaignKeys.detail(event.campaignId), (old) => old && { ...old, counts: event.counts });
    return;
  }
  patchPagedLists(
    queryClient,
    { listsKey: campaignKeys.lists(), field: "records", matches: matchesCampaignSearch, compare: byNewest },
    event.action === "delete" ? { remove: event.id } : { upsert: event.record },
  );
  if (event.action === "delete") queryClient.removeQueries({ queryKey: campaignKeys.detail(event.id) });
  else queryClient.setQueryData<CampaignDetailDTO>(campaignKeys.detail(event.record.id), (old) => old && mergeRow(old, { ...old, ...event.record }));
}
