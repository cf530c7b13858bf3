import { ComingSoon } from "../../components/ComingSoon";

/** Quick messages /quick-messages — filled in by its own issue. */
export default function QuickMessagesPage() {
  return <ComingSoon titleKey="pages.quickMessages" />;
}
