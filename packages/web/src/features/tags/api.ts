import type { TagCreateBody, TagDTO, TagListResponse, TagUpdateBody } from "@balcao/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useSocketEvent } from "../../api/SocketProvider";
import { useDeleteRecord, useSaveRecord } from "../../components/list/recordMutations";
import { usePagedQuery } from "../../components/list/useListData";
import { tagKeys } from "./queryKeys";
import { patchTagsCache, type TagEvent } from "./tagsCache";

export function useTagsList(searchParam: string) {
  return usePagedQuery<TagListResponse>(tagKeys.list(searchParam), "/tags/", searchParam);
}

export const useSaveTag = (tagId: number | undefined) =>
  useSaveRecord<TagCreateBody | TagUpdateBody, TagDTO>("/tags", tagId, (queryClient, tag, action) => patchTagsCache(queryClient, { action, tag }));

export const useDeleteTag = () => useDeleteRecord("/tags", (queryClient, tagId) => patchTagsCache(queryClient, { action: "delete", tagId }));

/** Keeps cached tag lists in step with the `tag` socket event. */
export function useTagsRealtime(): void {
  const queryClient = useQueryClient();
  useSocketEvent<TagEvent>("tag", (event) => patchTagsCache(queryClient, event));
}
