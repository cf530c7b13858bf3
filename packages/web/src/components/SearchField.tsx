import { Search } from "@mui/icons-material";
import { InputAdornment, TextField, type SxProps, type Theme } from "@mui/material";
import { useTranslation } from "react-i18next";

interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Placeholder and accessible name; "Pesquisar" by default. */
  placeholder?: string;
  autoFocus?: boolean;
  sx?: SxProps<Theme>;
}

/** The search box of list pages and the tickets panel (the caller debounces the value). */
export function SearchField({ value, onChange, placeholder, autoFocus, sx }: SearchFieldProps) {
  const { t } = useTranslation();
  const label = placeholder ?? t("common.search");
  return (
    <TextField
      size="small"
      type="search"
      placeholder={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      autoFocus={autoFocus}
      sx={sx}
      slotProps={{
        htmlInput: { "aria-label": label },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Search fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
