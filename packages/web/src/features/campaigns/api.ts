import {
  campaignSettingsFromRows,
  type CampaignBody,
  type CampaignDetailDTO,
  type CampaignDTO,
  type CampaignEvent,
  type CampaignListResponse,
  type CampaignSettingRow,
  type CampaignSettings,
  type CampaignShippingListResponse,
  type CampaignShippingStatus,
  type ContactListDTO,
} from "@balcao/shared";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { useSocketEvent } from "../../api/SocketProvider";
import { usePagedQuery } from "../../components/list/useListData";
import { fetchMediaBlob } from "../messages/media";
import { patchCampaignsCache } from "./campaignsCache";
import { campaignKeys } from "./queryKeys";

/** GET /campaigns/ (searchParam, pageNumber → records, hasMore). */
export function useCampaignsList(searchParam: string) {
  return usePagedQuery<CampaignListResponse>(campaignKeys.list(searchParam), "/campaigns/", searchParam);
}

/** GET /campaigns/:id (the report page). */
export function useCampaign(id: number | null) {
  return useQuery({
    queryKey: campaignKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<CampaignDetailDTO>(`/campaigns/${id}`, undefined, { signal }),
    enabled: !!id,
    retry: false,
  });
}

/** GET /campaigns/:id/shipping (searchParam, status, pageNumber → records, hasMore): the report's rows. */
export function useCampaignShipping(id: number, searchParam: string, status: CampaignShippingStatus | "") {
  return useInfiniteQuery({
    queryKey: campaignKeys.shippingList(id, searchParam, status),
    queryFn: ({ pageParam, signal }) =>
      api.get<CampaignShippingListResponse>(
        `/campaigns/${id}/shipping`,
        { searchParam, status: status || undefined, pageNumber: pageParam },
        { signal },
      ),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** POST /campaigns or PUT /campaigns/:id. */
export function useSaveCampaign(campaignId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CampaignBody) =>
      campaignId ? api.put<CampaignDTO>(`/campaigns/${campaignId}`, body) : api.post<CampaignDTO>("/campaigns", body),
    onSuccess: (record) => patchCampaignsCache(queryClient, { action: campaignId ? "update" : "create", record }),
  });
}

export function useDeleteCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/campaigns/${id}`),
    onSuccess: (_answer, id) => patchCampaignsCache(queryClient, { action: "delete", id }),
  });
}

/** POST /campaigns/:id/cancel (EM_ANDAMENTO → CANCELADA) or /restart (CANCELADA → EM_ANDAMENTO). */
export function useCampaignCommand() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, command }: { id: number; command: "cancel" | "restart" }) => api.post<CampaignDTO>(`/campaigns/${id}/${command}`),
    onSuccess: (record) => patchCampaignsCache(queryClient, { action: "update", record }),
  });
}

/** POST /campaigns/:id/media-upload (multipart, field `file`) or DELETE it. */
export function useCampaignMedia() {
  const queryClient = useQueryClient();
  const patch = (record: CampaignDTO) => patchCampaignsCache(queryClient, { action: "update", record });
  const upload = useMutation({
    mutationFn: ({ id, file }: { id: number; file: File }) => {
      const body = new FormData();
      body.append("file", file, file.name);
      return api.post<CampaignDTO>(`/campaigns/${id}/media-upload`, body);
    },
    onSuccess: patch,
  });
  const remove = useMutation({ mutationFn: (id: number) => api.delete<CampaignDTO>(`/campaigns/${id}/media-upload`), onSuccess: patch });
  return { upload, remove };
}

/** Downloads the campaign's shipping rows as CSV (GET /campaigns/:id/export, with the bearer token). */
export async function downloadCampaignCsv(id: number): Promise<void> {
  const blob = await fetchMediaBlob(`/api/campaigns/${id}/export`);
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `campanha-${id}.csv`;
  link.style.display = "none";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** GET /campaign-settings. */
export function useCampaignSettings() {
  return useQuery({
    queryKey: campaignKeys.settings,
    queryFn: async ({ signal }) => campaignSettingsFromRows(await api.get<CampaignSettingRow[]>("/campaign-settings", undefined, { signal })),
  });
}

/** POST /campaign-settings { settings }. */
export function useSaveCampaignSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: CampaignSettings) => api.post<CampaignSettingRow[]>("/campaign-settings", { settings }),
    onSuccess: (rows, settings) => queryClient.setQueryData(campaignKeys.settings, Array.isArray(rows) ? campaignSettingsFromRows(rows) : settings),
  });
}

/** The company's contact lists for the campaign's list select (GET /contact-lists/list). */
export function useContactListOptions(enabled = true) {
  return useQuery({
    queryKey: campaignKeys.contactListOptions,
    queryFn: ({ signal }) => api.get<ContactListDTO[]>("/contact-lists/list", undefined, { signal }),
    enabled,
    select: (rows) => (Array.isArray(rows) ? rows : []),
  });
}

/** Keeps the cached lists and campaign in step with the `campaign` socket event (progress, status, edits). */
export function useCampaignsRealtime(onEvent?: (event: CampaignEvent) => void): void {
  const queryClient = useQueryClient();
  useSocketEvent<CampaignEvent>("campaign", (event) => {
    patchCampaignsCache(queryClient, event);
    onEvent?.(event);
  });
}
