import { COLOR_PALETTE } from "@balcao/shared";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { COLOR_PICKER_COLUMNS, ColorPicker } from "./ColorPicker";

function Harness({ initial, onChange }: { initial: string; onChange?: (c: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <button type="button">antes</button>
      <ColorPicker
        label="Cor"
        previewLabel="Selecionada"
        value={value}
        onChange={(c) => {
          setValue(c);
          onChange?.(c);
        }}
      />
    </>
  );
}

describe("ColorPicker", () => {
  it("shows every palette colour as a swatch labelled with its hex, and the current value", () => {
    render(<Harness initial={COLOR_PALETTE[3]} />);
    const group = screen.getByRole("group", { name: "Cor" });
    const swatches = Array.from(group.querySelectorAll("button"));
    expect(swatches.map((b) => b.getAttribute("aria-label"))).toEqual([...COLOR_PALETTE]);
    expect(screen.getByRole("button", { name: COLOR_PALETTE[3] })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByTestId("color-preview")).toHaveTextContent(`Selecionada: ${COLOR_PALETTE[3]}`);
  });

  it("is reached with Tab on the selected swatch, moves with the arrows and picks with Enter or Space", async () => {
    const onChange = vi.fn();
    render(<Harness initial={COLOR_PALETTE[1]} onChange={onChange} />);
    await userEvent.click(screen.getByRole("button", { name: "antes" }));
    await userEvent.tab();
    expect(screen.getByRole("button", { name: COLOR_PALETTE[1] })).toHaveFocus();

    await userEvent.keyboard("{ArrowRight}");
    expect(screen.getByRole("button", { name: COLOR_PALETTE[2] })).toHaveFocus();
    expect(onChange).not.toHaveBeenCalled();
    await userEvent.keyboard("{ArrowDown}");
    const below = COLOR_PALETTE[2 + COLOR_PICKER_COLUMNS];
    expect(screen.getByRole("button", { name: below })).toHaveFocus();
    await userEvent.keyboard("{Enter}");
    expect(onChange).toHaveBeenLastCalledWith(below);
    expect(screen.getByRole("button", { name: below })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("button", { name: COLOR_PALETTE[1] })).toHaveAttribute("aria-pressed", "false");
    expect(screen.getByTestId("color-preview")).toHaveTextContent(below);

    await userEvent.keyboard("{ArrowLeft}{ArrowUp} ");
    expect(onChange).toHaveBeenLastCalledWith(COLOR_PALETTE[1]);
    await userEvent.keyboard("{End}{Enter}");
    expect(onChange).toHaveBeenLastCalledWith(COLOR_PALETTE[COLOR_PALETTE.length - 1]);
    await userEvent.keyboard("{ArrowRight}");
    expect(screen.getByRole("button", { name: COLOR_PALETTE[COLOR_PALETTE.length - 1] })).toHaveFocus();
    await userEvent.keyboard("{Home}");
    expect(screen.getByRole("button", { name: COLOR_PALETTE[0] })).toHaveFocus();
  });

  it("keeps only one Tab stop in the grid", () => {
    render(<Harness initial="#123456" />);
    const stops = screen.getAllByRole("button").filter((b) => b.getAttribute("data-swatch") && b.tabIndex === 0);
    expect(stops.map((b) => b.getAttribute("data-swatch"))).toEqual([COLOR_PALETTE[0]]);
    expect(screen.getByTestId("color-preview")).toHaveTextContent("#123456");
  });
});
