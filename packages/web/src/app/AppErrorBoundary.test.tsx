import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { lazy, Suspense } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppErrorBoundary } from "./AppErrorBoundary";
import { AppThemeProvider } from "./theme";

afterEach(() => vi.restoreAllMocks());

describe("AppErrorBoundary", () => {
  it("shows a reload page, not a blank screen, when a page's chunk fails to load", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const reload = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, reload });
    // A chunk of a build that a deploy replaced: the lazy import rejects.
    const GonePage = lazy(() => Promise.reject(new TypeError("Failed to fetch dynamically imported module")));
    render(
      <AppThemeProvider>
        <AppErrorBoundary>
          <Suspense fallback={<p>Carregando...</p>}>
            <GonePage />
          </Suspense>
        </AppErrorBoundary>
      </AppThemeProvider>,
    );
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Algo deu errado ao abrir esta página");
    await userEvent.click(screen.getByRole("button", { name: "Recarregar a página" }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("renders its children while they render", () => {
    render(
      <AppErrorBoundary>
        <p>Atendimentos</p>
      </AppErrorBoundary>,
    );
    expect(screen.getByText("Atendimentos")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
