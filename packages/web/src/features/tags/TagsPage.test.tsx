import type { TagDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { renderWithSocket } from "../connections/testSocket";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import TagsPage from "./TagsPage";

const tag = (id: number, name: string, ticketsCount = 0): TagDTO => ({
  id,
  companyId: 10,
  name,
  color: "#1565C0",
  kanban: 0,
  userId: 1,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
  ticketsCount,
});

describe("TagsPage", () => {
  it("shows chips with ticket counts, follows `tag` events and deletes after confirmation (admin)", async () => {
    const { calls } = mockFetch({
      "GET /api/tags/": () => jsonResponse(200, { tags: [tag(1, "Urgente", 3), tag(2, "VIP", 12)], hasMore: false }),
      "DELETE /api/tags/1": () => jsonResponse(204),
    });
    const { emit } = renderWithSocket(<TagsPage />, { session: fakeSession(makeUser({ profile: "admin" })), path: "/tags" });
    const row = (await screen.findByText("VIP")).closest("tr")!;
    expect(within(row).getByTestId("tag-tickets-count")).toHaveTextContent("12");

    emit("tag", { action: "create", tag: { ...tag(3, "Novo"), ticketsCount: undefined } });
    expect(await screen.findByText("Novo")).toBeInTheDocument();
    emit("tag", { action: "update", tag: { ...tag(2, "VIP Ouro"), ticketsCount: undefined } });
    const updated = (await screen.findByText("VIP Ouro")).closest("tr")!;
    expect(within(updated).getByTestId("tag-tickets-count")).toHaveTextContent("12");

    await userEvent.click(screen.getByRole("button", { name: "Excluir Urgente" }));
    const dialog = await screen.findByRole("dialog", { name: "Excluir a tag Urgente?" });
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(within(dialog).getByRole("button", { name: "Excluir" }));
    await waitFor(() => expect(screen.queryByText("Urgente")).not.toBeInTheDocument());
    expect(await screen.findByText("Tag excluída com sucesso.")).toBeInTheDocument();
    emit("tag", { action: "delete", tagId: 3 });
    await waitFor(() => expect(screen.queryByText("Novo")).not.toBeInTheDocument());
  });

  it("gives attendants the list and the add button, without edit or delete", async () => {
    mockFetch({ "GET /api/tags/": () => jsonResponse(200, { tags: [tag(1, "Urgente", 3)], hasMore: false }) });
    renderPage(<TagsPage />, { session: fakeSession(makeUser({ profile: "user" })), path: "/tags" });
    expect(await screen.findByText("Urgente")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Adicionar tag" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Excluir Urgente" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Editar Urgente" })).not.toBeInTheDocument();
  });

  it("shows an empty state", async () => {
    mockFetch({ "GET /api/tags/": () => jsonResponse(200, { tags: [], hasMore: false }) });
    renderPage(<TagsPage />, { session: fakeSession(makeUser()), path: "/tags" });
    expect(await screen.findByText("Nenhuma tag encontrada")).toBeInTheDocument();
  });
});
