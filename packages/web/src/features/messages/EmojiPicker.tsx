import { Box, IconButton, Popover } from "@mui/material";
import { useTranslation } from "react-i18next";

/** Spec §9: the picker shows 16 emoji per line. */
export const EMOJI_PER_LINE = 16;

/** A small curated set (no emoji package: the full data set is large and the composer needs the common ones). */
export const EMOJIS = Array.from(
  "😀😃😄😁😆😅😂🤣😊😇🙂🙃😉😌😍🥰😘😗😙😚😋😛😝😜🤪🤨🧐🤓😎🤩🥳😏😒😞😔😟😕🙁😣😖😫😩🥺😢😭😤😠😡🤯😳🥵🥶😱😨😰😥😓🤗🤔🤭🤫🤥😶😐😑😬🙄😯😦😧😮😲🥱😴🤤😪😵🤐🥴🤢🤮🤧😷🤒🤕🤑🤠😈👍👎👌✌🤞🤟🤘🤙👈👉👆👇☝✋🤚🖐🖖👋👏🙌👐🤲🙏🤝💪❤🧡💛💚💙💜🖤🤍💔💯✅❌⚠❓❗💬📞📱💻📎📌📅⏰🕒🎉🎁🔥⭐🌟✨☀🌙🌧☕🍕🎂🚗✈🏠💰💳🛒📦🔔",
);

interface EmojiPickerProps {
  anchorEl: HTMLElement | null;
  onClose: () => void;
  onPick: (emoji: string) => void;
}

export function EmojiPicker({ anchorEl, onClose, onPick }: EmojiPickerProps) {
  const { t } = useTranslation();
  return (
    <Popover
      open={!!anchorEl}
      anchorEl={anchorEl}
      onClose={onClose}
      anchorOrigin={{ vertical: "top", horizontal: "left" }}
      transformOrigin={{ vertical: "bottom", horizontal: "left" }}
    >
      <Box
        role="grid"
        aria-label={t("messages.composer.emoji")}
        sx={{ display: "grid", gridTemplateColumns: `repeat(${EMOJI_PER_LINE}, 32px)`, gap: 0.25, p: 1, maxWidth: "95vw", overflowX: "auto" }}
      >
        {EMOJIS.map((emoji) => (
          <IconButton key={emoji} size="small" onClick={() => onPick(emoji)} aria-label={emoji} sx={{ fontSize: 20, width: 32, height: 32 }}>
            {emoji}
          </IconButton>
        ))}
      </Box>
    </Popover>
  );
}
