import type { ConnectionStatus, SimulatorConnectionAnswer } from "@balcao/shared";
import { Box, Button } from "@mui/material";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { enqueueSnackbar } from "../../components/toasts";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../api/client";
import { toastError } from "../../components/toastError";
import { simulatorKeys, type SimulatorAccess } from "./api";

type Change = "lost" | "back" | "replaced";

/**
 * Drops the simulated WhatsApp connection ("connection lost", TIMEOUT) or brings it back (CONNECTED), so what
 * happens to replies sent meanwhile can be seen (issue 21: they wait and go once when it is back); the customers'
 * messages written meanwhile arrive then too, as one late batch. "Another session took over" leaves it
 * DISCONNECTED with the pairing kept (an admin starts it again on the connections page).
 */
export function ConnectionDropButton({ access, status }: { access: SimulatorAccess; status: ConnectionStatus }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (state: Change) =>
      apiRequest<SimulatorConnectionAnswer>(`/simulator/${access.connectionId}/connection`, {
        method: "POST",
        body: { state },
        anonymous: access.key !== null,
        query: access.key !== null ? { key: access.key } : undefined,
      }),
    onSuccess: (answer) => {
      if (answer?.delivered) enqueueSnackbar(t("simulator.connection.delivered", { count: answer.delivered }), { variant: "success" });
      return queryClient.invalidateQueries({ queryKey: simulatorKeys.state(access) });
    },
  });
  if (status !== "CONNECTED" && status !== "TIMEOUT") return null;
  const run = (state: Change) => void change.mutateAsync(state).catch(toastError);
  if (status === "TIMEOUT")
    return (
      <Button size="small" variant="outlined" disabled={change.isPending} onClick={() => run("back")}>
        {t("simulator.connection.restore")}
      </Button>
    );
  return (
    <Box sx={{ display: "flex", gap: 1 }}>
      <Button size="small" variant="outlined" disabled={change.isPending} onClick={() => run("lost")}>
        {t("simulator.connection.drop")}
      </Button>
      <Button size="small" variant="outlined" color="warning" disabled={change.isPending} onClick={() => run("replaced")}>
        {t("simulator.connection.replace")}
      </Button>
    </Box>
  );
}
