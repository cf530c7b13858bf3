import { addDays, addRecurrence, todayIn, type CompanyDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { CompaniesTab, nextDueDate } from "./CompaniesTab";

const today = todayIn("America/Sao_Paulo");

const company = (id: number, name: string, overrides: Partial<CompanyDTO> = {}): CompanyDTO => ({
  id,
  name,
  email: `${name.toLowerCase().replace(/\s/g, "")}@test.dev`,
  phone: "",
  planId: 1,
  plan: { id: 1, name: "Básico", value: 49.9 },
  status: true,
  campaignsEnabled: true,
  dueDate: addDays(today, 30),
  recurrence: "MENSAL",
  timeZone: "America/Sao_Paulo",
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
  ...overrides,
});

const superUser = makeUser({ super: true, companyId: 1 });
const plans = [{ id: 1, name: "Básico", users: 3, connections: 1, queues: 3, value: 49.9, companiesCount: 1 }];
const rowOf = async (name: string) => (await screen.findByText(name)).closest("tr")!;

describe("CompaniesTab", () => {
  it("colours rows by days to the due date as spec §9 says: 5 yellow, −3..4 orange, −4 red, others none", async () => {
    const rows = [
      company(2, "Seis Dias", { dueDate: addDays(today, 6) }),
      company(3, "Cinco Dias", { dueDate: addDays(today, 5) }),
      company(4, "Quatro Dias", { dueDate: addDays(today, 4) }),
      company(5, "Vence Hoje", { dueDate: today }),
      company(6, "Venceu Há Três", { dueDate: addDays(today, -3) }),
      company(7, "Venceu Há Quatro", { dueDate: addDays(today, -4) }),
      company(8, "Venceu Há Cinco", { dueDate: addDays(today, -5) }),
      company(9, "Sem Vencimento", { dueDate: null }),
    ];
    mockFetch({ "GET /api/companies": () => jsonResponse(200, { companies: rows, hasMore: false }) });
    renderPage(<CompaniesTab />, { session: fakeSession(superUser) });
    const tones = Object.fromEntries(await Promise.all(rows.map(async (c) => [c.name, (await rowOf(c.name)).getAttribute("data-tone")] as const)));
    expect(tones).toEqual({
      "Seis Dias": "none",
      "Cinco Dias": "yellow",
      "Quatro Dias": "orange",
      "Vence Hoje": "orange",
      "Venceu Há Três": "orange",
      "Venceu Há Quatro": "red",
      "Venceu Há Cinco": "none",
      "Sem Vencimento": "none",
    });
  });

  it("'+ Vencimento' sends the due date plus the recurrence span; deactivate sends status false", async () => {
    const expired = company(2, "Loja Vencida", { dueDate: "2028-01-31", recurrence: "MENSAL" });
    const { calls } = mockFetch({
      "GET /api/companies": () => jsonResponse(200, { companies: [expired], hasMore: false }),
      "PUT /api/companies/2": ({ body }) => jsonResponse(200, { ...expired, ...(body as object) }),
    });
    renderPage(<CompaniesTab />, { session: fakeSession(superUser) });
    const row = await rowOf("Loja Vencida");
    await userEvent.click(within(row).getByRole("button", { name: "+ Vencimento da empresa Loja Vencida" }));
    await waitFor(() => expect(calls.find((c) => c.method === "PUT")).toMatchObject({ body: { dueDate: "2028-02-29" } }));
    expect(await screen.findByText("Vencimento de Loja Vencida: 29/02/2028")).toBeInTheDocument();

    await userEvent.click(within(row).getByRole("button", { name: "Desativar a empresa Loja Vencida" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")[1]).toMatchObject({ body: { status: false } }));
  });

  it("nextDueDate: from the due date, or from today when there is none", () => {
    expect(nextDueDate({ dueDate: "2026-08-31", recurrence: "SEMESTRAL", timeZone: "UTC" })).toBe("2027-02-28");
    expect(nextDueDate({ dueDate: null, recurrence: "ANUAL", timeZone: "America/Sao_Paulo" })).toBe(addRecurrence(today, "ANUAL"));
  });

  it("deletes only after a confirmation that names the company; not the super user's own company", async () => {
    const { calls } = mockFetch({
      "GET /api/companies": () => jsonResponse(200, { companies: [company(1, "Plataforma"), company(2, "Padaria Central")], hasMore: false }),
      "DELETE /api/companies/2": () => jsonResponse(204),
    });
    renderPage(<CompaniesTab />, { session: fakeSession(superUser) });
    const own = await rowOf("Plataforma");
    expect(within(own).queryByRole("button", { name: /Excluir/ })).not.toBeInTheDocument();
    await userEvent.click(within(await rowOf("Padaria Central")).getByRole("button", { name: "Excluir a empresa Padaria Central" }));
    const dialog = await screen.findByRole("dialog", { name: "Excluir a empresa Padaria Central?" });
    expect(dialog).toHaveTextContent("Todos os dados da empresa");
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(within(dialog).getByRole("button", { name: "Excluir" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE" && c.url === "/api/companies/2")).toBe(true));
  });

  it("creates a company; an empty due date is sent as null", async () => {
    const { calls } = mockFetch({
      "GET /api/companies": () => jsonResponse(200, { companies: [], hasMore: false }),
      "GET /api/plans/all": () => jsonResponse(200, plans),
      "POST /api/companies": ({ body }) => jsonResponse(201, company(5, (body as { name: string }).name)),
    });
    renderPage(<CompaniesTab />, { session: fakeSession(superUser) });
    await userEvent.click(await screen.findByRole("button", { name: "Adicionar empresa" }));
    const dialog = await screen.findByRole("dialog", { name: "Nova empresa" });
    await userEvent.type(within(dialog).getByLabelText("Nome"), "Oficina do Zé");
    await userEvent.type(within(dialog).getByLabelText("E-mail"), "ze@oficina.dev");
    await userEvent.type(within(dialog).getByLabelText("Senha do administrador"), "segredo");
    await userEvent.click(within(dialog).getByRole("combobox", { name: "Plano" }));
    await userEvent.click(await screen.findByRole("option", { name: "Básico" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(calls.find((c) => c.method === "POST")).toBeTruthy());
    expect(calls.find((c) => c.method === "POST")!.body).toEqual({
      name: "Oficina do Zé",
      email: "ze@oficina.dev",
      phone: "",
      password: "segredo",
      planId: 1,
      status: true,
      campaignsEnabled: true,
      dueDate: null,
      recurrence: "MENSAL",
    });
    expect(await screen.findByText("Operação realizada com sucesso!")).toBeInTheDocument();
  });

  it("a save without a specific reason shows spec §8's text", async () => {
    mockFetch({
      "GET /api/companies": () => jsonResponse(200, { companies: [company(2, "Mercado")], hasMore: false }),
      "GET /api/plans/all": () => jsonResponse(200, plans),
      "PUT /api/companies/2": () => jsonResponse(500, { error: "boom" }),
    });
    renderPage(<CompaniesTab />, { session: fakeSession(superUser) });
    await userEvent.click(within(await rowOf("Mercado")).getByRole("button", { name: "Editar a empresa Mercado" }));
    const dialog = await screen.findByRole("dialog", { name: "Editar empresa" });
    expect(within(dialog).queryByLabelText("Senha do administrador")).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    expect(
      await screen.findByText(
        "Não foi possível realizar a operação. Verifique se já existe uma empresa com o mesmo nome ou se os campos foram preenchidos corretamente",
      ),
    ).toBeInTheDocument();
  });
});
