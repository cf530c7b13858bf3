import { ComingSoon } from "../../components/ComingSoon";

/** Subscription /subscription — filled in by its own issue. */
export default function SubscriptionPage() {
  return <ComingSoon titleKey="pages.subscription" />;
}
