import { ComingSoon } from "../../components/ComingSoon";

/** Help videos /helps — filled in by its own issue. */
export default function HelpsPage() {
  return <ComingSoon titleKey="pages.helps" />;
}
