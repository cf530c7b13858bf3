import { Navigate, useLocation, useSearchParams } from "react-router";
import { LoadingState } from "../../components/LoadingState";
import { useSession } from "../auth/SessionProvider";
import SimulatorPage from "./SimulatorPage";

/**
 * /simulator/:connectionId? — private (signed-in users of the owning company), or public when opened with
 * the connection's secret link `?key=` (docs/api.md, Simulator).
 */
export default function SimulatorRoute() {
  const [params] = useSearchParams();
  const key = params.get("key");
  const { user, loading } = useSession();
  const location = useLocation();
  if (key) return <SimulatorPage accessKey={key} />;
  if (loading) return <LoadingState fullScreen />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <SimulatorPage accessKey={null} />;
}
