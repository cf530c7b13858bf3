import type { QueueRefDTO, UserCreateBody, UserDTO, UserListResponse, UserUpdateBody } from "@balcao/shared";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { queryKeys } from "../../api/queryKeys";
import { patchUsersCache } from "./usersCache";

export function useUsersList(searchParam: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.users.list(searchParam),
    queryFn: ({ pageParam, signal }) => api.get<UserListResponse>("/users/", { searchParam, pageNumber: pageParam }, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
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

export function useSaveUser(userId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UserCreateBody | UserUpdateBody) =>
      userId ? api.put<UserDTO>(`/users/${userId}`, body) : api.post<UserDTO>("/users", body),
    onSuccess: (user) => patchUsersCache(queryClient, { action: userId ? "update" : "create", user }),
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => api.delete(`/users/${userId}`),
    onSuccess: (_data, userId) => patchUsersCache(queryClient, { action: "delete", userId }),
  });
}
