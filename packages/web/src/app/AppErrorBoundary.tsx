import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { Component, type ErrorInfo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

function CrashedPage() {
  const { t } = useTranslation();
  return (
    <Box role="alert" sx={{ minHeight: "100vh", display: "grid", placeContent: "center", gap: 2, p: 3, textAlign: "center" }}>
      <Typography variant="h5" component="h1">
        {t("app.crashed.title")}
      </Typography>
      <Typography color="text.secondary">{t("app.crashed.body")}</Typography>
      <Box>
        <Button variant="contained" onClick={() => window.location.reload()}>
          {t("app.crashed.reload")}
        </Button>
      </Box>
    </Box>
  );
}

/**
 * What a page that fails to render shows instead of a blank screen: a page chunk that no longer exists after a
 * deploy (the lazy import rejects) or a rendering defect. Reloading fetches the current build.
 */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("page failed to render", error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <CrashedPage /> : this.props.children;
  }
}
