import { CssBaseline, ThemeProvider, createTheme } from "@mui/material";
import { ptBR } from "@mui/material/locale";
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { useLocalStorage } from "../hooks/useLocalStorage";

export type ColorMode = "light" | "dark";

interface ColorModeContextValue {
  mode: ColorMode;
  toggle: () => void;
}

const ColorModeContext = createContext<ColorModeContextValue>({ mode: "light", toggle: () => {} });

export const useColorMode = () => useContext(ColorModeContext);

export function buildTheme(mode: ColorMode) {
  return createTheme(
    {
      palette: {
        mode,
        primary: { main: mode === "light" ? "#1b8a5a" : "#3ecf8e", contrastText: mode === "light" ? "#fff" : "#0b1f16" },
        secondary: { main: mode === "light" ? "#0b6e4f" : "#9be7c4" },
        background: mode === "light" ? { default: "#f4f6f5", paper: "#fff" } : { default: "#121614", paper: "#1b201d" },
      },
      shape: { borderRadius: 8 },
    },
    ptBR,
  );
}

/** Light/dark theme with the green primary (spec §1); the choice is stored locally as `theme`. */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useLocalStorage<ColorMode>("theme", "light");
  const theme = useMemo(() => buildTheme(mode), [mode]);
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
