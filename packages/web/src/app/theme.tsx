import { CssBaseline, ThemeProvider, createTheme } from "@mui/material";
import { enUS, esES, ptBR } from "@mui/material/locale";
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocalStorage } from "../hooks/useLocalStorage";

export type ColorMode = "light" | "dark";

interface ColorModeContextValue {
  mode: ColorMode;
  toggle: () => void;
}

const ColorModeContext = createContext<ColorModeContextValue>({ mode: "light", toggle: () => {} });

export const useColorMode = () => useContext(ColorModeContext);

/** MUI's own texts (pagination, autocomplete) in the interface language (issue 16). */
const MUI_LOCALES = { pt: ptBR, en: enUS, es: esES } as const;

export function buildTheme(mode: ColorMode, language = "pt") {
  return createTheme(
    {
      palette: {
        mode,
        // Light mode: greens, orange and blue dark enough for WCAG AA (4.5:1) as white text on them and as text or
        // outline on the page and paper backgrounds, also under the 8 % selected tint (issue 16, axe-core).
        primary: { main: mode === "light" ? "#137349" : "#3ecf8e", contrastText: mode === "light" ? "#fff" : "#0b1f16" },
        secondary: { main: mode === "light" ? "#0b6e4f" : "#9be7c4" },
        ...(mode === "light" ? { warning: { main: "#a84300", contrastText: "#fff" }, info: { main: "#01579b", contrastText: "#fff" } } : {}),
        background: mode === "light" ? { default: "#f4f6f5", paper: "#fff" } : { default: "#121614", paper: "#1b201d" },
      },
      shape: { borderRadius: 8 },
    },
    MUI_LOCALES[language.slice(0, 2) as keyof typeof MUI_LOCALES] ?? ptBR,
  );
}

/** Light/dark theme with the green primary (spec §1); the choice is stored locally as `theme`. */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useLocalStorage<ColorMode>("theme", "light");
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language ?? "pt";
  const theme = useMemo(() => buildTheme(mode, language), [mode, language]);
  const value = useMemo(() => ({ mode, toggle: () => setMode((m) => (m === "light" ? "dark" : "light")) }), [mode, setMode]);
  return (
    <ColorModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </ColorModeContext.Provider>
  );
}
