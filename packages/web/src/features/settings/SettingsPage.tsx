import { ComingSoon } from "../../components/ComingSoon";

/** Settings /settings — filled in by its own issue. */
export default function SettingsPage() {
  return <ComingSoon titleKey="pages.settings" />;
}
