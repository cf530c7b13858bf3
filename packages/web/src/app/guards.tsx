import { can } from "@balcao/shared";
import type { ReactNode } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { LoadingState } from "../components/LoadingState";
import { useSession } from "../features/auth/SessionProvider";
import { useCampaignsVisible } from "./layout/useCampaignsVisible";

/** Unauthenticated users go to /login (spec §2). */
export function PrivateRoute() {
  const { user, loading } = useSession();
  const location = useLocation();
  if (loading) return <LoadingState fullScreen />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** Authenticated users on /login or /signup go to / (spec §2). */
export function PublicOnlyRoute() {
  const { user, loading } = useSession();
  if (loading) return <LoadingState fullScreen />;
  if (user) return <Navigate to="/" replace />;
  return <Outlet />;
}

/** The dashboard is admin only; everyone else lands on /tickets. */
export function DashboardRoute({ children }: { children: ReactNode }) {
  const { user } = useSession();
  return can(user, "dashboard:view") ? children : <Navigate to="/tickets" replace />;
}

/** Campaign routes exist only with the local `cshow` flag or the company's campaignsEnabled setting. */
export function CampaignsRoute() {
  const { visible, loading } = useCampaignsVisible();
  if (loading) return <LoadingState />;
  return visible ? <Outlet /> : <Navigate to="/" replace />;
}
