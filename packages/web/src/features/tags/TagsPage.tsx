import { ComingSoon } from "../../components/ComingSoon";

/** Tags /tags — filled in by its own issue. */
export default function TagsPage() {
  return <ComingSoon titleKey="pages.tags" />;
}
