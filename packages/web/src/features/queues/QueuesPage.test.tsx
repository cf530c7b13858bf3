import type { QueueDTO } from "@balcao/shared";
import { QueryClient } from "@tanstack/react-query";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { queryKeys } from "../../api/queryKeys";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { makeQueue } from "./fixtures";
import { patchQueuesCache } from "./queuesCache";
import QueuesPage from "./QueuesPage";

const admin = makeUser();
const vendas = makeQueue({ id: 1, name: "Vendas", color: "#1565C0", greetingMessage: "Bem-vindo às vendas", orderQueue: 1 });
const suporte = makeQueue({ id: 2, name: "Suporte", color: "#D32F2F", greetingMessage: "", orderQueue: 2 });

describe("QueuesPage", () => {
  it("lists name, colour swatch and greeting, and deletes after confirmation", async () => {
    let queues: QueueDTO[] = [vendas, suporte];
    const { calls } = mockFetch({
      "GET /api/queue": () => jsonResponse(200, queues),
      "DELETE /api/queue/2": () => {
        queues = [vendas];
        return jsonResponse(204);
      },
    });
    renderPage(<QueuesPage />, { session: fakeSession(admin), path: "/queues" });
    const table = await screen.findByRole("table", { name: "Filas & Chatbot" });
    const row = (await within(table).findByText("Vendas")).closest("tr")!;
    expect(within(row).getByRole("img", { name: "Cor #1565C0" })).toBeInTheDocument();
    expect(within(row).getByText("Bem-vindo às vendas")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Excluir Suporte" }));
    const dialog = await screen.findByRole("dialog", { name: "Excluir Suporte?" });
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(within(dialog).getByRole("button", { name: "Excluir" }));
    await waitFor(() => expect(within(table).queryByText("Suporte")).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.url)).toEqual(["/api/queue/2"]);
    expect(await screen.findByText("Fila excluída com sucesso.")).toBeInTheDocument();
  }, 30_000);

  it("shows an empty state and opens the add modal", async () => {
    mockFetch({ "GET /api/queue": () => jsonResponse(200, []), "GET /api/settings": () => jsonResponse(200, []) });
    renderPage(<QueuesPage />, { session: fakeSession(admin), path: "/queues" });
    expect(await screen.findByText("Nenhuma fila cadastrada")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Adicionar fila" }));
    expect(await screen.findByRole("dialog", { name: "Adicionar fila" })).toBeInTheDocument();
  }, 30_000);

  it("is for admins only", () => {
    const { calls } = mockFetch({});
    renderPage(<QueuesPage />, { session: fakeSession(makeUser({ profile: "user" })), path: "/queues" });
    expect(screen.getByText("Somente administradores podem gerenciar as filas.")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

describe("patchQueuesCache (socket `queue` events)", () => {
  it("adds in menu order, replaces and removes", () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.queues, [vendas, suporte]);
    const nova = makeQueue({ id: 3, name: "Financeiro", orderQueue: null, createdAt: "2025-02-01T00:00:00.000Z" });
    patchQueuesCache(client, { action: "create", queue: nova });
    patchQueuesCache(client, { action: "update", queue: { ...suporte, orderQueue: 0, name: "Suporte técnico" } });
    expect(client.getQueryData<QueueDTO[]>(queryKeys.queues)?.map((q) => q.name)).toEqual(["Suporte técnico", "Vendas", "Financeiro"]);
    client.setQueryData(["queue-options", 1], []);
    patchQueuesCache(client, { action: "delete", queueId: 1 });
    expect(client.getQueryData<QueueDTO[]>(queryKeys.queues)?.map((q) => q.id)).toEqual([2, 3]);
    expect(client.getQueryData(["queue-options", 1])).toBeUndefined();
  });

  it("leaves an unloaded list alone", () => {
    const client = new QueryClient();
    patchQueuesCache(client, { action: "create", queue: vendas });
    expect(client.getQueryData(queryKeys.queues)).toBeUndefined();
  });
});
