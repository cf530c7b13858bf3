import { MOBILE_BREAKPOINT_PX } from "@balcao/shared";
import { Box, Drawer, Toolbar, useMediaQuery } from "@mui/material";
import { useEffect, useState } from "react";
import { Outlet } from "react-router";
import { useAnotherLoginGuard } from "../../features/auth/useAnotherLoginGuard";
import { usePaymentRealtime } from "../../features/billing/api";
import { BillingOnlyLayout } from "../../features/billing/BillingOnlyLayout";
import { useBillingOnly } from "../../features/billing/billingOnly";
import { SubscriptionBanner } from "../../features/billing/SubscriptionBanner";
import { useQueueRealtime } from "../../features/queues/api";
import { useSettingsRealtime } from "../../features/settings/api";
import { KeyboardLayer } from "../../features/keyboard/KeyboardLayer";
import { useUserRealtime } from "../../features/users/useUserRealtime";
import { registerServiceWorker } from "../pwa";
import { MainMenu } from "./MainMenu";
import { TopBar } from "./TopBar";

const DRAWER_WIDTH = 250;
const DRAWER_COLLAPSED_WIDTH = 60;

/** The logged-in shell; an expired company's admin gets the billing-only one (finance and subscription). */
export function AppLayout() {
  usePaymentRealtime();
  return useBillingOnly() ? <BillingOnlyLayout /> : <FullLayout />;
}

/** Side drawer (permanent ≥ 600 px, temporary below) and the top bar. */
function FullLayout() {
  const wide = useMediaQuery(`(min-width:${MOBILE_BREAKPOINT_PX}px)`, { noSsr: true });
  const [desktopOpen, setDesktopOpen] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);
  useAnotherLoginGuard();
  useUserRealtime();
  useSettingsRealtime();
  // Queue lists feed the tickets filter and user modal on every page, not only /queues.
  useQueueRealtime();
  useEffect(registerServiceWorker, []);

  const open = wide ? desktopOpen : mobileOpen;
  const toggle = () => (wide ? setDesktopOpen((o) => !o) : setMobileOpen((o) => !o));
  const width = wide && !desktopOpen ? DRAWER_COLLAPSED_WIDTH : DRAWER_WIDTH;

  return (
    <Box sx={{ display: "flex", height: "100vh" }}>
      <TopBar drawerOpen={open} onToggleDrawer={toggle} />
      <KeyboardLayer />
      {wide ? (
        <Drawer
          variant="permanent"
          sx={{
            width,
            flexShrink: 0,
            transition: (theme) => theme.transitions.create("width"),
            "& .MuiDrawer-paper": { width, overflowX: "hidden", boxSizing: "border-box", transition: (theme) => theme.transitions.create("width") },
          }}
        >
          <Toolbar />
          <MainMenu collapsed={!desktopOpen} />
        </Drawer>
      ) : (
        <Drawer
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          ModalProps={{ keepMounted: true }}
          sx={{ "& .MuiDrawer-paper": { width: DRAWER_WIDTH } }}
        >
          <Toolbar />
          <MainMenu collapsed={false} onNavigate={() => setMobileOpen(false)} />
        </Drawer>
      )}
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, display: "flex", flexDirection: "column", bgcolor: "background.default" }}>
        <Toolbar />
        <Box sx={{ flex: 1, minHeight: 0, overflow: "auto", p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column" }}>
          <SubscriptionBanner />
          <Outlet />
        </Box>
      </Box>
    </Box>
  );
}
