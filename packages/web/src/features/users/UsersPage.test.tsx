import type { UserDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import UsersPage from "./UsersPage";

const ana = makeUser({ id: 1, name: "Ana Admin", email: "ana@acme.test", profile: "admin" });
const bia = makeUser({ id: 2, name: "Bia", email: "bia@acme.test", profile: "user" });

describe("UsersPage", () => {
  it("lists users and deletes one after confirmation", async () => {
    let users: UserDTO[] = [ana, bia];
    const { calls } = mockFetch({
      "GET /api/users/": () => jsonResponse(200, { users, hasMore: false }),
      "DELETE /api/users/2": () => {
        users = users.filter((u) => u.id !== 2);
        return jsonResponse(204);
      },
    });
    renderPage(<UsersPage />, { session: fakeSession(ana), path: "/users" });
    const table = await screen.findByRole("table", { name: "Usuários" });
    expect(await within(table).findByText("bia@acme.test")).toBeInTheDocument();
    const biaRow = within(table).getByText("Bia").closest("tr")!;
    expect(within(biaRow).getByText("Usuário")).toBeInTheDocument();
    expect(within(table).getByText("Administrador")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Excluir Bia" }));
    const dialog = await screen.findByRole("dialog", { name: "Excluir Bia?" });
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(within(dialog).getByRole("button", { name: "Excluir" }));
    await waitFor(() => expect(within(table).queryByText("Bia")).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.url)).toEqual(["/api/users/2"]);
    expect(await screen.findByText("Usuário excluído com sucesso.")).toBeInTheDocument();
  });

  it("cancelling the confirmation deletes nothing", async () => {
    const { calls } = mockFetch({ "GET /api/users/": () => jsonResponse(200, { users: [ana, bia], hasMore: false }) });
    renderPage(<UsersPage />, { session: fakeSession(ana), path: "/users" });
    await userEvent.click(await screen.findByRole("button", { name: "Excluir Bia" }));
    await userEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    expect(screen.getByText("Bia")).toBeInTheDocument();
  });

  it("searches after the debounce with the typed text", async () => {
    const { calls } = mockFetch({
      "GET /api/users/": ({ url }) =>
        jsonResponse(200, { users: new URL(url, "http://x").searchParams.get("searchParam") === "bia" ? [bia] : [ana, bia], hasMore: false }),
    });
    renderPage(<UsersPage />, { session: fakeSession(ana), path: "/users" });
    expect(await screen.findByText("Ana Admin")).toBeInTheDocument();
    await userEvent.type(screen.getByRole("searchbox", { name: "Pesquisar" }), "Bia");
    await waitFor(() => expect(screen.queryByText("Ana Admin")).not.toBeInTheDocument(), { timeout: 4000 });
    const searches = calls.map((c) => new URL(c.url, "http://x").searchParams.get("searchParam"));
    expect(searches).toEqual(["", "bia"]);
    expect(calls[1].url).toContain("pageNumber=1");
  });

  it("shows an empty state when there are no users", async () => {
    mockFetch({ "GET /api/users/": () => jsonResponse(200, { users: [], hasMore: false }) });
    renderPage(<UsersPage />, { session: fakeSession(ana), path: "/users" });
    expect(await screen.findByText("Nenhum usuário encontrado")).toBeInTheDocument();
  });
});
