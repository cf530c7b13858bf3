import { Search } from "@mui/icons-material";
import { InputAdornment, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";

/** The list pages' search box (the caller debounces the value). */
export function SearchField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <TextField
      size="small"
      type="search"
      placeholder={t("common.search")}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{
        htmlInput: { "aria-label": t("common.search") },
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
