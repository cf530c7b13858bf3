import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { contrastRatio } from "../app/contrast";
import { AppThemeProvider } from "../app/theme";
import { enqueueSnackbar, MAX_TOASTS, TOAST_BACKGROUNDS, Toaster, type ToastOptions } from "./toasts";

function renderToaster() {
  return render(
    <AppThemeProvider>
      <Toaster />
    </AppThemeProvider>,
  );
}

const show = (message: string, options?: ToastOptions) => act(() => void enqueueSnackbar(message, options));
const toastTexts = () => screen.queryAllByTestId("toast").map((toast) => toast.textContent);

describe("toasts", () => {
  it("every variant's background gives white text WCAG AA contrast (4.5:1)", () => {
    for (const [variant, color] of Object.entries(TOAST_BACKGROUNDS)) expect(contrastRatio(color, "#ffffff"), variant).toBeGreaterThanOrEqual(4.5);
  });

  it("paints each variant with its background under white text; errors and warnings are alerts, the rest status", async () => {
    renderToaster();
    for (const variant of ["default", "info", "success", "warning", "error"] as const) show(`toast ${variant}`, { variant });
    for (const variant of ["info", "success", "warning", "error"] as const) {
      const toast = (await screen.findByText(`toast ${variant}`)).closest<HTMLElement>("[data-testid=toast]")!;
      expect(toast).toHaveAttribute("data-variant", variant);
      expect(toast).toHaveAttribute("role", variant === "warning" || variant === "error" ? "alert" : "status");
      expect(getComputedStyle(toast).backgroundColor).toBe(hexToRgb(TOAST_BACKGROUNDS[variant]));
      expect(getComputedStyle(toast).color).toBe("rgb(255, 255, 255)");
    }
  });

  it("goes after its time, not while the pointer is on it", async () => {
    renderToaster();
    show("Salvo", { variant: "success", autoHideDuration: 1000 });
    const toast = screen.getByRole("status");
    fireEvent.mouseEnter(toast);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(screen.getByRole("status")).toHaveTextContent("Salvo");
    fireEvent.mouseLeave(toast);
    await waitFor(() => expect(screen.queryByRole("status")).not.toBeInTheDocument());
  });

  it(`shows ${MAX_TOASTS} at most: the oldest that would time out makes room`, async () => {
    renderToaster();
    show("Conexão caiu", { variant: "warning", persist: true });
    show("um");
    show("dois");
    expect(toastTexts()).toEqual(["Conexão caiu", "um", "dois"]);
    show("três");
    await waitFor(() => expect(toastTexts()).toEqual(["Conexão caiu", "dois", "três"]));
  });

  it("skips a duplicate while the same text is on screen, when asked", () => {
    renderToaster();
    show("Acesso negado", { preventDuplicate: true });
    show("Acesso negado", { preventDuplicate: true });
    expect(toastTexts()).toEqual(["Acesso negado"]);
    show("Acesso negado");
    expect(toastTexts()).toEqual(["Acesso negado", "Acesso negado"]);
  });

  it("a persistent toast stays until its close button; an action shows beside the text", async () => {
    renderToaster();
    show("Conexão caiu", { variant: "warning", persist: true, action: () => <button type="button">Ver</button> });
    const toast = screen.getByRole("alert");
    expect(within(toast).getByRole("button", { name: "Ver" })).toBeInTheDocument();
    await userEvent.click(within(toast).getByRole("button", { name: "Fechar" }));
    await waitFor(() => expect(screen.queryByRole("alert")).not.toBeInTheDocument());
  });
});

function hexToRgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}
