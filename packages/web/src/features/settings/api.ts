import type { CompanySchedulesBody, CompanySchedulesDTO, SettingDTO } from "@balcao/shared";
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { queryKeys } from "../../api/queryKeys";
import { useSocketEvent } from "../../api/SocketProvider";

/** The company's settings (GET /settings); `enabled` false skips the call (e.g. logged out). */
export function useSettings(enabled = true) {
  return useQuery({ queryKey: queryKeys.settings, queryFn: () => api.get<SettingDTO[]>("/settings"), enabled, staleTime: 60_000 });
}

export function useSetting(key: string, enabled = true): string | undefined {
  return useSettings(enabled).data?.find((s) => s.key === key)?.value;
}

/** Replaces (or adds) one setting in the cached list. */
export function patchSettingsCache(queryClient: QueryClient, setting: SettingDTO): void {
  queryClient.setQueryData<SettingDTO[]>(queryKeys.settings, (old) =>
    old ? (old.some((s) => s.key === setting.key) ? old.map((s) => (s.key === setting.key ? setting : s)) : [...old, setting]) : old,
  );
}

/** Applies the `settings` socket event to the cached list. */
export function useSettingsRealtime(): void {
  const queryClient = useQueryClient();
  useSocketEvent<{ action: "update"; setting: SettingDTO }>("settings", ({ setting }) => patchSettingsCache(queryClient, setting));
}

/** PUT /settings/:key (admin): saved at once; the cache takes the server's answer. */
export function useUpdateSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: SettingDTO) => api.put<SettingDTO>(`/settings/${encodeURIComponent(key)}`, { value }),
    onSuccess: (setting) => patchSettingsCache(queryClient, setting),
  });
}

const companySchedulesKey = (companyId: number) => ["companies", companyId, "schedules"] as const;

/** The company's weekly opening hours (GET /companies/:id/schedules), Monday first. */
export function useCompanySchedules(companyId: number | undefined) {
  return useQuery({
    queryKey: companySchedulesKey(companyId ?? 0),
    queryFn: ({ signal }) => api.get<CompanySchedulesDTO>(`/companies/${companyId}/schedules`, undefined, { signal }),
    enabled: !!companyId,
  });
}

export function useSaveCompanySchedules(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanySchedulesBody) => api.put<CompanySchedulesDTO>(`/companies/${companyId}/schedules`, body),
    onSuccess: (data) => queryClient.setQueryData(companySchedulesKey(companyId), data),
  });
}
