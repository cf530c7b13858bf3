import { Search } from "@mui/icons-material";
import { FormControl, InputAdornment, OutlinedInput, type SxProps, type Theme } from "@mui/material";
import { useTranslation } from "react-i18next";

interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Placeholder and accessible name; "Pesquisar" by default. */
  placeholder?: string;
  autoFocus?: boolean;
  sx?: SxProps<Theme>;
}

/**
 * The search box of list pages and the tickets panel (the caller debounces the value). What TextField renders for
 * an outlined field without label or helper text, built from its parts: TextField imports every variant (filled,
 * standard, native select, helper text), which the tickets page downloaded for this box alone (issue 20).
 */
export function SearchField({ value, onChange, placeholder, autoFocus, sx }: SearchFieldProps) {
  const { t } = useTranslation();
  const label = placeholder ?? t("common.search");
  return (
    <FormControl size="small" sx={sx}>
      <OutlinedInput
        type="search"
        placeholder={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoFocus={autoFocus}
        slotProps={{ input: { "aria-label": label } }}
        startAdornment={
          <InputAdornment position="start">
            <Search fontSize="small" />
          </InputAdornment>
        }
      />
    </FormControl>
  );
}
