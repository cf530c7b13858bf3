import type { ConnectionStatus } from "@balcao/shared";
import { Button } from "@mui/material";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../api/client";
import { toastError } from "../../components/toastError";
import { simulatorKeys, type SimulatorAccess } from "./api";

/**
 * Drops the simulated WhatsApp connection ("connection lost", TIMEOUT) or brings it back (CONNECTED), so what
 * happens to replies sent meanwhile can be seen (issue 21: they wait and go once when it is back).
 */
export function ConnectionDropButton({ access, status }: { access: SimulatorAccess; status: ConnectionStatus }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (state: "lost" | "back") =>
      apiRequest<{ status: ConnectionStatus }>(`/simulator/${access.connectionId}/connection`, {
        method: "POST",
        body: { state },
        anonymous: access.key !== null,
        query: access.key !== null ? { key: access.key } : undefined,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: simulatorKeys.state(access) }),
  });
  if (status !== "CONNECTED" && status !== "TIMEOUT") return null;
  const state = status === "CONNECTED" ? "lost" : "back";
  return (
    <Button size="small" variant="outlined" disabled={change.isPending} onClick={() => void change.mutateAsync(state).catch(toastError)}>
      {t(state === "lost" ? "simulator.connection.drop" : "simulator.connection.restore")}
    </Button>
  );
}
