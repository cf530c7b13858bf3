import { Alert, AppBar, Box, Button, Divider, List, ListItemButton, ListItemText, Paper, Toolbar, Typography, useMediaQuery } from "@mui/material";
import PhoneIphone from "@mui/icons-material/PhoneIphone";
import { MOBILE_BREAKPOINT_PX } from "@balcao/shared";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { errorText } from "../../components/toastError";
import { ConnectionStatusChip } from "../connections/ConnectionStatusChip";
import { useSimulatorActions, useSimulatorConnections, useSimulatorState, type SimulatorAccess } from "./api";
import { ConnectionDropButton } from "./ConnectionDropButton";
import { GroupsPanel } from "./GroupsPanel";
import { PairingPanel } from "./PairingPanel";
import { PhoneChat } from "./PhoneChat";
import { AddPhoneForm, PhoneList } from "./PhoneList";

/**
 * The customer's phone (/simulator/:connectionId?): pick a simulator connection, pair it by "scanning" its
 * QR, then act as one or more customers of that connection. `accessKey` = the secret link's key (no sign-in).
 */
export default function SimulatorPage({ accessKey }: { accessKey: string | null }) {
  const { t } = useTranslation();
  const params = useParams();
  const connectionId = params.connectionId && /^\d+$/.test(params.connectionId) ? Number(params.connectionId) : null;

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100vh", bgcolor: "background.default" }}>
      <AppBar position="static" color="primary" elevation={1}>
        <Toolbar variant="dense" sx={{ gap: 1 }}>
          <PhoneIphone />
          <Typography variant="h6" component="h1" sx={{ flexGrow: 1 }}>
            {t("simulator.title")}
          </Typography>
          {accessKey === null && (
            <>
              {connectionId !== null && (
                <Button color="inherit" component={RouterLink} to="/simulator">
                  {t("simulator.switchConnection")}
                </Button>
              )}
              <Button color="inherit" component={RouterLink} to="/connections">
                {t("simulator.backToConnections")}
              </Button>
            </>
          )}
        </Toolbar>
      </AppBar>
      <Box component="main" sx={{ flex: 1, minHeight: 0, p: { xs: 1, sm: 2 }, display: "flex", flexDirection: "column" }}>
        {connectionId === null ? (
          accessKey === null ? (
            <ConnectionPicker />
          ) : (
            <EmptyState title={t("simulator.invalidLink")} />
          )
        ) : (
          <ConnectionSimulator access={{ connectionId, key: accessKey }} />
        )}
      </Box>
    </Box>
  );
}

/** Signed in without a connection in the URL: the company's simulator connections. */
function ConnectionPicker() {
  const { t } = useTranslation();
  const list = useSimulatorConnections(true);
  if (list.isLoading) return <LoadingState />;
  if (list.isError)
    return (
      <EmptyState
        title={t("simulator.loadFailed")}
        description={errorText(list.error)}
        action={<Button onClick={() => void list.refetch()}>{t("simulator.tryAgain")}</Button>}
      />
    );
  const connections = list.data ?? [];
  if (connections.length === 0) return <EmptyState title={t("simulator.noConnections")} description={t("simulator.noConnectionsHint")} />;
  return (
    <Paper variant="outlined" sx={{ maxWidth: 480, width: "100%", mx: "auto" }}>
      <Typography variant="subtitle1" component="h2" sx={{ px: 2, pt: 2 }}>
        {t("simulator.pickConnection")}
      </Typography>
      <List aria-label={t("simulator.pickConnection")}>
        {connections.map((c) => (
          <ListItemButton key={c.id} component={RouterLink} to={`/simulator/${c.id}`}>
            <ListItemText primary={c.name} />
            <ConnectionStatusChip status={c.status} />
          </ListItemButton>
        ))}
      </List>
    </Paper>
  );
}

function ConnectionSimulator({ access }: { access: SimulatorAccess }) {
  const { t } = useTranslation();
  const wide = useMediaQuery(`(min-width:${MOBILE_BREAKPOINT_PX}px)`, { noSsr: true });
  const state = useSimulatorState(access);
  const actions = useSimulatorActions(access);
  const [selected, setSelected] = useState<string | null>(null);

  if (state.isLoading) return <LoadingState />;
  if (state.isError || !state.data)
    return (
      <EmptyState
        title={t("simulator.loadFailed")}
        description={errorText(state.error)}
        action={<Button onClick={() => void state.refetch()}>{t("simulator.tryAgain")}</Button>}
      />
    );

  const { connection, live, phones, paired, queued = 0 } = state.data;
  const phone = phones.find((p) => p.number === selected) ?? null;
  const connected = connection.status === "CONNECTED";
  // Linked but down (lost, taken over, not running): customers still write; it waits for the connection (issue 21).
  const offline = !connected && !!paired && connection.status !== "qrcode" && connection.status !== "PAIRING";

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5, flex: 1, minHeight: 0 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="subtitle1" component="h2" data-testid="simulator-connection-name">
          {connection.name}
        </Typography>
        <ConnectionStatusChip status={connection.status} />
        {live && <ConnectionDropButton access={access} status={connection.status} />}
      </Box>
      {!connected && !offline ? (
        <PairingPanel state={state.data} actions={actions} />
      ) : (
        <>
          {connected && !live && <Alert severity="warning">{t("simulator.notLive")}</Alert>}
          {offline && (
            <Alert severity="info" data-testid="simulator-offline">
              {t(connection.status === "DISCONNECTED" ? "simulator.late.disconnected" : "simulator.late.lost")}
              {queued > 0 && ` ${t("simulator.late.waiting", { count: queued })}`}
            </Alert>
          )}
          <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, display: "flex", overflow: "hidden", maxWidth: 1100, width: "100%", mx: "auto" }}>
            {(wide || !phone) && (
              <Box
                component="section"
                aria-label={t("simulator.phones.title")}
                sx={{
                  width: wide ? 300 : "100%",
                  flexShrink: 0,
                  borderRight: wide ? 1 : 0,
                  borderColor: "divider",
                  display: "flex",
                  flexDirection: "column",
                  minHeight: 0,
                }}
              >
                <AddPhoneForm actions={actions} onAdded={setSelected} disabled={connected && !live} />
                <Divider />
                <Typography variant="subtitle2" component="h3" sx={{ px: 1.5, pt: 1 }}>
                  {t("simulator.phones.title")}
                </Typography>
                <Box sx={{ flex: 1, minHeight: 0, overflowY: "auto" }}>
                  <PhoneList phones={phones} selected={selected} onSelect={setSelected} />
                  <Divider />
                  <GroupsPanel access={access} disabled={!live || offline} />
                </Box>
              </Box>
            )}
            {phone ? (
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <PhoneChat
                  access={access}
                  phone={phone}
                  actions={actions}
                  disabled={connected && !live}
                  offline={offline}
                  onBack={wide ? undefined : () => setSelected(null)}
                />
              </Box>
            ) : (
              wide && (
                <Box sx={{ flex: 1, display: "flex", alignItems: "center", justifyContent: "center" }}>
                  <EmptyState title={t("simulator.pickPhone")} description={t("simulator.pickPhoneHint")} />
                </Box>
              )
            )}
          </Paper>
        </>
      )}
    </Box>
  );
}
