import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { fakeSession, makeUser, mockFetch, renderPage } from "../../test/utils";
import TodoListPage from "./TodoListPage";
import { todoStorageKey } from "./useTodos";

beforeEach(() => localStorage.clear());

const stored = (userId: number) =>
  JSON.parse(localStorage.getItem(todoStorageKey(10, userId)) ?? "[]") as { text: string; createdAt: string; updatedAt: string }[];

describe("TodoListPage", () => {
  it("adds, edits and deletes tasks in this browser only, refusing blank text", async () => {
    const { calls } = mockFetch({});
    renderPage(<TodoListPage />, { session: fakeSession(makeUser({ id: 3 })) });
    expect(screen.getByText("Nenhuma tarefa")).toBeInTheDocument();
    const input = screen.getByLabelText("Nova tarefa");
    expect(input).toHaveFocus();

    await userEvent.type(input, "   {Enter}");
    expect(await screen.findByText("Digite o texto da tarefa.")).toBeInTheDocument();
    expect(stored(3)).toEqual([]);

    await userEvent.type(input, "Ligar para a Maria{Enter}");
    await userEvent.type(input, "  Conferir boletos  ");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(screen.getAllByTestId("todo-item").map((li) => li.textContent)).toEqual([
      expect.stringContaining("Ligar para a Maria"),
      expect.stringContaining("Conferir boletos"),
    ]);
    expect(stored(3).map((t) => t.text)).toEqual(["Ligar para a Maria", "Conferir boletos"]);
    expect(screen.getAllByText(/^Criada em \d\d\/\d\d\/\d{4} \d\d:\d\d$/)).toHaveLength(2);

    await userEvent.click(screen.getByRole("button", { name: "Editar tarefa: Ligar para a Maria" }));
    const editBox = screen.getByLabelText("Editar tarefa");
    expect(editBox).toHaveValue("Ligar para a Maria");
    await userEvent.clear(editBox);
    await userEvent.type(editBox, " {Enter}");
    expect(await screen.findByText("Digite o texto da tarefa.")).toBeInTheDocument();
    await userEvent.type(editBox, "Ligar para a Maria às 15h{Enter}");
    await waitFor(() => expect(stored(3)[0]!.text).toBe("Ligar para a Maria às 15h"));
    expect(stored(3)[0]!.updatedAt >= stored(3)[0]!.createdAt).toBe(true);
    expect(screen.getByLabelText("Nova tarefa")).toHaveValue("");

    await userEvent.click(screen.getByRole("button", { name: "Excluir tarefa: Conferir boletos" }));
    const dialog = await screen.findByRole("dialog", { name: "Excluir esta tarefa?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Excluir" }));
    await waitFor(() => expect(screen.getAllByTestId("todo-item")).toHaveLength(1));
    expect(stored(3).map((t) => t.text)).toEqual(["Ligar para a Maria às 15h"]);
    // Nothing reaches the server.
    expect(calls).toEqual([]);
  });

  it("keeps one list per user on a shared browser and ignores malformed storage", () => {
    localStorage.setItem(
      todoStorageKey(10, 3),
      JSON.stringify([
        { id: "a", text: "Tarefa da Ana", createdAt: "2030-01-01T10:00:00.000Z", updatedAt: "2030-01-01T10:00:00.000Z" },
        { bogus: true },
      ]),
    );
    localStorage.setItem(todoStorageKey(10, 4), "not json");
    const first = renderPage(<TodoListPage />, { session: fakeSession(makeUser({ id: 3 })) });
    expect(screen.getAllByTestId("todo-item")).toHaveLength(1);
    expect(screen.getByText("Tarefa da Ana")).toBeInTheDocument();
    first.unmount();
    renderPage(<TodoListPage />, { session: fakeSession(makeUser({ id: 4 })) });
    expect(screen.getByText("Nenhuma tarefa")).toBeInTheDocument();
  });
});
