import type { ConnectionDTO } from "@balcao/shared";
import { Badge } from "@mui/material";
import SyncAltOutlined from "@mui/icons-material/SyncAltOutlined";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useConnectionHealthAlerts, useConnections, useConnectionsRealtime } from "./api";
import { hasConnectionAlert } from "./connectionsCache";

/** The badge is re-checked this long after the connection list changes (spec §2, §9). */
export const CONNECTION_BADGE_DELAY_MS = 2_000;

/** Whether to show the badge: evaluated CONNECTION_BADGE_DELAY_MS after each change of the list. */
export function useDelayedConnectionAlert(connections: readonly ConnectionDTO[] | undefined): boolean {
  const [alert, setAlert] = useState(false);
  useEffect(() => {
    if (!connections) return;
    const timer = setTimeout(() => setAlert(hasConnectionAlert(connections)), CONNECTION_BADGE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [connections]);
  return alert;
}

/**
 * The drawer's Conexões icon with its exclamation badge when any connection is qrcode, PAIRING,
 * DISCONNECTED, TIMEOUT or OPENING. Rendered only where the item is visible (the admin group), which is also
 * where the admins' `whatsappHealthAlert` toasts are raised.
 */
export function ConnectionsMenuIcon() {
  const { t } = useTranslation();
  const list = useConnections();
  useConnectionsRealtime();
  // Rendered for admins only: the live "connection down" alert of issue 21 (toast).
  useConnectionHealthAlerts();
  const alert = useDelayedConnectionAlert(list.data);
  return (
    <Badge badgeContent="!" color="error" invisible={!alert} overlap="circular" data-testid="connections-badge" data-alert={alert ? "true" : "false"}>
      <SyncAltOutlined titleAccess={alert ? t("connections.badge") : undefined} />
    </Badge>
  );
}
