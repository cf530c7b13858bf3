import { Box } from "@mui/material";
import ConstructionOutlined from "@mui/icons-material/ConstructionOutlined";
import { useTranslation } from "react-i18next";
import { EmptyState } from "./EmptyState";
import { PageHeader } from "./PageHeader";

/** Placeholder of a page a later issue fills in: its title and a clear "coming soon" note. */
export function ComingSoon({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const title = t(titleKey);
  return (
    <Box>
      <PageHeader title={title} />
      <EmptyState
        icon={<ConstructionOutlined sx={{ fontSize: 48 }} />}
        title={t("common.comingSoon")}
        description={t("common.comingSoonDescription", { page: title })}
      />
    </Box>
  );
}
