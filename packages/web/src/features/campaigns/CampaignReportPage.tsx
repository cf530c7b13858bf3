import { ComingSoon } from "../../components/ComingSoon";

/** Campaign report /campaign/:campaignId/report — filled in by its own issue. */
export default function CampaignReportPage() {
  return <ComingSoon titleKey="pages.campaignReport" />;
}
