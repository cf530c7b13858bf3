import type { ConnectionStatus } from "@balcao/shared";
import { Chip, type ChipProps } from "@mui/material";
import { useTranslation } from "react-i18next";

const COLORS: Record<ConnectionStatus, ChipProps["color"]> = {
  CONNECTED: "success",
  qrcode: "warning",
  PAIRING: "warning",
  OPENING: "info",
  TIMEOUT: "warning",
  DISCONNECTED: "error",
};

/** A connection's status as a coloured label (spec §4 connection states). */
export function ConnectionStatusChip({ status }: { status: ConnectionStatus }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={COLORS[status] ?? "default"}
      label={t(`connections.status.${status}`, { defaultValue: status })}
      data-testid="connection-status"
      data-status={status}
    />
  );
}
