import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { UserModal } from "./UserModal";

describe("UserModal", () => {
  it("hides profile and queues from non-admins and does not send them", async () => {
    const me = makeUser({ id: 5, name: "Bia", email: "bia@acme.test", profile: "user" });
    const setUser = vi.fn();
    const onClose = vi.fn();
    const { calls } = mockFetch({ "PUT /api/users/5": ({ body }) => jsonResponse(200, { ...me, ...(body as object) }) });
    renderPage(<UserModal open user={me} onClose={onClose} />, { session: fakeSession(me, { setUser }) });
    expect(screen.getByLabelText("Nome")).toHaveValue("Bia");
    expect(screen.queryByRole("combobox", { name: "Perfil" })).not.toBeInTheDocument();
    expect(screen.queryByRole("combobox", { name: "Filas" })).not.toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText("Nome"));
    await userEvent.type(screen.getByLabelText("Nome"), "Bia Souza{Enter}");
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.some((c) => c.url.startsWith("/api/queue"))).toBe(false);
    expect(calls[0].body).toEqual({ name: "Bia Souza", email: "bia@acme.test" });
    expect(setUser).toHaveBeenCalledWith(expect.objectContaining({ name: "Bia Souza" }));
    expect(await screen.findByText("Usuário salvo com sucesso.")).toBeInTheDocument();
  });

  it("shows profile and queues to admins; a failing queue list means no options", async () => {
    mockFetch({ "GET /api/queue": () => jsonResponse(404, { error: "ERR_NOT_FOUND" }) });
    renderPage(<UserModal open onClose={() => {}} />, { session: fakeSession(makeUser()) });
    expect(screen.getByRole("combobox", { name: "Perfil" })).toHaveTextContent("Usuário");
    expect(screen.getByRole("combobox", { name: "Filas" })).toBeInTheDocument();
    expect(await screen.findByText("Nenhuma fila disponível")).toBeInTheDocument();
  });

  it("offers the three profiles, supervisor included, and sends the one chosen", async () => {
    const onClose = vi.fn();
    const { calls } = mockFetch({
      "GET /api/queue": () => jsonResponse(200, []),
      "POST /api/users": ({ body }) => jsonResponse(201, makeUser({ id: 9, ...(body as object) })),
    });
    renderPage(<UserModal open onClose={onClose} />, { session: fakeSession(makeUser()) });
    await userEvent.click(screen.getByRole("combobox", { name: "Perfil" }));
    expect((await screen.findAllByRole("option")).map((o) => o.textContent)).toEqual(["Administrador", "Supervisor", "Usuário"]);
    await userEvent.click(screen.getByRole("option", { name: "Supervisor" }));
    await userEvent.type(screen.getByLabelText("Nome"), "Sara");
    await userEvent.type(screen.getByLabelText("E-mail"), "sara@acme.test");
    await userEvent.type(screen.getByLabelText("Senha"), "abcdef");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({ name: "Sara", profile: "supervisor" });
  });

  it("validates with the shared schema and creates a user with profile and queues", async () => {
    const onClose = vi.fn();
    const { calls } = mockFetch({
      "GET /api/queue": () => jsonResponse(200, [{ id: 3, name: "Vendas", color: "#0a0" }]),
      "POST /api/users": ({ body }) => jsonResponse(201, makeUser({ id: 9, ...(body as object) })),
    });
    renderPage(<UserModal open onClose={onClose} />, { session: fakeSession(makeUser()) });
    expect(screen.getByLabelText("Nome")).toHaveFocus();
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findAllByText("Obrigatório")).toHaveLength(3);
    await userEvent.type(screen.getByLabelText("Nome"), "Caio");
    await userEvent.type(screen.getByLabelText("E-mail"), "caio@acme.test");
    await userEvent.type(screen.getByLabelText("Senha"), "abc");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findByText("Muito curto!")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Senha"), "def");
    await userEvent.click(screen.getByRole("combobox", { name: "Filas" }));
    await userEvent.click(await screen.findByRole("option", { name: "Vendas" }));
    await userEvent.keyboard("{Escape}");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({
      name: "Caio",
      email: "caio@acme.test",
      password: "abcdef",
      profile: "user",
      queueIds: [3],
    });
  });

  it("shows the plan's user limit from the server error", async () => {
    mockFetch({
      "GET /api/queue": () => jsonResponse(200, []),
      "POST /api/users": () => jsonResponse(400, { error: "ERR_USER_LIMIT_REACHED", meta: { limit: 3 } }),
    });
    renderPage(<UserModal open onClose={() => {}} />, { session: fakeSession(makeUser()) });
    await userEvent.type(screen.getByLabelText("Nome"), "Caio");
    await userEvent.type(screen.getByLabelText("E-mail"), "caio@acme.test");
    await userEvent.type(screen.getByLabelText("Senha"), "abcdef{Enter}");
    expect(await screen.findByText("Número máximo de usuários já alcançado: 3")).toBeInTheDocument();
  });
});
