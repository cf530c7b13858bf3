import type { ScheduleDTO, ScheduleEvent } from "@balcao/shared";
import type { QueryClient } from "@tanstack/react-query";
import { containsSearch, patchPagedLists } from "../../components/list/listCache";
import { scheduleKeys } from "./queryKeys";

/** The server's search (docs/api.md): the body or the contact's name, ignoring case and accents. */
export const matchesScheduleSearch = (s: ScheduleDTO, search: string) => containsSearch(search, s.body, s.contact?.name);

/** The server's order: newest first. */
export const byNewest = (a: ScheduleDTO, b: ScheduleDTO) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id;

/** Applies a create/update/delete to every cached schedules list (socket events and save answers alike). */
export function patchSchedulesCache(queryClient: QueryClient, event: ScheduleEvent): void {
  patchPagedLists(
    queryClient,
    { listsKey: scheduleKeys.lists(), field: "schedules", matches: matchesScheduleSearch, compare: byNewest },
    event.action === "delete" ? { remove: event.scheduleId } : { upsert: event.schedule },
  );
}
