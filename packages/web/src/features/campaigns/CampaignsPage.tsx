import { ComingSoon } from "../../components/ComingSoon";

/** Campaigns /campaigns — filled in by its own issue. */
export default function CampaignsPage() {
  return <ComingSoon titleKey="pages.campaigns" />;
}
