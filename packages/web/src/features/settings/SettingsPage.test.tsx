import { DEFAULT_COMPANY_SETTINGS, WEEKDAYS_EN, WEEKDAY_LABELS, type SettingDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import SettingsPage from "./SettingsPage";

const admin = makeUser({ companyId: 10 });
const settingsWith = (overrides: Record<string, string> = {}): SettingDTO[] =>
  Object.entries({ ...DEFAULT_COMPANY_SETTINGS, ...overrides }).map(([key, value]) => ({ key, value }));
const tabNames = () => screen.getAllByRole("tab").map((tab) => tab.textContent);

describe("SettingsPage tabs", () => {
  it("shows only Opções while scheduleType is not 'company' (admin, not super)", async () => {
    mockFetch({ "GET /api/settings": () => jsonResponse(200, settingsWith({ scheduleType: "queue" })) });
    renderPage(<SettingsPage />, { session: fakeSession(admin), path: "/settings" });
    expect(await screen.findByRole("combobox", { name: "Gerenciamento de expediente" })).toHaveTextContent("Fila");
    expect(tabNames()).toEqual(["Opções", "E-mail"]);
  });

  it("adds Horários when scheduleType is 'company' and the Empresas, Planos and Ajuda tabs for super users", async () => {
    mockFetch({
      "GET /api/settings": () => jsonResponse(200, settingsWith({ scheduleType: "company" })),
      "GET /api/companies/10/schedules": () => jsonResponse(200, { companyId: 10, schedules: [] }),
      "GET /api/plans/all": () => jsonResponse(200, [{ id: 1, name: "Básico", users: 3, connections: 1, queues: 3, value: 49.9, companiesCount: 2 }]),
    });
    renderPage(<SettingsPage />, { session: fakeSession(makeUser({ companyId: 10, super: true })), path: "/settings" });
    await waitFor(() => expect(tabNames()).toEqual(["Opções", "Horários", "E-mail", "Empresas", "Planos", "Ajuda"]));
    await userEvent.click(screen.getByRole("tab", { name: "Planos" }));
    expect(await within(screen.getByRole("tabpanel")).findByText("Básico")).toBeInTheDocument();
  });

  it("is for admins only", () => {
    const { calls } = mockFetch({});
    renderPage(<SettingsPage />, { session: fakeSession(makeUser({ profile: "user" })), path: "/settings" });
    expect(screen.getByText("Somente administradores podem alterar as configurações.")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

describe("SettingsPage options", () => {
  it("lists every option of spec §9 with its pt labels", async () => {
    mockFetch({ "GET /api/settings": () => jsonResponse(200, settingsWith()) });
    renderPage(<SettingsPage />, { session: fakeSession(admin), path: "/settings" });
    const expected: [string, string][] = [
      ["Avaliações", "Desabilitado"],
      ["Gerenciamento de expediente", "Desabilitado"],
      ["Aceitar chamadas", "Habilitado"],
      ["Ignorar mensagens de grupos", "Habilitado"],
      ["Enviar saudação ao aceitar o atendimento", "Desabilitado"],
      ["Enviar mensagem de transferência de fila/atendente", "Desabilitado"],
      ["Tipo do chatbot", "Texto"],
    ];
    for (const [label, value] of expected) expect(await screen.findByRole("combobox", { name: label })).toHaveTextContent(value);
    // userCreation opens or closes public sign-up (the platform company's value): super users only.
    expect(screen.queryByRole("combobox", { name: "Criação de usuários" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("combobox", { name: "Gerenciamento de expediente" }));
    expect((await screen.findAllByRole("option")).map((o) => o.textContent)).toEqual(["Desabilitado", "Fila", "Empresa"]);
  });

  it("shows userCreation (public sign-up) to super users", async () => {
    mockFetch({ "GET /api/settings": () => jsonResponse(200, settingsWith({ userCreation: "enabled" })) });
    renderPage(<SettingsPage />, { session: fakeSession(makeUser({ super: true })), path: "/settings" });
    expect(await screen.findByRole("combobox", { name: "Criação de usuários" })).toHaveTextContent("Habilitado");
  });

  it("saves a change at once with PUT /settings/:key, toasts, and then shows Horários", async () => {
    let scheduleType = "disabled";
    const { calls } = mockFetch({
      "GET /api/settings": () => jsonResponse(200, settingsWith({ scheduleType })),
      "PUT /api/settings/userRating": ({ body }) => jsonResponse(200, { key: "userRating", value: (body as { value: string }).value }),
      "PUT /api/settings/scheduleType": ({ body }) => {
        scheduleType = (body as { value: string }).value;
        return jsonResponse(200, { key: "scheduleType", value: scheduleType });
      },
    });
    renderPage(<SettingsPage />, { session: fakeSession(admin), path: "/settings" });
    await userEvent.click(await screen.findByRole("combobox", { name: "Avaliações" }));
    await userEvent.click(await screen.findByRole("option", { name: "Habilitado" }));
    expect(await screen.findByText("Operação atualizada com sucesso.")).toBeInTheDocument();
    expect(calls.find((c) => c.method === "PUT")).toMatchObject({ url: "/api/settings/userRating", body: { value: "enabled" } });
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Avaliações" })).toHaveTextContent("Habilitado"));

    expect(screen.queryByRole("tab", { name: "Horários" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("combobox", { name: "Gerenciamento de expediente" }));
    await userEvent.click(await screen.findByRole("option", { name: "Empresa" }));
    expect(await screen.findByRole("tab", { name: "Horários" })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "PUT").map((c) => c.url)).toEqual(["/api/settings/userRating", "/api/settings/scheduleType"]);
  }, 30_000);

  it("offers what happens to replies sent while a connection is down: queue (default) or fail (issue 21)", async () => {
    const { calls } = mockFetch({
      "GET /api/settings": () => jsonResponse(200, settingsWith()),
      "PUT /api/settings/sendWhileDisconnected": ({ body }) =>
        jsonResponse(200, { key: "sendWhileDisconnected", value: (body as { value: string }).value }),
    });
    renderPage(<SettingsPage />, { session: fakeSession(admin), path: "/settings" });
    const select = await screen.findByRole("combobox", { name: "Mensagens enviadas com a conexão caída" });
    expect(select).toHaveTextContent("Enfileirar até reconectar");
    await userEvent.click(select);
    expect((await screen.findAllByRole("option")).map((o) => o.textContent)).toEqual(["Enfileirar até reconectar", "Marcar como falha"]);
    await userEvent.click(screen.getByRole("option", { name: "Marcar como falha" }));
    expect(await screen.findByText("Operação atualizada com sucesso.")).toBeInTheDocument();
    expect(calls.find((c) => c.method === "PUT")).toMatchObject({ url: "/api/settings/sendWhileDisconnected", body: { value: "fail" } });
  }, 30_000);

  it("shows the server's error and keeps the saved value", async () => {
    mockFetch({
      "GET /api/settings": () => jsonResponse(200, settingsWith()),
      "PUT /api/settings/call": () => jsonResponse(403, { error: "ERR_NO_PERMISSION" }),
    });
    renderPage(<SettingsPage />, { session: fakeSession(admin), path: "/settings" });
    await userEvent.click(await screen.findByRole("combobox", { name: "Aceitar chamadas" }));
    await userEvent.click(await screen.findByRole("option", { name: "Desabilitado" }));
    expect(await screen.findByText("Você não tem permissão para acessar este recurso.")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Aceitar chamadas" })).toHaveTextContent("Habilitado"));
  }, 30_000);
});

describe("SettingsPage Horários", () => {
  it("edits the company's week and saves it with PUT /companies/:id/schedules", async () => {
    const saved = WEEKDAYS_EN.map((weekdayEn) => ({ weekday: WEEKDAY_LABELS[weekdayEn], weekdayEn, startTime: "", endTime: "" }));
    const { calls } = mockFetch({
      "GET /api/settings": () => jsonResponse(200, settingsWith({ scheduleType: "company" })),
      "GET /api/companies/10/schedules": () => jsonResponse(200, { companyId: 10, schedules: saved }),
      "PUT /api/companies/10/schedules": ({ body }) => jsonResponse(200, { companyId: 10, ...(body as object) }),
    });
    renderPage(<SettingsPage />, { session: fakeSession(admin), path: "/settings" });
    await userEvent.click(await screen.findByRole("tab", { name: "Horários" }));
    const monday = await screen.findByRole("group", { name: "Segunda-feira" });
    await userEvent.type(within(monday).getByLabelText("Segunda-feira — Início"), "0800");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findByText("Horário inválido (HH:mm)")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "PUT")).toBe(false);

    await userEvent.type(within(monday).getByLabelText("Segunda-feira — Fim"), "1730");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findByText("Horários atualizados com sucesso.")).toBeInTheDocument();
    const body = calls.find((c) => c.method === "PUT")?.body as { schedules: { weekdayEn: string; startTime: string; endTime: string }[] };
    expect(body.schedules).toHaveLength(7);
    expect(body.schedules[0]).toMatchObject({ weekdayEn: "monday", startTime: "08:00", endTime: "17:30" });
    expect(body.schedules[1]).toMatchObject({ weekdayEn: "tuesday", startTime: "", endTime: "" });
  }, 30_000);
});
