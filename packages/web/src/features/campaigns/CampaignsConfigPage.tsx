import { ComingSoon } from "../../components/ComingSoon";

/** Campaign settings /campaigns-config — filled in by its own issue. */
export default function CampaignsConfigPage() {
  return <ComingSoon titleKey="pages.campaignsConfig" />;
}
