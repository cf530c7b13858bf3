import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { jsonResponse, mockFetch, renderPage } from "../../test/utils";
import SignupPage from "./SignupPage";

const plans = [
  { id: 1, name: "Básico", users: 3, connections: 1, queues: 2, value: 99.9 },
  { id: 2, name: "Pro", users: 10, connections: 3, queues: 10, value: 1299 },
];

async function pickPlan(name: RegExp) {
  await userEvent.click(screen.getByRole("combobox", { name: "Plano" }));
  await userEvent.click(within(await screen.findByRole("listbox")).getByRole("option", { name }));
}

describe("SignupPage", () => {
  it("shows the shared validation texts", async () => {
    const { calls } = mockFetch({ "GET /api/plans/list": () => jsonResponse(200, plans) });
    renderPage(<SignupPage />, { path: "/signup" });
    await userEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    expect(await screen.findAllByText("Obrigatório")).toHaveLength(4); // name, email, password, plan
    await userEvent.type(screen.getByLabelText("Nome da empresa"), "A");
    await userEvent.type(screen.getByLabelText("E-mail"), "not-an-email");
    await userEvent.type(screen.getByLabelText("Senha"), "1234");
    await userEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    expect(await screen.findAllByText("Muito curto!")).toHaveLength(2);
    expect(screen.getByText("E-mail inválido")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Nome da empresa"), "x".repeat(60));
    await userEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    expect(await screen.findByText("Muito longo!")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);
  });

  it("lists plans with limits and BRL price, signs up and goes to /login", async () => {
    const { calls } = mockFetch({
      "GET /api/plans/list": () => jsonResponse(200, plans),
      "POST /api/companies/cadastro": () => jsonResponse(201, { companyId: 4, userId: 9 }),
    });
    renderPage(<SignupPage />, { path: "/signup?companyId=12", routePath: "/signup" });
    await userEvent.type(screen.getByLabelText("Nome da empresa"), "Padaria Pão Quente");
    await userEvent.type(screen.getByLabelText("E-mail"), "dono@padaria.test");
    await userEvent.type(screen.getByLabelText("Telefone com DDD"), "11999990000");
    await userEvent.type(screen.getByLabelText("Senha"), "segredo1");
    await userEvent.click(screen.getByRole("combobox", { name: "Plano" }));
    const options = within(await screen.findByRole("listbox")).getAllByRole("option");
    expect(options[1]).toHaveTextContent(/Pro - Usuários: 10 - Conexões: 3 - Filas: 10 - R\$\s1\.299,00/);
    await userEvent.click(options[1]);
    await userEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    expect(await screen.findByText("Usuário criado com sucesso! Faça seu login!!!.")).toBeInTheDocument();
    expect(await screen.findByTestId("location")).toHaveTextContent("/login");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({
      name: "Padaria Pão Quente",
      email: "dono@padaria.test",
      phone: "11999990000",
      password: "segredo1",
      planId: 2,
    });
  });

  it("shows the failure text plus the translated server error, and the error under the e-mail", async () => {
    mockFetch({
      "GET /api/plans/list": () => jsonResponse(200, plans),
      "POST /api/companies/cadastro": () => jsonResponse(400, { error: "ERR_DUPLICATED_EMAIL" }),
    });
    renderPage(<SignupPage />, { path: "/signup" });
    await userEvent.type(screen.getByLabelText("Nome da empresa"), "Padaria");
    await userEvent.type(screen.getByLabelText("E-mail"), "dono@padaria.test");
    await userEvent.type(screen.getByLabelText("Senha"), "segredo1");
    await pickPlan(/Básico/);
    await userEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    expect(
      await screen.findByText("Erro ao criar usuário. Verifique os dados informados. Já existe um usuário com este e-mail."),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("E-mail")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("Já existe um usuário com este e-mail.")).toBeInTheDocument();
    expect(screen.queryByTestId("location")).not.toBeInTheDocument();
  });
});
