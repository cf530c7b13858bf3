import { MOBILE_BREAKPOINT_PX, type TicketDTO } from "@balcao/shared";
import { BottomNavigation, BottomNavigationAction, Box, Button, Paper, Typography } from "@mui/material";
import ChatOutlined from "@mui/icons-material/ChatOutlined";
import ForumOutlined from "@mui/icons-material/ForumOutlined";
import { useMediaQuery } from "@mui/material";
import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { EmptyState } from "../../components/EmptyState";
import { lazyWhenOpened } from "../../components/lazyWhenOpened";
import { LoadingState } from "../../components/LoadingState";
import { whenIdle } from "../../components/whenIdle";
import { TicketsManager } from "./TicketsManager";

/*
 * The conversation (messages, composer, header's actions) and the spy dialog download apart from the page (issue
 * 20): /tickets shows the list and the welcome panel without them. The conversation's chunk is fetched once the
 * page is on screen and the browser idle, so opening a ticket does not wait for it.
 */
const loadTicketView = () => import("./TicketView");
const TicketView = lazy(() => loadTicketView().then((module) => ({ default: module.TicketView })));
const SpyDialog = lazyWhenOpened(() => import("./SpyDialog").then((module) => module.SpyDialog));

const visuallyHidden = {
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
  m: -1,
  p: 0,
  border: 0,
} as const;

/** The page's heading for assistive technology (the layout has no visible title on this page). */
function PageTitle() {
  const { t } = useTranslation();
  return (
    <Typography component="h1" sx={visuallyHidden}>
      {t("pages.tickets")}
    </Typography>
  );
}

function Welcome() {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ height: "100%", display: "flex", alignItems: "center", justifyContent: "center" }}>
      <EmptyState
        icon={<ForumOutlined sx={{ fontSize: 96, color: "primary.main" }} />}
        title={t("tickets.welcome.title")}
        description={t("tickets.welcome.description")}
      />
    </Paper>
  );
}

/** What TicketView shows while its ticket loads, while its code downloads. */
function ConversationLoading() {
  return (
    <Paper variant="outlined" sx={{ height: "100%", minHeight: 0, overflow: "hidden", display: "flex", flexDirection: "column" }}>
      <LoadingState />
    </Paper>
  );
}

/**
 * /tickets/:ticketId? (spec §2): wide screens show the ticket manager in the left third and the open ticket
 * (or a welcome panel) in the right two thirds; narrow screens switch between them with two bottom tabs.
 */
export default function TicketsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { ticketId } = useParams();
  const wide = useMediaQuery(`(min-width:${MOBILE_BREAKPOINT_PX}px)`, { noSsr: true });
  const [mobileTab, setMobileTab] = useState<"ticket" | "list">(ticketId ? "ticket" : "list");
  const [spy, setSpy] = useState<TicketDTO | null>(null);

  useEffect(() => {
    if (ticketId) setMobileTab("ticket");
  }, [ticketId]);
  useEffect(() => whenIdle(() => void loadTicketView().catch(() => undefined)), []);

  const conversation = ticketId ? (
    <Suspense fallback={<ConversationLoading />}>
      <TicketView key={ticketId} uuid={ticketId} onBack={wide ? undefined : () => navigate("/tickets")} />
    </Suspense>
  ) : null;
  const manager = <TicketsManager selectedUuid={ticketId} onSpy={setSpy} />;

  if (wide) {
    return (
      <Box sx={{ display: "flex", gap: 1.5, flex: 1, minHeight: 0, height: "100%" }} data-testid="tickets-page">
        <PageTitle />
        <Box sx={{ width: "33.333%", minWidth: 300, maxWidth: 520, minHeight: 0, display: "flex", flexDirection: "column" }}>{manager}</Box>
        <Box sx={{ flex: 1, minWidth: 0, minHeight: 0 }}>{conversation ?? <Welcome />}</Box>
        <SpyDialog open={!!spy} ticket={spy} onClose={() => setSpy(null)} />
      </Box>
    );
  }

  return (
    <Box sx={{ display: "flex", flexDirection: "column", flex: 1, minHeight: 0, height: "100%" }} data-testid="tickets-page">
      <PageTitle />
      <Box sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column" }}>
        {mobileTab === "list"
          ? manager
          : (conversation ?? (
              <Paper variant="outlined" sx={{ height: "100%" }}>
                <EmptyState
                  icon={<ForumOutlined sx={{ fontSize: 64, color: "primary.main" }} />}
                  title={t("tickets.welcome.title")}
                  action={
                    <Button variant="contained" onClick={() => setMobileTab("list")}>
                      {t("tickets.buttons.selectTicket")}
                    </Button>
                  }
                />
              </Paper>
            ))}
      </Box>
      <BottomNavigation
        showLabels
        value={mobileTab}
        onChange={(_e, v: "ticket" | "list") => setMobileTab(v)}
        sx={{ borderTop: 1, borderColor: "divider" }}
      >
        <BottomNavigationAction value="ticket" label={t("tickets.mobile.ticket")} icon={<ChatOutlined />} />
        <BottomNavigationAction value="list" label={t("tickets.mobile.list")} icon={<ForumOutlined />} />
      </BottomNavigation>
      <SpyDialog open={!!spy} ticket={spy} onClose={() => setSpy(null)} />
    </Box>
  );
}
