import { ComingSoon } from "../../components/ComingSoon";

/** Scheduled messages /schedules — filled in by its own issue. */
export default function SchedulesPage() {
  return <ComingSoon titleKey="pages.schedules" />;
}
