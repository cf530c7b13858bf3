import { Box, IconButton, Popover, Slider, Tooltip } from "@mui/material";
import VolumeOff from "@mui/icons-material/VolumeOff";
import VolumeUp from "@mui/icons-material/VolumeUp";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocalStorage } from "../../hooks/useLocalStorage";

export const VOLUME_KEY = "volume";

/** Notification sound volume, 0 to 1 in steps of 0.1, default 1, stored locally (spec §2, §9). */
export function VolumeControl() {
  const { t } = useTranslation();
  const [volume, setVolume] = useLocalStorage<number>(VOLUME_KEY, 1);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t("topBar.volume")}>
        <IconButton color="inherit" aria-label={t("topBar.volume")} onClick={(e) => setAnchor(e.currentTarget)}>
          {volume === 0 ? <VolumeOff /> : <VolumeUp />}
        </IconButton>
      </Tooltip>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
        transformOrigin={{ vertical: "top", horizontal: "center" }}
      >
        <Box sx={{ width: 200, px: 3, py: 2 }}>
          <Slider
            value={volume}
            min={0}
            max={1}
            step={0.1}
            marks
            valueLabelDisplay="auto"
            onChange={(_e, value) => setVolume(Array.isArray(value) ? value[0] : value)}
            slotProps={{ input: { "aria-label": t("topBar.volume") } }}
          />
        </Box>
      </Popover>
    </>
  );
}
