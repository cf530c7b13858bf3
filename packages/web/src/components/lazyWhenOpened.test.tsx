import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { lazyWhenOpened } from "./lazyWhenOpened";

function Panel({ open, label }: { open: boolean; label: string }) {
  return open ? <div role="dialog" aria-label={label} /> : <div data-testid="closed-panel" />;
}

describe("lazyWhenOpened", () => {
  it("downloads nothing while closed, mounts closed then opens, and stays mounted after closing", async () => {
    const load = vi.fn(() => Promise.resolve(Panel));
    const LazyPanel = lazyWhenOpened(load);
    const { rerender } = render(<LazyPanel open={false} label="Contato" />);
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByTestId("closed-panel")).not.toBeInTheDocument();

    rerender(<LazyPanel open label="Contato" />);
    expect(await screen.findByRole("dialog", { name: "Contato" })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);

    rerender(<LazyPanel open={false} label="Contato" />);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByTestId("closed-panel")).toBeInTheDocument();
  });
});
