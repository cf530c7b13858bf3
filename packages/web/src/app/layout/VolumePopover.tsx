import { Box, Popover, Slider } from "@mui/material";
import { useTranslation } from "react-i18next";

interface VolumePopoverProps {
  open: boolean;
  anchor: HTMLElement | null;
  onClose: () => void;
  volume: number;
  onChange: (volume: number) => void;
}

/** The volume slider under the top bar's speaker (VolumeControl), a chunk of its own: few open it (issue 20). */
export function VolumePopover({ open, anchor, onClose, volume, onChange }: VolumePopoverProps) {
  const { t } = useTranslation();
  return (
    <Popover
      open={open}
      anchorEl={anchor}
      onClose={onClose}
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
          onChange={(_e, value) => onChange(Array.isArray(value) ? value[0] : value)}
          slotProps={{ input: { "aria-label": t("topBar.volume") } }}
        />
      </Box>
    </Popover>
  );
}
