import { ComingSoon } from "../../components/ComingSoon";

/** Connections page /connections — filled in by its own issue. */
export default function ConnectionsPage() {
  return <ComingSoon titleKey="pages.connections" />;
}
