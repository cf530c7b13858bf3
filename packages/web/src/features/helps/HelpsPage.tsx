import { Accordion, AccordionDetails, AccordionSummary, Box, Typography } from "@mui/material";
import ExpandMore from "@mui/icons-material/ExpandMore";
import HelpOutline from "@mui/icons-material/HelpOutlineOutlined";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { PageHeader } from "../../components/PageHeader";
import { embedUrl, useHelpsAll } from "./api";

/**
 * Help /helps (spec §2): an accordion of videos with title and description. A player is created only for
 * the open item, so the page does not load one YouTube frame per video.
 */
export default function HelpsPage() {
  const { t } = useTranslation();
  const helps = useHelpsAll();
  const [open, setOpen] = useState<number | false>(false);

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
      <PageHeader title={t("helps.title")} />
      <Box sx={{ overflow: "auto", flexGrow: 1 }}>
        {helps.isPending && <LoadingState />}
        {helps.isError && <EmptyState title={t("errors.listFailed")} />}
        {helps.data?.length === 0 && <EmptyState icon={<HelpOutline sx={{ fontSize: 48 }} />} title={t("helps.empty")} />}
        {helps.data?.map((help) => (
          <Accordion
            key={help.id}
            expanded={open === help.id}
            onChange={(_e, expanded) => setOpen(expanded ? help.id : false)}
            slotProps={{ transition: { unmountOnExit: true } }}
            data-testid="help-item"
          >
            <AccordionSummary expandIcon={<ExpandMore />} aria-controls={`help-${help.id}-content`} id={`help-${help.id}-header`}>
              <Typography sx={{ fontWeight: 500 }}>{help.title}</Typography>
            </AccordionSummary>
            <AccordionDetails id={`help-${help.id}-content`}>
              {help.description && (
                <Typography variant="body2" color="text.secondary" sx={{ mb: 2, whiteSpace: "pre-line" }}>
                  {help.description}
                </Typography>
              )}
              <Box sx={{ position: "relative", width: "100%", maxWidth: 960, aspectRatio: "16 / 9" }}>
                <Box
                  component="iframe"
                  src={embedUrl(help.video)}
                  title={help.title}
                  allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
                  allowFullScreen
                  loading="lazy"
                  referrerPolicy="strict-origin-when-cross-origin"
                  sx={{ position: "absolute", inset: 0, width: "100%", height: "100%", border: 0, borderRadius: 1 }}
                />
              </Box>
            </AccordionDetails>
          </Accordion>
        ))}
      </Box>
    </Box>
  );
}
