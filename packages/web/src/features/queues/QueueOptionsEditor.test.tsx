import type { QueueOptionDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage, type FetchCall } from "../../test/utils";
import { makeOption } from "./fixtures";
import { QueueOptionsEditor } from "./QueueOptionsEditor";

/** An in-memory /queue-options server: a flat list answered as a tree of roots with their subtrees. */
function optionsServer(initial: QueueOptionDTO[] = []) {
  let rows: QueueOptionDTO[] = initial.map((o) => ({ ...o, children: [] }));
  let nextId = 100;
  const tree = (parentId: number | null): QueueOptionDTO[] =>
    rows
      .filter((o) => o.parentId === parentId)
      .sort((a, b) => Number(a.option) - Number(b.option))
      .map((o) => ({ ...o, children: tree(o.id) }));
  const idOf = (call: FetchCall) => Number(call.url.split("/").pop());
  const subtree = (id: number): number[] => [id, ...rows.filter((o) => o.parentId === id).flatMap((o) => subtree(o.id))];
  return mockFetch({
    "GET /api/queue-options": () => jsonResponse(200, tree(null)),
    "POST /api/queue-options": ({ body }) => {
      const b = body as { queueId: number; parentId?: number; title: string; message: string; option?: string };
      const parentId = b.parentId ?? null;
      const siblings = rows.filter((o) => o.parentId === parentId);
      if (b.option && siblings.some((o) => o.option === b.option)) return jsonResponse(400, { error: "ERR_QUEUE_OPTION_ALREADY_EXISTS" });
      const row = makeOption({
        id: nextId++,
        queueId: b.queueId,
        parentId,
        title: b.title,
        message: b.message,
        option: b.option ?? String(siblings.length + 1),
      });
      rows.push(row);
      return jsonResponse(201, row);
    },
    "PUT /api/queue-options/1": (call) => {
      rows = rows.map((o) => (o.id === idOf(call) ? { ...o, ...(call.body as object) } : o));
      return jsonResponse(
        200,
        rows.find((o) => o.id === idOf(call)),
      );
    },
    "PUT /api/queue-options/100": (call) => {
      rows = rows.map((o) => (o.id === idOf(call) ? { ...o, ...(call.body as object) } : o));
      return jsonResponse(
        200,
        rows.find((o) => o.id === idOf(call)),
      );
    },
    "DELETE /api/queue-options/1": (call) => {
      const gone = subtree(idOf(call));
      rows = rows.filter((o) => !gone.includes(o.id));
      return jsonResponse(204);
    },
  });
}

const session = fakeSession(makeUser());

