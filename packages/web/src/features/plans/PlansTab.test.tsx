import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { PlansTab } from "./PlansTab";

const basic = { id: 1, name: "Básico", users: 3, connections: 1, queues: 3, value: 1234.5, companiesCount: 2 };
const session = () => fakeSession(makeUser({ super: true }));

describe("PlansTab", () => {
  it("lists plans with BRL prices and usage; edits the price through the R$ mask and sends it with a dot", async () => {
    const { calls } = mockFetch({
      "GET /api/plans/all": () => jsonResponse(200, [basic]),
      "PUT /api/plans/1": ({ body }) => jsonResponse(200, { ...basic, ...(body as object) }),
    });
    renderPage(<PlansTab />, { session: session() });
    const row = (await screen.findByText("Básico")).closest("tr")!;
    expect(row).toHaveTextContent(/R\$\s1\.234,50/);
    await userEvent.click(within(row).getByRole("button", { name: "Editar o plano Básico" }));
    const dialog = await screen.findByRole("dialog", { name: "Editar plano" });
    const price = within(dialog).getByLabelText("Valor");
    expect(price).toHaveValue("R$ 1.234,50");
    await userEvent.clear(price);
    await userEvent.type(price, "-99999");
    expect(price).toHaveValue("R$ 999,99");
    await userEvent.type(price, "99999999");
    // 7 integer digits at most.
    expect(price).toHaveValue("R$ 9.999.999,99");
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(calls.find((c) => c.method === "PUT")).toBeTruthy());
    expect(calls.find((c) => c.method === "PUT")!.body).toEqual({ name: "Básico", users: 3, connections: 1, queues: 3, value: 9999999.99 });
  });

  it("a plan in use is not deleted: the toast says how many companies use it", async () => {
    mockFetch({
      "GET /api/plans/all": () => jsonResponse(200, [basic]),
      "DELETE /api/plans/1": () => jsonResponse(409, { error: "ERR_PLAN_IN_USE", meta: { companies: 2 } }),
    });
    renderPage(<PlansTab />, { session: session() });
    await userEvent.click(await screen.findByRole("button", { name: "Excluir o plano Básico" }));
    const dialog = await screen.findByRole("dialog", { name: "Excluir o plano Básico?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Excluir" }));
    expect(await screen.findByText("Este plano está em uso por 2 empresa(s) e não pode ser excluído.")).toBeInTheDocument();
  });

  it("validates limits and an empty price before sending anything", async () => {
    const { calls } = mockFetch({ "GET /api/plans/all": () => jsonResponse(200, []) });
    renderPage(<PlansTab />, { session: session() });
    await userEvent.click(await screen.findByRole("button", { name: "Adicionar plano" }));
    const dialog = await screen.findByRole("dialog", { name: "Novo plano" });
    await userEvent.type(within(dialog).getByLabelText("Nome"), "Ouro");
    await userEvent.clear(within(dialog).getByLabelText("Usuários"));
    await userEvent.type(within(dialog).getByLabelText("Usuários"), "0");
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    expect(await within(dialog).findByText("Informe um número inteiro de 1 a 100.000")).toBeInTheDocument();
    expect(within(dialog).getByText("Informe um valor de até R$ 9.999.999,99")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
  });
});
