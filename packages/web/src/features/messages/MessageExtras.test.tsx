import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeSession, makeUser, renderPage } from "../../test/utils";
import { makeMessage } from "../tickets/fixtures";
import { Bubble } from "./MessagesList";

const renderBubble = (message: ReturnType<typeof makeMessage>) =>
  renderPage(<Bubble message={message} readOnly={false} onMenu={vi.fn()} onRetry={vi.fn()} />, { session: fakeSession(makeUser()) });

describe("a bubble's reactions and edits (issue 21)", () => {
  it("shows one chip per emoji with its count, the company's own highlighted", () => {
    renderBubble(
      makeMessage({
        body: "Chegou?",
        reactions: [
          { emoji: "👍", count: 2, fromMe: true },
          { emoji: "❤️", count: 1, fromMe: false },
        ],
      }),
    );
    const chips = screen.getAllByTestId("reaction");
    expect(chips.map((c) => c.textContent)).toEqual(["👍 2", "❤️"]);
    expect(chips.map((c) => c.getAttribute("data-count"))).toEqual(["2", "1"]);
    expect(chips[0]!.className).toMatch(/MuiChip-filled/);
    expect(chips[1]!.className).toMatch(/MuiChip-outlined/);
    expect(screen.getByRole("list", { name: "Reações" })).toBeTruthy();
    expect(screen.queryByTestId("edited-mark")).toBeNull();
  });

  it("shows no chips when there is no reaction (a removed one included)", () => {
    renderBubble(makeMessage({ body: "Oi", reactions: [] }));
    expect(screen.queryAllByTestId("reaction")).toEqual([]);
    expect(screen.queryByRole("list", { name: "Reações" })).toBeNull();
  });

  it("marks an edited message 'editada' and lists the earlier texts with their times, oldest first", async () => {
    renderBubble(
      makeMessage({
        body: "Texto final",
        editedAt: "2025-01-01T10:07:00.000Z",
        edits: [
          { body: "Primeiro texto", editedAt: "2025-01-01T10:05:00.000Z" },
          { body: "Segundo texto", editedAt: "2025-01-01T10:07:00.000Z" },
        ],
      }),
    );
    expect(screen.getByText("Texto final")).toBeTruthy();
    const mark = screen.getByTestId("edited-mark");
    expect(mark.textContent).toBe("editada");
    fireEvent.click(mark);
    const history = await screen.findByTestId("edit-history");
    expect(within(history).getByText("Versões anteriores")).toBeTruthy();
    const items = within(history).getAllByTestId("edit-history-item");
    expect(items.map((i) => i.querySelector(".MuiListItemText-primary")?.textContent)).toEqual(["Primeiro texto", "Segundo texto"]);
    expect(items[0]!.textContent).toMatch(/Substituída em .*\d\d:\d\d/);
  });

  it("shows no edit mark on a message deleted by the contact", () => {
    renderBubble(makeMessage({ body: "", isDeleted: true, editedAt: "2025-01-01T10:07:00.000Z", edits: [] }));
    expect(screen.queryByTestId("edited-mark")).toBeNull();
  });
});
