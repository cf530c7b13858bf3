import type {
  ContactDTO,
  ContactListResponse,
  ScheduleCreateBody,
  ScheduleDTO,
  ScheduleEvent,
  ScheduleListResponse,
  ScheduleUpdateBody,
} from "@balcao/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { useSocketEvent } from "../../api/SocketProvider";
import { usePagedQuery } from "../../components/list/useListData";
import { contactKeys } from "../contacts/queryKeys";
import { scheduleKeys } from "./queryKeys";
import { patchSchedulesCache } from "./schedulesCache";

export function useSchedulesList(searchParam: string) {
  return usePagedQuery<ScheduleListResponse>(scheduleKeys.list(searchParam), "/schedules/", searchParam);
}

export function useSaveSchedule(scheduleId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ScheduleCreateBody | ScheduleUpdateBody) =>
      scheduleId ? api.put<ScheduleDTO>(`/schedules/${scheduleId}`, body) : api.post<ScheduleDTO>("/schedules", body),
    onSuccess: (schedule) => patchSchedulesCache(queryClient, { action: scheduleId ? "update" : "create", schedule }),
  });
}

export function useRetrySchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (scheduleId: number) => api.post<ScheduleDTO>(`/schedules/${scheduleId}/retry`),
    onSuccess: (schedule) => patchSchedulesCache(queryClient, { action: "update", schedule }),
  });
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (scheduleId: number) => api.delete(`/schedules/${scheduleId}`),
    onSuccess: (_answer, scheduleId) => patchSchedulesCache(queryClient, { action: "delete", scheduleId }),
  });
}

/** The contact named by /schedules?contactId= (prefills the new-schedule dialog). */
export function useContactRef(contactId: number | null) {
  return useQuery({
    queryKey: contactKeys.detail(contactId ?? 0),
    queryFn: ({ signal }) => api.get<ContactDTO>(`/contacts/${contactId}`, undefined, { signal }),
    enabled: !!contactId,
    retry: false,
  });
}

/** Keeps the cached lists in step with the `schedule` socket event (other users' saves, sends, failures). */
export function useSchedulesRealtime(onEvent?: (event: ScheduleEvent) => void): void {
  const queryClient = useQueryClient();
  useSocketEvent<ScheduleEvent>("schedule", (event) => {
    patchSchedulesCache(queryClient, event);
    onEvent?.(event);
  });
}

/** Spec §5/§9: contact search starts at 3 characters (the dialog debounces 500 ms). */
export const CONTACT_SEARCH_MIN = 3;

export function useContactOptions(searchParam: string) {
  return useQuery({
    // Not under contactKeys.lists(): those entries are paged lists the contacts cache patches.
    queryKey: [...scheduleKeys.all, "contactOptions", searchParam],
    queryFn: ({ signal }) => api.get<ContactListResponse>("/contacts", { searchParam, pageNumber: 1 }, { signal }),
    enabled: searchParam.length >= CONTACT_SEARCH_MIN,
    retry: false,
    select: (data) => (Array.isArray(data?.contacts) ? data.contacts : ([] as ContactDTO[])),
  });
}
