import { ComingSoon } from "../../components/ComingSoon";

/** Dashboard (spec §2, admin only) — filled in by its own issue. */
export default function DashboardPage() {
  return <ComingSoon titleKey="pages.dashboard" />;
}
