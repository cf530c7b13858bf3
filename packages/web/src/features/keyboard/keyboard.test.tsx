import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { useInboxActions } from "./inboxActions";
import { KeyboardLayer } from "./KeyboardLayer";
import { isTyping } from "./shortcuts";

const ticket = {
  id: 42,
  uuid: "uuid-42",
  status: "open",
  contact: { id: 7, name: "Joana Prado", number: "5511987650001" },
};

/** A stand-in for the tickets page: offers the inbox actions the real list, header and composer offer. */
function Inbox({ accept, resolve, next }: { accept: () => void; resolve: () => void; next: () => void }) {
  const [composer, setComposer] = useState("");
  useInboxActions({ accept, resolve, next, quickReplies: () => setComposer((c) => c || "/") });
  return (
    <>
      <KeyboardLayer />
      <label>
        Outro campo
        <input />
      </label>
      <output data-testid="composer">{composer}</output>
    </>
  );
}

function setup(path = "/tickets") {
  const actions = { accept: vi.fn(), resolve: vi.fn(), next: vi.fn() };
  mockFetch({
    "GET /api/settings": () => jsonResponse(200, []),
    "GET /api/tickets": () => jsonResponse(200, { tickets: [ticket], count: 1, hasMore: false, nextCursor: null }),
    "GET /api/contacts": () => jsonResponse(200, { contacts: [ticket.contact], count: 1, hasMore: false }),
  });
  const utils = renderPage(<Inbox {...actions} />, { session: fakeSession(makeUser()), path, routePath: "/tickets" });
  return { ...utils, actions };
}

describe("command palette (Ctrl/⌘+K)", () => {
  it("reopened while it is still closing, it leaves the page readable once closed (no aria-hidden left behind)", async () => {
    setup();
    for (let round = 0; round < 2; round++) {
      fireEvent.keyDown(window, { key: "k", ctrlKey: true });
      await screen.findByRole("combobox", { name: "Paleta de comandos" });
      // Closed and, at once, opened again: the second opening starts during the first one's exit.
      fireEvent.keyDown(screen.getByRole("combobox", { name: "Paleta de comandos" }), { key: "Escape" });
    }
    await waitFor(() => expect(screen.queryByRole("combobox", { name: "Paleta de comandos" })).toBeNull());
    await waitFor(() => expect([...document.body.children].filter((el) => el.getAttribute("aria-hidden") === "true")).toEqual([]));
    expect(screen.getByRole("textbox", { name: "Outro campo" })).toBeInTheDocument();
  });

  it("goes to a page by its name", async () => {
    const { router } = setup();
    fireEvent.keyDown(window, { key: "k", ctrlKey: true });
    const input = await screen.findByRole("combobox", { name: "Paleta de comandos" });
    await userEvent.type(input, "usuár");
    const listbox = screen.getByRole("listbox", { name: "Resultados" });
    expect(within(listbox).getByRole("option", { name: /Usuários/ })).toHaveAttribute("aria-selected", "true");
    await userEvent.keyboard("{Enter}");
    await waitFor(() => expect(router.location().pathname).toBe("/users"));
  });

  it("finds a ticket by the contact's name through the tickets API and opens it", async () => {
    const { router } = setup();
    fireEvent.keyDown(window, { key: "K", metaKey: true });
    await userEvent.type(await screen.findByRole("combobox", { name: "Paleta de comandos" }), "Joana");
    const option = await screen.findByRole("option", { name: /#42 Joana Prado/ });
    expect(option).toHaveTextContent("+55 11 98765 0001");
    await userEvent.click(option);
    await waitFor(() => expect(router.location().pathname).toBe("/tickets/uuid-42"));
  });

  it("runs the open ticket's actions", async () => {
    const { actions } = setup();
    fireEvent.keyDown(window, { key: "k", ctrlKey: true });
    await userEvent.type(await screen.findByRole("combobox", { name: "Paleta de comandos" }), "resolver");
    await userEvent.keyboard("{Enter}");
    await waitFor(() => expect(actions.resolve).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole("combobox", { name: "Paleta de comandos" })).not.toBeInTheDocument();
  });
});

describe("inbox shortcuts", () => {
  it("a accepts, r resolves, j goes to the next ticket, / starts a quick reply; ? lists them", async () => {
    const { actions } = setup();
    await userEvent.keyboard("a");
    expect(actions.accept).toHaveBeenCalledTimes(1);
    await userEvent.keyboard("r");
    expect(actions.resolve).toHaveBeenCalledTimes(1);
    await userEvent.keyboard("j");
    expect(actions.next).toHaveBeenCalledTimes(1);
    await userEvent.keyboard("/");
    expect(screen.getByTestId("composer")).toHaveTextContent("/");

    await userEvent.keyboard("?");
    const help = await screen.findByRole("dialog", { name: "Atalhos de teclado" });
    for (const text of ["Aceitar o ticket", "Resolver o ticket", "Próximo ticket", "Ticket anterior", "Escrever uma mensagem", "Respostas rápidas"])
      expect(within(help).getByText(text)).toBeInTheDocument();
    // While the sheet is open the single keys do nothing.
    await userEvent.keyboard("a");
    expect(actions.accept).toHaveBeenCalledTimes(1);
  });

  it("do not fire while typing in a field", async () => {
    const { actions } = setup();
    await userEvent.click(screen.getByLabelText("Outro campo"));
    await userEvent.keyboard("ar?");
    expect(screen.getByLabelText("Outro campo")).toHaveValue("ar?");
    expect(actions.accept).not.toHaveBeenCalled();
    expect(actions.resolve).not.toHaveBeenCalled();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("isTyping: text inputs, textareas and editable content, not buttons or checkboxes", () => {
    const el = (html: string) => {
      const host = document.createElement("div");
      host.innerHTML = html;
      return host.firstElementChild!;
    };
    expect(isTyping(el("<input type='text'>"))).toBe(true);
    expect(isTyping(el("<textarea></textarea>"))).toBe(true);
    expect(isTyping(el("<div contenteditable='true'></div>"))).toBe(true);
    expect(isTyping(el("<input type='checkbox'>"))).toBe(false);
    expect(isTyping(el("<button>x</button>"))).toBe(false);
  });
});
