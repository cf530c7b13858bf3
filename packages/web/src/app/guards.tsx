import { canOpenPage, type PagePath } from "@balcao/shared";
import { enqueueSnackbar } from "../components/toasts";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Outlet, useLocation } from "react-router";
import { LoadingState } from "../components/LoadingState";
import { useSession } from "../features/auth/SessionProvider";
import { BILLING_ONLY_PATHS, useBillingOnly } from "../features/billing/billingOnly";
import { useCampaignsVisible } from "./layout/useCampaignsVisible";

/** Unauthenticated users go to /login (spec §2). */
export function PrivateRoute() {
  const { user, loading } = useSession();
  const location = useLocation();
  const billingOnly = useBillingOnly();
  if (loading) return <LoadingState fullScreen />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  // An expired company's admin can only pay (issue 13); every other page would answer 402.
  if (billingOnly && !BILLING_ONLY_PATHS.includes(location.pathname)) return <Navigate to="/financeiro" replace />;
  return <Outlet />;
}

/** Authenticated users on /login or /signup go to / (spec §2). */
export function PublicOnlyRoute() {
  const { user, loading } = useSession();
  if (loading) return <LoadingState fullScreen />;
  if (user) return <Navigate to="/" replace />;
  return <Outlet />;
}

/** The dashboard is admin only (PAGE_ACCESS["/"]); everyone else lands on /tickets, silently: it is their home. */
export function DashboardRoute({ children }: { children: ReactNode }) {
  const { user } = useSession();
  return canOpenPage(user, "/") ? children : <Navigate to="/tickets" replace />;
}

/**
 * A page of PAGE_ACCESS (@balcao/shared, the levels of the server's route table): rendered only for the
 * profiles it admits; anyone else goes to /tickets with a message (issue 16), so an attendant typing /users
 * never sees the admin page's buttons.
 */
export function PageRoute({ page, children }: { page: PagePath; children: ReactNode }) {
  const { user } = useSession();
  const allowed = canOpenPage(user, page);
  return allowed ? children : <AccessDenied />;
}

function AccessDenied() {
  const { t } = useTranslation();
  useEffect(() => {
    enqueueSnackbar(t("guards.accessDenied"), { variant: "warning", preventDuplicate: true });
  }, [t]);
  return <Navigate to="/tickets" replace />;
}

/** Campaign routes exist only with the local `cshow` flag or the company's campaignsEnabled setting. */
export function CampaignsRoute() {
  const { visible, loading } = useCampaignsVisible();
  if (loading) return <LoadingState />;
  return visible ? <Outlet /> : <Navigate to="/" replace />;
}
