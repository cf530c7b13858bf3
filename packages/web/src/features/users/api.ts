import type { QueueRefDTO, UserCreateBody, UserDTO, UserListResponse, UserUpdateBody } from "@balcao/shared";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { queryKeys } from "../../api/queryKeys";
import { useDeleteRecord, useSaveRecord } from "../../components/list/recordMutations";
import { usePagedQuery } from "../../components/list/useListData";
import { patchUsersCache } from "./usersCache";

export function useUsersList(searchParam: string) {
  return usePagedQuery<UserListResponse>(queryKeys.users.list(searchParam), "/users/", searchParam);
}

/** The company's queues for the user modal; the endpoint may not exist yet, so errors mean "no options". */
export function useQueueOptions(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.queues,
    queryFn: () => api.get<QueueRefDTO[]>("/queue"),
    enabled,
    retry: false,
    select: (queues) => (Array.isArray(queues) ? queues : []),
  });
}

export const useSaveUser = (userId: number | undefined) =>
  useSaveRecord<UserCreateBody | UserUpdateBody, UserDTO>("/users", userId, (queryClient, user, action) =>
    patchUsersCache(queryClient, { action, user }),
  );

export const useDeleteUser = () => useDeleteRecord("/users", (queryClient, userId) => patchUsersCache(queryClient, { action: "delete", userId }));
