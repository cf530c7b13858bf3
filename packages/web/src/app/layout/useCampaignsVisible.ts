import { useLocalStorageFlag } from "../../hooks/useLocalStorage";
import { useSettings } from "../../features/settings/api";

/** Both readings of spec §2: the local `cshow` flag, or the company setting campaignsEnabled = 'true'. */
export function useCampaignsVisible(): { visible: boolean; loading: boolean } {
  const cshow = useLocalStorageFlag("cshow");
  const settings = useSettings(!cshow);
  if (cshow) return { visible: true, loading: false };
  const enabled = settings.data?.find((s) => s.key === "campaignsEnabled")?.value === "true";
  return { visible: enabled, loading: settings.isPending && settings.fetchStatus !== "idle" };
}
