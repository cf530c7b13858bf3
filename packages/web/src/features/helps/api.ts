import type { HelpCreateBody, HelpDTO, HelpListResponse, HelpUpdateBody } from "@balcao/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { usePagedQuery } from "../../components/list/useListData";

export const helpKeys = {
  root: ["helps"] as const,
  all: ["helps", "all"] as const,
  list: (searchParam: string) => ["helps", "list", searchParam] as const,
};

/** GET /helps/list: every help video, by title (the help page). */
export function useHelpsAll() {
  return useQuery({ queryKey: helpKeys.all, queryFn: ({ signal }) => api.get<HelpDTO[]>("/helps/list", undefined, { signal }), staleTime: 60_000 });
}

/** GET /helps: pages of 20 (the super user's Ajuda tab). */
export function useHelpsList(searchParam: string) {
  return usePagedQuery<HelpListResponse>(helpKeys.list(searchParam), "/helps", searchParam);
}

export function useSaveHelp(helpId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: HelpCreateBody | HelpUpdateBody) => (helpId ? api.put<HelpDTO>(`/helps/${helpId}`, body) : api.post<HelpDTO>("/helps", body)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: helpKeys.root }),
  });
}

export function useDeleteHelp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (helpId: number) => api.delete(`/helps/${helpId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: helpKeys.root }),
  });
}

/** The privacy-enhanced YouTube embed of a video code (the CSP allows this frame source). */
export const embedUrl = (video: string) => `https://www.youtube-nocookie.com/embed/${encodeURIComponent(video)}`;
