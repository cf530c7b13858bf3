import { ComingSoon } from "../../components/ComingSoon";

/** Announcements /announcements — filled in by its own issue. */
export default function AnnouncementsPage() {
  return <ComingSoon titleKey="pages.announcements" />;
}
