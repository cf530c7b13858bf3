import { Avatar, Box, Container, Paper, Typography } from "@mui/material";
import SupportAgentOutlined from "@mui/icons-material/SupportAgentOutlined";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

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
