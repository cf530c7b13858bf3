/**
 * useSaveRecord / useDeleteRecord — the add/edit and delete calls behind a list page and its modal.
 *
 *   export const useSaveTag = (tagId?: number) =>
 *     useSaveRecord<TagCreateBody | TagUpdateBody, TagDTO>("/tags", tagId, (queryClient, tag, action) => patchTagsCache(queryClient, { action, tag }));
 *   export const useDeleteTag = () => useDeleteRecord("/tags", (queryClient, tagId) => patchTagsCache(queryClient, { action: "delete", tagId }));
 *
 * Saving POSTs `path` for a new record and PUTs `path/id` for an existing one; the callbacks get the answer
 * so the cached lists change at once (the socket event that follows patches them to the same state).
 */
import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";

export function useSaveRecord<TBody, TRecord>(
  path: string,
  id: number | undefined,
  onSaved: (queryClient: QueryClient, record: TRecord, action: "create" | "update") => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TBody) => (id ? api.put<TRecord>(`${path}/${id}`, body) : api.post<TRecord>(path, body)),
    onSuccess: (record) => onSaved(queryClient, record, id ? "update" : "create"),
  });
}

export function useDeleteRecord(path: string, onDeleted: (queryClient: QueryClient, id: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`${path}/${id}`),
    onSuccess: (_answer, id) => onDeleted(queryClient, id),
  });
}
