import { Box, CircularProgress } from "@mui/material";
import { useTranslation } from "react-i18next";

export function LoadingState({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "flex", alignItems: "center", justifyContent: "center", py: 4, ...(fullScreen && { minHeight: "100vh" }) }}>
      <CircularProgress aria-label={t("common.loading")} />
    </Box>
  );
}
