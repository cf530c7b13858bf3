import type { CompanyCreateBody, CompanyDTO, CompanyListResponse, CompanyUpdateBody, SettingDTO } from "@balcao/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { usePagedQuery } from "../../components/list/useListData";
import { planKeys } from "../plans/api";

/** The super user's company queries (GET /companies…); apart from the ["companies", id, "schedules"] of settings. */
export const companyKeys = {
  root: ["platform-companies"] as const,
  lists: () => ["platform-companies", "list"] as const,
  list: (searchParam: string) => ["platform-companies", "list", searchParam] as const,
  settings: (companyId: number) => ["platform-companies", companyId, "settings"] as const,
};

export function useCompaniesList(searchParam: string) {
  return usePagedQuery<CompanyListResponse>(companyKeys.list(searchParam), "/companies", searchParam);
}

function useRefreshAfterChange() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: companyKeys.lists() });
    // Plans show how many companies use them.
    void queryClient.invalidateQueries({ queryKey: planKeys.all });
  };
}

export function useCreateCompany() {
  const refresh = useRefreshAfterChange();
  return useMutation({ mutationFn: (body: CompanyCreateBody) => api.post<CompanyDTO>("/companies", body), onSuccess: refresh });
}

export function useUpdateCompany() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: CompanyUpdateBody }) => api.put<CompanyDTO>(`/companies/${id}`, body),
    onSuccess: refresh,
  });
}

export function useDeleteCompany() {
  const refresh = useRefreshAfterChange();
  return useMutation({ mutationFn: (id: number) => api.delete(`/companies/${id}`), onSuccess: refresh });
}

/** Any company's settings (super user). */
export function useCompanySettings(companyId: number, enabled = true) {
  return useQuery({
    queryKey: companyKeys.settings(companyId),
    queryFn: ({ signal }) => api.get<SettingDTO[]>(`/companies/${companyId}/settings`, undefined, { signal }),
    enabled,
  });
}

export function useSaveCompanySetting(companyId: number) {
  const queryClient = useQueryClient();
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ key, value }: SettingDTO) => api.put<SettingDTO>(`/companies/${companyId}/settings/${encodeURIComponent(key)}`, { value }),
    onSuccess: (setting) => {
      queryClient.setQueryData<SettingDTO[]>(companyKeys.settings(companyId), (old) =>
        old ? (old.some((s) => s.key === setting.key) ? old.map((s) => (s.key === setting.key ? setting : s)) : [...old, setting]) : old,
      );
      if (setting.key === "campaignsEnabled") refresh();
    },
  });
}
