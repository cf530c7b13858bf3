import { Box, Typography } from "@mui/material";
import InboxOutlined from "@mui/icons-material/InboxOutlined";
import type { ReactNode } from "react";

interface EmptyStateProps {
  title: string;
  description?: string;
  icon?: ReactNode;
  action?: ReactNode;
}

export function EmptyState({ title, description, icon, action }: EmptyStateProps) {
  return (
    <Box
      role="status"
      sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 1, py: 6, px: 2, textAlign: "center", color: "text.secondary" }}
    >
      {icon ?? <InboxOutlined sx={{ fontSize: 48 }} />}
      <Typography variant="h6" component="p" color="text.primary">
        {title}
      </Typography>
      {description && <Typography variant="body2">{description}</Typography>}
      {action}
    </Box>
  );
}
