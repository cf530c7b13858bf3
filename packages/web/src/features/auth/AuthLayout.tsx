import { Avatar, Box, Button, CircularProgress, Container, Link, Paper, Typography } from "@mui/material";
import SupportAgentOutlined from "@mui/icons-material/SupportAgentOutlined";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";

/** Centered card shared by the login and sign-up pages. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box component="main" sx={{ minHeight: "100vh", display: "flex", alignItems: "center", bgcolor: "background.default", py: 4 }}>
      <Container maxWidth="xs">
        <Paper elevation={3} sx={{ p: 4, display: "flex", flexDirection: "column", alignItems: "center", gap: 1 }}>
          <Avatar sx={{ bgcolor: "primary.main", width: 56, height: 56 }}>
            <SupportAgentOutlined />
          </Avatar>
          <Typography variant="h5" component="p" color="primary" sx={{ fontWeight: 700 }}>
            {t("app.name")}
          </Typography>
          <Typography variant="h6" component="h1">
            {title}
          </Typography>
          {children}
        </Paper>
      </Container>
    </Box>
  );
}

/** The form's submit button (a spinner while busy) and the link to the other page (login ↔ sign-up). */
export function AuthActions({ busy, submitLabel, linkTo, linkLabel }: { busy: boolean; submitLabel: string; linkTo: string; linkLabel: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Button type="submit" fullWidth variant="contained" size="large" disabled={busy} sx={{ mt: 2, mb: 2 }}>
        {busy ? <CircularProgress size={24} color="inherit" aria-label={t("common.loading")} /> : submitLabel}
      </Button>
      <Link component={RouterLink} to={linkTo} variant="body2">
        {linkLabel}
      </Link>
    </>
  );
}
