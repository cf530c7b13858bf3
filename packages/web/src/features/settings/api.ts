import type { SettingDTO } from "@balcao/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
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

/** Applies the `settings` socket event to the cached list. */
export function useSettingsRealtime(): void {
  const queryClient = useQueryClient();
  useSocketEvent<{ action: "update"; setting: SettingDTO }>("settings", ({ setting }) => {
    queryClient.setQueryData<SettingDTO[]>(queryKeys.settings, (old) =>
      old ? (old.some((s) => s.key === setting.key) ? old.map((s) => (s.key === setting.key ? setting : s)) : [...old, setting]) : old,
    );
  });
}
