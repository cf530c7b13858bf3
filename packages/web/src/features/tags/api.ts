import type { TagCreateBody, TagDTO, TagListResponse, TagUpdateBody } from "@balcao/shared";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useSocketEvent } from "../../api/SocketProvider";
import { api } from "../../api/client";
import { tagKeys } from "./queryKeys";
import { patchTagsCache, type TagEvent } from "./tagsCache";

export function useTagsList(searchParam: string) {
  return useInfiniteQuery({
    queryKey: tagKeys.list(searchParam),
    queryFn: ({ pageParam, signal }) => api.get<TagListResponse>("/tags/", { searchParam, pageNumber: pageParam }, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export function useSaveTag(tagId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TagCreateBody | TagUpdateBody) => (tagId ? api.put<TagDTO>(`/tags/${tagId}`, body) : api.post<TagDTO>("/tags", body)),
    onSuccess: (tag) => patchTagsCache(queryClient, { action: tagId ? "update" : "create", tag }),
  });
}

export function useDeleteTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tagId: number) => api.delete(`/tags/${tagId}`),
    onSuccess: (_data, tagId) => patchTagsCache(queryClient, { action: "delete", tagId }),
  });
}

/** Keeps cached tag lists in step with the `tag` socket event. */
export function useTagsRealtime(): void {
  const queryClient = useQueryClient();
  useSocketEvent<TagEvent>("tag", (event) => patchTagsCache(queryClient, event));
}
