import { COLOR_PALETTE } from "@balcao/shared";
import { Box, FormHelperText, Typography } from "@mui/material";
import { useId, useRef, useState, type KeyboardEvent } from "react";

/** Swatches per row: the palette is laid out in rows of related hues (packages/shared/src/colors.ts). */
export const COLOR_PICKER_COLUMNS = 6;

interface ColorPickerProps {
  /** Current colour (hex); need not be one of the palette's (an older record may carry any colour). */
  value: string;
  onChange: (color: string) => void;
  /** Visible label of the group (already translated). */
  label: string;
  /** Accessible name of each swatch; the hex by default. */
  swatchLabel?: (color: string) => string;
  /** Text before the preview (already translated), e.g. "Selecionada". */
  previewLabel?: string;
  error?: boolean;
  helperText?: string;
  disabled?: boolean;
  autoFocus?: boolean;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The fixed palette of spec §9 (COLOR_PALETTE, shared by tags and queues) as a grid of swatches.
 * Keyboard: Tab reaches the selected swatch (or the first), arrows/Home/End move, Enter or Space picks.
 */
export function ColorPicker({
  value,
  onChange,
  label,
  swatchLabel = (c) => c,
  previewLabel,
  error,
  helperText,
  disabled,
  autoFocus,
}: ColorPickerProps) {
  const id = useId();
  const selectedIndex = COLOR_PALETTE.findIndex((c) => same(c, value ?? ""));
  /** The swatch being navigated while focus is inside the grid; otherwise the selected one is the Tab stop. */
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const tabIndexOf = focusIndex ?? (selectedIndex >= 0 ? selectedIndex : 0);

  const move = (index: number) => {
    const next = Math.max(0, Math.min(COLOR_PALETTE.length - 1, index));
    setFocusIndex(next);
    refs.current[next]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const keys: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      ArrowDown: index + COLOR_PICKER_COLUMNS,
      ArrowUp: index - COLOR_PICKER_COLUMNS,
      Home: 0,
      End: COLOR_PALETTE.length - 1,
    };
    if (event.key in keys) {
      event.preventDefault();
      move(keys[event.key]!);
    }
  };

  return (
    <Box>
      <Typography id={`${id}-label`} variant="body2" color={error ? "error" : "text.secondary"} sx={{ mb: 1 }}>
        {label}
      </Typography>
      <Box sx={{ display: "flex", gap: 2, alignItems: "flex-start", flexWrap: "wrap" }}>
        <Box
          role="group"
          aria-labelledby={`${id}-label`}
          onBlur={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocusIndex(null);
          }}
          sx={{ display: "grid", gridTemplateColumns: `repeat(${COLOR_PICKER_COLUMNS}, 28px)`, gap: 0.75 }}
        >
          {COLOR_PALETTE.map((color, index) => {
            const selected = index === selectedIndex;
            return (
              <Box
                key={color}
                component="button"
                type="button"
                data-swatch={color}
                ref={(el: HTMLButtonElement | null) => {
                  refs.current[index] = el;
                }}
                aria-label={swatchLabel(color)}
                aria-pressed={selected}
                title={color}
                disabled={disabled}
                autoFocus={autoFocus && index === tabIndexOf}
                tabIndex={index === tabIndexOf ? 0 : -1}
                onFocus={() => setFocusIndex(index)}
                onKeyDown={(e: KeyboardEvent<HTMLButtonElement>) => onKeyDown(e, index)}
                onClick={() => onChange(color)}
                sx={{
                  width: 28,
                  height: 28,
                  p: 0,
                  borderRadius: "50%",
                  bgcolor: color,
                  cursor: disabled ? "default" : "pointer",
                  border: 2,
                  borderColor: selected ? "text.primary" : "transparent",
                  boxShadow: selected ? (theme) => `0 0 0 2px ${theme.palette.background.paper} inset` : "none",
                  outline: "none",
                  "&:focus-visible": { outline: 2, outlineStyle: "solid", outlineColor: "primary.main", outlineOffset: 2 },
                }}
              />
            );
          })}
        </Box>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1 }} data-testid="color-preview">
          <Box aria-hidden sx={{ width: 40, height: 40, borderRadius: 1, border: 1, borderColor: "divider", bgcolor: value || "transparent" }} />
          <Typography variant="body2" component="span">
            {previewLabel ? `${previewLabel}: ` : ""}
            {value || "—"}
          </Typography>
        </Box>
      </Box>
      {helperText && <FormHelperText error={error}>{helperText}</FormHelperText>}
    </Box>
  );
}
