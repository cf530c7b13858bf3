import { IconButton, Tooltip } from "@mui/material";
import VolumeOff from "@mui/icons-material/VolumeOff";
import VolumeUp from "@mui/icons-material/VolumeUp";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { lazyWhenOpened } from "../../components/lazyWhenOpened";
import { useLocalStorage } from "../../hooks/useLocalStorage";

export const VOLUME_KEY = "volume";

// Downloaded when first opened (issue 20): MUI's Slider is not needed to show a page.
const VolumePopover = lazyWhenOpened(() => import("./VolumePopover").then((module) => module.VolumePopover));

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
      <VolumePopover open={!!anchor} anchor={anchor} onClose={() => setAnchor(null)} volume={volume} onChange={setVolume} />
    </>
  );
}
