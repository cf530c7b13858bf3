import type { ConnectionDTO } from "@balcao/shared";
import { Button } from "@mui/material";
import Autorenew from "@mui/icons-material/Autorenew";
import { enqueueSnackbar } from "../../components/toasts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { toastError } from "../../components/toastError";
import { useRegenerateToken } from "./api";

/**
 * "Gerar novo token" for the send API (issue 19), after a confirmation: integrations using the old token stop
 * working at once. Used by the connection modal and the messages API page.
 */
export function RegenerateTokenButton({
  connection,
  onRegenerated,
}: {
  connection: Pick<ConnectionDTO, "id" | "name">;
  onRegenerated?: (c: ConnectionDTO) => void;
}) {
  const { t } = useTranslation();
  const regenerate = useRegenerateToken();
  const [confirming, setConfirming] = useState(false);

  const confirm = async () => {
    try {
      const updated = await regenerate.mutateAsync(connection.id);
      enqueueSnackbar(t("connections.token.regenerated"), { variant: "success" });
      onRegenerated?.(updated);
    } catch (err) {
      toastError(err);
    } finally {
      setConfirming(false);
    }
  };

  return (
    <>
      <Button type="button" variant="outlined" color="warning" startIcon={<Autorenew />} onClick={() => setConfirming(true)}>
        {t("connections.token.regenerate")}
      </Button>
      <ConfirmationDialog
        open={confirming}
        title={t("connections.token.confirmTitle", { name: connection.name })}
        confirmLabel={t("connections.token.confirm")}
        loading={regenerate.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => void confirm()}
      >
        {t("connections.token.confirmMessage")}
      </ConfirmationDialog>
    </>
  );
}