describe("QueueOptionsEditor", () => {
  it("asks to save a new queue first", () => {
    const { calls } = mockFetch({});
    renderPage(<QueueOptionsEditor queueId={undefined} />, { session });
    expect(screen.getByText("Salve a fila primeiro; depois você poderá montar as opções do chatbot aqui.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Adicionar opção" })).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("adds a child option under an existing one and edits it", async () => {
    const { calls } = optionsServer([makeOption({ id: 1, queueId: 5, title: "Comprar", option: "1" })]);
    renderPage(<QueueOptionsEditor queueId={5} />, { session });
    const root = await screen.findByRole("listitem", { name: "1 - Comprar" });
    expect(calls[0]!.url).toBe("/api/queue-options?queueId=5&parentId=-1");

    await userEvent.click(within(root).getByRole("button", { name: "Adicionar sub-opção em Comprar" }));
    const form = screen.getByRole("form", { name: "Nova sub-opção" });
    expect(within(form).getByLabelText("Título")).toHaveFocus();
    await userEvent.click(within(form).getByRole("button", { name: "Salvar opção" }));
    expect(await within(form).findByText("Obrigatório")).toBeInTheDocument();
    await userEvent.paste("Celulares");
    await userEvent.click(within(form).getByLabelText("Mensagem"));
    await userEvent.paste("Escolha a marca");
    await userEvent.click(within(form).getByRole("button", { name: "Salvar opção" }));

    const child = await screen.findByRole("listitem", { name: "1 - Celulares" });
    expect(within(screen.getByRole("list", { name: "Sub-opções de Comprar" })).getByText("Celulares")).toBeInTheDocument();
    expect(child).toHaveAttribute("data-depth", "2");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ queueId: 5, parentId: 1, title: "Celulares", message: "Escolha a marca" });
    expect(await screen.findByText("Opção salva com sucesso.")).toBeInTheDocument();

    await userEvent.click(within(child).getByRole("button", { name: "Editar opção Celulares" }));
    const edit = screen.getByRole("form", { name: "Editar opção" });
    expect(within(edit).getByLabelText("Título")).toHaveValue("Celulares");
    const number = within(edit).getByLabelText("Número");
    await userEvent.clear(number);
    await userEvent.type(number, "0");
    await userEvent.click(within(edit).getByRole("button", { name: "Salvar opção" }));
    expect(await within(edit).findByText("A opção deve ser um número de 1 a 999")).toBeInTheDocument();
    await userEvent.clear(number);
    await userEvent.type(number, "7{Enter}");
    expect(await screen.findByRole("listitem", { name: "7 - Celulares" })).toBeInTheDocument();
    expect(calls.find((c) => c.method === "PUT")).toMatchObject({
      url: "/api/queue-options/100",
      body: { title: "Celulares", message: "Escolha a marca", option: "7" },
    });
  }, 30_000);

  it("adds a root option, translates a duplicated number, and Escape cancels", async () => {
    const { calls } = optionsServer([makeOption({ id: 1, queueId: 5, title: "Comprar", option: "1" })]);
    renderPage(<QueueOptionsEditor queueId={5} />, { session });
    await screen.findByRole("listitem", { name: "1 - Comprar" });
    await userEvent.click(screen.getByRole("button", { name: "Adicionar opção" }));
    const form = screen.getByRole("form", { name: "Nova opção" });
    await userEvent.paste("Suporte");
    await userEvent.type(within(form).getByLabelText("Número"), "1{Enter}");
    expect(await within(form).findByText("Já existe uma opção com este número neste nível.")).toBeInTheDocument();
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ queueId: 5, title: "Suporte", message: "", option: "1" });
    await userEvent.clear(within(form).getByLabelText("Número"));
    await userEvent.type(within(form).getByLabelText("Número"), "2{Enter}");
    expect(await screen.findByRole("listitem", { name: "2 - Suporte" })).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Adicionar opção" }));
    expect(screen.getByRole("form", { name: "Nova opção" })).toBeInTheDocument();
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("form", { name: "Nova opção" })).not.toBeInTheDocument());
  }, 30_000);

  it("deletes an option with its subtree only after confirmation", async () => {
    const { calls } = optionsServer([
      makeOption({ id: 1, queueId: 5, title: "Comprar", option: "1" }),
      makeOption({ id: 2, queueId: 5, parentId: 1, title: "Celulares", option: "1" }),
      makeOption({ id: 3, queueId: 5, title: "Suporte", option: "2" }),
    ]);
    renderPage(<QueueOptionsEditor queueId={5} />, { session });
    const root = await screen.findByRole("listitem", { name: "1 - Comprar" });
    expect(within(root).getByRole("listitem", { name: "1 - Celulares" })).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Excluir opção Comprar" }));
    const dialog = await screen.findByRole("dialog", { name: "Excluir a opção Comprar?" });
    expect(dialog).toHaveTextContent("As sub-opções desta opção também serão excluídas.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);

    await userEvent.click(screen.getByRole("button", { name: "Excluir opção Comprar" }));
    await userEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Excluir" }));
    await waitFor(() => expect(screen.queryByText("Comprar")).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.queryByText("Celulares")).not.toBeInTheDocument();
    expect(screen.getByRole("listitem", { name: "2 - Suporte" })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.url)).toEqual(["/api/queue-options/1"]);
    expect(await screen.findByText("Opção excluída com sucesso.")).toBeInTheDocument();
  }, 30_000);
});
