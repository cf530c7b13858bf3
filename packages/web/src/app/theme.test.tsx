import { render, screen } from "@testing-library/react";
import { SnackbarProvider, enqueueSnackbar } from "notistack";
import { act } from "react";
import { describe, expect, it } from "vitest";
import { contrastRatio } from "./contrast";
import { AppThemeProvider, TOAST_BACKGROUNDS } from "./theme";

describe("toasts", () => {
  it("every variant's background gives white text WCAG AA contrast (4.5:1)", () => {
    for (const [variant, color] of Object.entries(TOAST_BACKGROUNDS)) expect(contrastRatio(color, "#ffffff"), variant).toBeGreaterThanOrEqual(4.5);
  });

  it("the theme paints notistack's toasts with those backgrounds", async () => {
    render(
      <AppThemeProvider>
        <SnackbarProvider>
          <span />
        </SnackbarProvider>
      </AppThemeProvider>,
    );
    for (const variant of ["info", "success", "warning", "error"] as const) act(() => void enqueueSnackbar(`toast ${variant}`, { variant }));
    for (const variant of ["info", "success", "warning", "error"] as const) {
      const toast = (await screen.findByText(`toast ${variant}`)).closest(".notistack-MuiContent")!;
      expect(toast.className).toContain(`notistack-MuiContent-${variant}`);
      expect(getComputedStyle(toast).backgroundColor).toBe(hexToRgb(TOAST_BACKGROUNDS[variant]));
    }
  });
});

function hexToRgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}
