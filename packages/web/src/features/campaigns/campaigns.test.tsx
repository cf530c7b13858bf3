import type { CampaignDetailDTO, CampaignDTO, CampaignShippingDTO } from "@balcao/shared";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AppSocket } from "../../api/socket";
import { SocketContext } from "../../api/SocketProvider";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage, type FetchCall } from "../../test/utils";
import { MainMenu } from "../../app/layout/MainMenu";
import { toLocalInput } from "../schedules/time";
import { CampaignModal } from "./CampaignModal";
import CampaignReportPage, { deliveredPercent } from "./CampaignReportPage";
import CampaignsConfigPage, { addVariable } from "./CampaignsConfigPage";
import CampaignsPage from "./CampaignsPage";
import { formatCampaignTime } from "./status";

const TZ = "America/Sao_Paulo";
const admin = () =>
  makeUser({
    company: {
      id: 10,
      name: "Acme",
      dueDate: "2099-12-31",
      status: true,
      campaignsEnabled: true,
      planId: 1,
      email: "acme@example.com",
      trialExpiration: null,
      timeZone: TZ,
    },
  });
const HOUR = 3_600_000;

const campaign = (overrides: Partial<CampaignDTO> = {}): CampaignDTO => ({
  id: 1,
  companyId: 10,
  name: "Black Friday",
  message1: "Olá {nome}, temos ofertas!",
  message2: "",
  message3: "",
  message4: "",
  message5: "",
  confirmationMessage1: "",
  confirmationMessage2: "",
  confirmationMessage3: "",
  confirmationMessage4: "",
  confirmationMessage5: "",
  status: "INATIVA",
  confirmation: false,
  scheduledAt: null,
  completedAt: null,
  whatsappId: 3,
  whatsapp: { id: 3, name: "Vendas", status: "CONNECTED" },
  contactListId: 4,
  contactList: { id: 4, name: "Clientes VIP" },
  mediaPath: null,
  mediaName: null,
  pauseReason: null,
  editable: true,
  createdAt: "2030-01-01T12:00:00.000Z",
  updatedAt: "2030-01-01T12:00:00.000Z",
  ...overrides,
});

/** The calls the modal makes for its selects and the variables help. */
const formRoutes = (variables: { key: string; value: string }[] = []) => ({
  "GET /api/whatsapp/": () =>
    jsonResponse(200, [
      { id: 3, name: "Vendas" },
      { id: 5, name: "Suporte" },
    ]),
  "GET /api/contact-lists/list": () =>
    jsonResponse(200, [
      { id: 4, name: "Clientes VIP", contactsCount: 20 },
      { id: 6, name: "Leads", contactsCount: 1 },
    ]),
  "GET /api/campaign-settings": () =>
    jsonResponse(200, [
      { key: "messageInterval", value: 20 },
      { key: "longerIntervalAfter", value: 20 },
      { key: "greaterInterval", value: 60 },
      { key: "variables", value: variables },
    ]),
});

function fakeSocket() {
  const handlers = new Map<string, (payload: unknown) => void>();
  const socket = { on: (e: string, fn: (p: unknown) => void) => handlers.set(e, fn), off: (e: string) => handlers.delete(e) };
  return { socket: socket as unknown as AppSocket, emit: (e: string, p: unknown) => act(() => handlers.get(e)?.(p)) };
}

async function choose(label: string, option: string) {
  await userEvent.click(screen.getByRole("combobox", { name: new RegExp(label) }));
  await userEvent.click(await screen.findByRole("option", { name: option }));
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("campaigns menu (spec §2: both readings)", () => {
  const menu = async (setting: string, cshow: boolean) => {
    if (cshow) localStorage.setItem("cshow", "null");
    else localStorage.removeItem("cshow");
    mockFetch({ "GET /api/settings": () => jsonResponse(200, [{ key: "campaignsEnabled", value: setting }]) });
    const view = renderPage(<MainMenu collapsed={false} />, { session: fakeSession(admin()) });
    await screen.findByRole("navigation", { name: "Menu principal" });
    return view;
  };
  afterEach(() => localStorage.removeItem("cshow"));

  it("shows Listagem, Listas de Contatos and Configurações with the company setting or the local cshow flag", async () => {
    const view = await menu("true", false);
    await userEvent.click(await screen.findByRole("button", { name: "Campanhas" }));
    expect(await screen.findByRole("link", { name: "Listagem" })).toHaveAttribute("href", "/campaigns");
    expect(screen.getByRole("link", { name: "Listas de Contatos" })).toHaveAttribute("href", "/contact-lists");
    expect(screen.getAllByRole("link", { name: "Configurações" }).map((a) => a.getAttribute("href"))).toContain("/campaigns-config");
    view.unmount();

    const flagged = await menu("false", true);
    expect(await screen.findByRole("button", { name: "Campanhas" })).toBeInTheDocument();
    flagged.unmount();

    await menu("false", false);
    await waitFor(() => expect(screen.getByRole("link", { name: "Usuários" })).toBeInTheDocument());
    // Let the settings answer arrive before looking for what it must not show.
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(screen.queryByRole("button", { name: "Campanhas" })).not.toBeInTheDocument();
  });
});

describe("helpers", () => {
  it("formats DD/MM/YYYY HH:mm on the company's clock and computes the delivered share", () => {
    expect(formatCampaignTime("2030-03-10T13:05:09.000Z", TZ)).toBe("10/03/2030 10:05");
    expect(formatCampaignTime(null, TZ)).toBe("");
    expect(deliveredPercent({ delivered: 5, validContacts: 20 })).toBe(25);
    expect(deliveredPercent({ delivered: 0, validContacts: 0 })).toBe(0);
  });

  it("adds a variable only when its key is new (ignoring case and the built-in ones)", () => {
    const one = addVariable([], { key: "loja", value: "Loja Centro" });
    expect(one).toEqual({ variables: [{ key: "loja", value: "Loja Centro" }] });
    expect(addVariable(one.variables, { key: "LOJA", value: "Outra" })).toEqual({ variables: one.variables, problem: "duplicate" });
    expect(addVariable(one.variables, { key: "nome", value: "x" }).problem).toBe("duplicate");
    expect(addVariable(one.variables, { key: "com espaço", value: "x" }).problem).toBe("key");
    expect(addVariable(one.variables, { key: "cupom", value: "  " }).problem).toBe("value");
  });
});

describe("CampaignModal", () => {
  it("validates the name (2 to 50) and what a scheduled campaign needs, then posts the body on the company's clock", async () => {
    const { calls } = mockFetch({
      ...formRoutes(),
      "POST /api/campaigns": ({ body }) => jsonResponse(201, campaign({ ...(body as object), id: 9, status: "PROGRAMADA" })),
    });
    const onClose = vi.fn();
    renderPage(<CampaignModal open onClose={onClose} campaign={null} />, { session: fakeSession(admin()) });
    expect(screen.getByRole("dialog", { name: "Nova campanha" })).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findByText("Obrigatório")).toBeInTheDocument();
    await userEvent.type(screen.getByRole("textbox", { name: /Nome/ }), "A");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findByText("Muito curto!")).toBeInTheDocument();
    await userEvent.clear(screen.getByRole("textbox", { name: /Nome/ }));
    await userEvent.type(screen.getByRole("textbox", { name: /Nome/ }), "x".repeat(51));
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findByText("Muito longo!")).toBeInTheDocument();
    await userEvent.clear(screen.getByRole("textbox", { name: /Nome/ }));
    await userEvent.type(screen.getByRole("textbox", { name: /Nome/ }), "Natal");

    // Scheduled: connection, list and a message become required ('Obrigatório').
    const when = screen.getByLabelText(/Agendamento/) as HTMLInputElement;
    fireEvent.change(when, { target: { value: "2030-12-20T09:30" } });
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(screen.getAllByText("Obrigatório")).toHaveLength(3));

    // A time in the past is refused.
    fireEvent.change(when, { target: { value: toLocalInput(new Date(Date.now() - HOUR), TZ) } });
    await choose("Conexão", "Vendas");
    await choose("Lista de contatos", "Leads (1 contato)");
    await userEvent.type(screen.getByTestId("campaign-message1"), "Feliz Natal, {{nome}!");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findByText("A data de agendamento já passou. Escolha um horário no futuro.")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);

    fireEvent.change(when, { target: { value: "2030-12-20T09:30" } });
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === "POST")!.body).toEqual({
      name: "Natal",
      whatsappId: 3,
      contactListId: 6,
      scheduledAt: "2030-12-20T12:30:00.000Z",
      confirmation: false,
      message1: "Feliz Natal, {nome}!",
      message2: "",
      message3: "",
      message4: "",
      message5: "",
      confirmationMessage1: "",
      confirmationMessage2: "",
      confirmationMessage3: "",
      confirmationMessage4: "",
      confirmationMessage5: "",
    });
  });

  it("shows confirmation tabs only with confirmation on, requires a confirmation message, and inserts variables", async () => {
    const { calls } = mockFetch({
      ...formRoutes([{ key: "loja", value: "Loja Centro" }]),
      "PUT /api/campaigns/1": ({ body }) => jsonResponse(200, campaign({ ...(body as object) })),
    });
    const onClose = vi.fn();
    renderPage(
      <CampaignModal
        open
        onClose={onClose}
        campaign={campaign({ scheduledAt: new Date(Date.now() + 3 * HOUR).toISOString(), status: "PROGRAMADA" })}
      />,
      {
        session: fakeSession(admin()),
      },
    );
    expect(screen.getByRole("dialog", { name: "Editar campanha" })).toBeInTheDocument();
    expect(screen.getAllByRole("tab").map((tab) => tab.textContent)).toEqual(["Msg. 1", "Msg. 2", "Msg. 3", "Msg. 4", "Msg. 5"]);

    // Variables: the built-in ones and the settings' custom ones, inserted into the open tab's message.
    await userEvent.click(screen.getByRole("tab", { name: "Msg. 2" }));
    const help = screen.getByTestId("campaign-variables");
    await userEvent.click(within(help).getByText("{numero}"));
    await userEvent.click(await within(help).findByText("{loja}"));
    expect(screen.getByTestId("campaign-message2")).toHaveValue("{numero}{loja}");

    await userEvent.click(screen.getByRole("switch", { name: "Confirmação" }));
    expect(screen.getAllByRole("tab")).toHaveLength(10);
    await userEvent.click(screen.getByRole("tab", { name: "Msg. 1" }));
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    // The refused confirmation message is brought on screen.
    expect(await screen.findByText("Obrigatório")).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Confirmação 1" })).toHaveAttribute("aria-selected", "true");
    await userEvent.type(screen.getByTestId("campaign-confirmationMessage1"), "Podemos enviar ofertas? Responda SIM.");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === "PUT")!.body).toMatchObject({
      confirmation: true,
      message2: "{numero}{loja}",
      confirmationMessage1: "Podemos enviar ofertas? Responda SIM.",
    });
  });

  it.each([
    ["INATIVA", null, true],
    ["CANCELADA", -2 * HOUR, true],
    ["PROGRAMADA", 2 * HOUR, true],
    ["PROGRAMADA", 30 * 60_000, false],
    ["EM_ANDAMENTO", -HOUR, false],
    ["FINALIZADA", -HOUR, false],
  ] as const)("%s scheduled %s ms from now is editable: %s (spec §4)", (status, offset, editable) => {
    mockFetch(formRoutes());
    const scheduledAt = offset === null ? null : new Date(Date.now() + offset).toISOString();
    renderPage(<CampaignModal open onClose={() => {}} campaign={campaign({ status, scheduledAt })} />, { session: fakeSession(admin()) });
    if (editable) {
      expect(screen.getByRole("dialog", { name: "Editar campanha" })).toBeInTheDocument();
      expect(screen.getByRole("button", { name: "Salvar" })).toBeEnabled();
      expect(screen.getByRole("textbox", { name: /Nome/ })).toBeEnabled();
      expect(screen.queryByTestId("campaign-readonly")).not.toBeInTheDocument();
    } else {
      expect(screen.getByRole("dialog", { name: "Campanha" })).toBeInTheDocument();
      expect(screen.queryByRole("button", { name: "Salvar" })).not.toBeInTheDocument();
      expect(screen.getByRole("textbox", { name: /Nome/ })).toBeDisabled();
      expect(screen.getByTestId("campaign-message1")).toBeDisabled();
      expect(screen.getByTestId("campaign-readonly")).toBeInTheDocument();
      expect(screen.queryByRole("button", { name: "Anexar arquivo" })).not.toBeInTheDocument();
      expect(screen.getByRole("button", { name: "Fechar" })).toBeInTheDocument();
    }
  });

  it("keeps a cancelled campaign's past schedule saveable and uploads / removes the attachment after saving", async () => {
    const past = new Date(Date.now() - 2 * HOUR).toISOString();
    const { calls } = mockFetch({
      ...formRoutes(),
      "PUT /api/campaigns/1": ({ body }) => jsonResponse(200, campaign({ ...(body as object), status: "CANCELADA" })),
      "POST /api/campaigns/1/media-upload": () => jsonResponse(200, campaign({ mediaName: "oferta.png", mediaPath: "m1" })),
      "DELETE /api/campaigns/1/media-upload": () => jsonResponse(200, campaign()),
    });
    const onClose = vi.fn();
    const view = renderPage(<CampaignModal open onClose={onClose} campaign={campaign({ status: "CANCELADA", scheduledAt: past })} />, {
      session: fakeSession(admin()),
    });
    expect(screen.getByTestId("campaign-media-name")).toHaveTextContent("Sem anexo");
    const file = new File(["png"], "oferta.png", { type: "image/png" });
    await userEvent.upload(screen.getByTestId("campaign-file"), file);
    expect(screen.getByTestId("campaign-media-name")).toHaveTextContent("oferta.png");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const sent = calls.filter((c: FetchCall) => c.method !== "GET").map((c) => `${c.method} ${c.url}`);
    expect(sent).toEqual(["PUT /api/campaigns/1", "POST /api/campaigns/1/media-upload"]);
    expect(calls.find((c) => c.method === "PUT")!.body).toMatchObject({ scheduledAt: past });
    expect((calls.find((c) => c.url.endsWith("media-upload"))!.body as FormData).get("file")).toBeInstanceOf(File);
    view.unmount();

    calls.length = 0;
    const closed = vi.fn();
    renderPage(<CampaignModal open onClose={closed} campaign={campaign({ mediaName: "antigo.pdf", mediaPath: "m0" })} />, {
      session: fakeSession(admin()),
    });
    await userEvent.click(screen.getByRole("button", { name: "Remover anexo" }));
    expect(screen.getByTestId("campaign-media-name")).toHaveTextContent("Sem anexo");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(closed).toHaveBeenCalled());
    expect(calls.filter((c) => c.method !== "GET").map((c) => `${c.method} ${c.url}`)).toEqual([
      "PUT /api/campaigns/1",
      "DELETE /api/campaigns/1/media-upload",
    ]);
  });
});

describe("CampaignsConfigPage", () => {
  it("shows the saved intervals with the spec's options, refuses an existing key and saves with 'Configurações salvas'", async () => {
    const { calls } = mockFetch({
      "GET /api/campaign-settings": () =>
        jsonResponse(200, [
          { key: "messageInterval", value: 10 },
          { key: "longerIntervalAfter", value: 5 },
          { key: "greaterInterval", value: 30 },
          { key: "variables", value: [{ key: "loja", value: "Loja Centro" }] },
        ]),
      "POST /api/campaign-settings": ({ body }) => {
        const s = (body as { settings: Record<string, unknown> }).settings;
        return jsonResponse(
          200,
          Object.entries(s).map(([key, value]) => ({ key, value })),
        );
      },
    });
    renderPage(<CampaignsConfigPage />, { session: fakeSession(admin()) });
    expect(await screen.findByRole("heading", { name: "Configurações de campanhas" })).toBeInTheDocument();
    const interval = await screen.findByRole("combobox", { name: "Intervalo randômico de disparo" });
    expect(interval).toHaveTextContent("10 segundos");
    expect(screen.getByRole("combobox", { name: "Intervalo maior após" })).toHaveTextContent("5 mensagens");
    expect(screen.getByRole("combobox", { name: "Intervalo de disparo maior" })).toHaveTextContent("30 segundos");

    await userEvent.click(interval);
    const options = within(screen.getByRole("listbox"))
      .getAllByRole("option")
      .map((o) => o.textContent);
    expect(options).toEqual(["Sem intervalo", "5 segundos", "10 segundos", "15 segundos", "20 segundos"]);
    await userEvent.click(screen.getByRole("option", { name: "Sem intervalo" }));
    await userEvent.click(screen.getByRole("combobox", { name: "Intervalo de disparo maior" }));
    expect(within(screen.getByRole("listbox")).getAllByRole("option")).toHaveLength(6);
    await userEvent.click(screen.getByRole("option", { name: "60 segundos" }));

    // An existing key is not added again (spec §5).
    await userEvent.type(screen.getByRole("textbox", { name: "Atalho" }), "LOJA");
    await userEvent.type(screen.getByRole("textbox", { name: "Conteúdo" }), "Outra loja");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findByText("Já existe uma variável com esta chave.")).toBeInTheDocument();
    expect(screen.getAllByTestId("variable-row")).toHaveLength(1);
    await userEvent.clear(screen.getByRole("textbox", { name: "Atalho" }));
    await userEvent.type(screen.getByRole("textbox", { name: "Atalho" }), "cupom");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(screen.getAllByTestId("variable-row")).toHaveLength(2);
    expect(await screen.findByText("Clique em salvar para registar as alterações")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Remover a variável loja" }));
    expect(screen.getAllByTestId("variable-row")).toHaveLength(1);

    await userEvent.click(screen.getByRole("button", { name: "Salvar configurações" }));
    expect(await screen.findByText("Configurações salvas")).toBeInTheDocument();
    expect(calls.find((c) => c.method === "POST")!.body).toEqual({
      settings: { messageInterval: 0, longerIntervalAfter: 5, greaterInterval: 60, variables: [{ key: "cupom", value: "Outra loja" }] },
    });
  });

  it("starts from the defaults 20 / 20 / 60 when nothing was saved", async () => {
    mockFetch({ "GET /api/campaign-settings": () => jsonResponse(200, []) });
    renderPage(<CampaignsConfigPage />, { session: fakeSession(admin()) });
    expect(await screen.findByRole("combobox", { name: "Intervalo randômico de disparo" })).toHaveTextContent("20 segundos");
    expect(screen.getByRole("combobox", { name: "Intervalo maior após" })).toHaveTextContent("20 mensagens");
    expect(screen.getByRole("combobox", { name: "Intervalo de disparo maior" })).toHaveTextContent("60 segundos");
    expect(screen.getByText("Nenhuma variável")).toBeInTheDocument();
  });
});

describe("CampaignsPage", () => {
  it("lists the spec's columns, stops and restarts (showing the server's refusal) and follows `campaign` events", async () => {
    const { calls } = mockFetch({
      ...formRoutes(),
      "GET /api/campaigns/": () =>
        jsonResponse(200, {
          records: [
            campaign({ status: "EM_ANDAMENTO", scheduledAt: "2030-03-10T13:00:00.000Z", confirmation: true, editable: false }),
            campaign({ id: 2, name: "Natal", status: "CANCELADA", whatsapp: null, whatsappId: null }),
          ],
          hasMore: false,
        }),
      "POST /api/campaigns/1/cancel": () => jsonResponse(200, campaign({ status: "CANCELADA" })),
      "POST /api/campaigns/2/restart": () => jsonResponse(400, { error: "ERR_CAMPAIGN_CANNOT_RESTART" }),
    });
    const { socket, emit } = fakeSocket();
    const { router } = renderPage(
      <SocketContext.Provider value={socket}>
        <CampaignsPage />
      </SocketContext.Provider>,
      { session: fakeSession(admin()), path: "/campaigns" },
    );
    const row = (await screen.findByText("Black Friday")).closest("tr")!;
    expect(within(row).getByTestId("campaign-status")).toHaveTextContent("Em Andamento");
    expect(within(row).getByText("Clientes VIP")).toBeInTheDocument();
    expect(within(row).getByText("Vendas")).toBeInTheDocument();
    expect(within(row).getByText("10/03/2030 10:00")).toBeInTheDocument();
    expect(within(row).getByText("Habilitada")).toBeInTheDocument();
    expect(within(row).queryByTestId("campaign-paused")).not.toBeInTheDocument();
    expect(within(row).queryByRole("button", { name: /Reiniciar/ })).not.toBeInTheDocument();
    expect(within(row).getByRole("button", { name: "Ver a campanha Black Friday" })).toBeInTheDocument();
    expect(within(row).queryByRole("button", { name: /Excluir/ })).not.toBeInTheDocument();

    const natal = screen.getByText("Natal").closest("tr")!;
    expect(within(natal).getByTestId("campaign-status")).toHaveTextContent("Cancelada");
    expect(within(natal).queryByRole("button", { name: /Parar/ })).not.toBeInTheDocument();
    await userEvent.click(within(natal).getByRole("button", { name: "Reiniciar a campanha Natal" }));
    expect(await screen.findByText("Só é possível reiniciar uma campanha cancelada.")).toBeInTheDocument();

    await userEvent.click(within(row).getByRole("button", { name: "Parar a campanha Black Friday" }));
    await waitFor(() => expect(calls.some((c) => c.url === "/api/campaigns/1/cancel")).toBe(true));
    await waitFor(() =>
      expect(within(screen.getByText("Black Friday").closest("tr")!).getByTestId("campaign-status")).toHaveTextContent("Cancelada"),
    );

    // Its connection drops: the row says why it is not sending.
    emit("campaign", { action: "update", record: campaign({ status: "EM_ANDAMENTO", pauseReason: "ERR_WAPP_NOT_INITIALIZED" }) });
    expect(await screen.findByTestId("campaign-paused")).toHaveAccessibleName(/^Pausada: Esta conexão não foi inicializada/);
    emit("campaign", { action: "update", record: campaign({ status: "FINALIZADA", completedAt: "2030-03-10T15:30:00.000Z" }) });
    await waitFor(() =>
      expect(within(screen.getByText("Black Friday").closest("tr")!).getByTestId("campaign-status")).toHaveTextContent("Finalizada"),
    );
    expect(within(screen.getByText("Black Friday").closest("tr")!).getByText("10/03/2030 12:30")).toBeInTheDocument();
    emit("campaign", { action: "create", record: campaign({ id: 7, name: "Aniversário", createdAt: "2030-02-01T00:00:00.000Z" }) });
    expect(await screen.findByText("Aniversário")).toBeInTheDocument();
    // The server's order: newest first.
    expect(screen.getAllByTestId("campaign-row")[0]).toHaveTextContent("Aniversário");
    emit("campaign", { action: "delete", id: 2 });
    await waitFor(() => expect(screen.queryByText("Natal")).not.toBeInTheDocument());

    await userEvent.click(
      within(screen.getByText("Black Friday").closest("tr")!).getByRole("button", { name: "Relatório da campanha Black Friday" }),
    );
    await waitFor(() => expect(router.location().pathname).toBe("/campaign/1/report"));
  });

  it("deletes after confirmation", async () => {
    const { calls } = mockFetch({
      ...formRoutes(),
      "GET /api/campaigns/": () => jsonResponse(200, { records: [campaign()], hasMore: false }),
      "DELETE /api/campaigns/1": () => new Response(null, { status: 204 }),
    });
    renderPage(<CampaignsPage />, { session: fakeSession(admin()), path: "/campaigns" });
    await userEvent.click(await screen.findByRole("button", { name: "Excluir a campanha Black Friday" }));
    const dialog = await screen.findByRole("dialog", { name: "Excluir a campanha Black Friday?" });
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(within(dialog).getByRole("button", { name: "Excluir" }));
    await waitFor(() => expect(screen.queryByText("Black Friday")).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.url)).toEqual(["/api/campaigns/1"]);
  });
});

describe("CampaignReportPage", () => {
  const detail = (overrides: Partial<CampaignDetailDTO> = {}): CampaignDetailDTO => ({
    ...campaign({ status: "EM_ANDAMENTO", scheduledAt: "2030-03-10T13:00:00.000Z", confirmation: true }),
    counts: { validContacts: 20, confirmationRequested: 8, confirmations: 3, delivered: 5, failed: 0 },
    ...overrides,
  });

  const shipping = (delivered: boolean): CampaignShippingDTO => ({
    id: 11,
    campaignId: 1,
    contactListItemId: 3,
    name: "Ana Lima",
    number: "5511988887777",
    email: "",
    message: "Olá Ana Lima, temos ofertas!",
    confirmationMessage: "",
    confirmation: null,
    confirmationRequestedAt: null,
    confirmedAt: null,
    deliveredAt: delivered ? "2030-03-10T13:10:00.000Z" : null,
    status: delivered ? "delivered" : "pending",
    lastError: null,
  });

  it("shows delivered of valid, the cards, live progress, and reloads 5 s after the FINALIZADA event", async () => {
    let finished = false;
    const { calls } = mockFetch({
      "GET /api/campaigns/1": () =>
        jsonResponse(
          200,
          finished
            ? detail({
                status: "FINALIZADA",
                completedAt: "2030-03-10T14:00:00.000Z",
                counts: { validContacts: 20, confirmationRequested: 20, confirmations: 20, delivered: 20, failed: 0 },
              })
            : detail(),
        ),
      "GET /api/campaigns/1/shipping": () => jsonResponse(200, { records: [shipping(finished)], hasMore: false }),
    });
    const { socket, emit } = fakeSocket();
    renderPage(
      <SocketContext.Provider value={socket}>
        <CampaignReportPage />
      </SocketContext.Provider>,
      { session: fakeSession(admin()), path: "/campaign/1/report", routePath: "/campaign/:campaignId/report" },
    );
    expect(await screen.findByTestId("report-delivered-of-valid")).toHaveTextContent("5 de 20 entregues");
    expect(screen.getByTestId("report-status")).toHaveTextContent("Em Andamento");
    expect(screen.getByRole("progressbar", { name: "Progresso da campanha" })).toHaveAttribute("aria-valuenow", "25");
    expect(screen.getByTestId("card-valid-value")).toHaveTextContent("20");
    expect(screen.getByTestId("card-confirmation-requested-value")).toHaveTextContent("8");
    expect(screen.getByTestId("card-confirmations-value")).toHaveTextContent("3");
    expect(screen.getByTestId("card-delivered-value")).toHaveTextContent("5");
    expect(screen.getByTestId("card-connection-value")).toHaveTextContent("Vendas");
    expect(screen.getByTestId("card-contact-list-value")).toHaveTextContent("Clientes VIP");
    expect(screen.getByTestId("card-schedule-value")).toHaveTextContent("10/03/2030 10:00");
    expect(screen.getByTestId("card-completion-value")).toHaveTextContent("Não concluída");
    const shippingRow = await screen.findByTestId("shipping-row");
    expect(shippingRow).toHaveTextContent("Ana Lima");
    expect(shippingRow).toHaveTextContent("Pendente");

    emit("campaign", {
      action: "progress",
      campaignId: 1,
      counts: { validContacts: 20, confirmationRequested: 9, confirmations: 4, delivered: 10, failed: 0 },
    });
    await waitFor(() => expect(screen.getByTestId("report-delivered-of-valid")).toHaveTextContent("10 de 20 entregues"));
    // Another campaign's progress does not touch this report.
    emit("campaign", {
      action: "progress",
      campaignId: 2,
      counts: { validContacts: 1, confirmationRequested: 0, confirmations: 0, delivered: 1, failed: 0 },
    });
    expect(screen.getByTestId("report-delivered-of-valid")).toHaveTextContent("10 de 20 entregues");

    vi.useFakeTimers({ shouldAdvanceTime: true });
    finished = true;
    const detailCalls = () => calls.filter((c) => c.url === "/api/campaigns/1").length;
    const before = detailCalls();
    emit("campaign", { action: "update", record: campaign({ status: "FINALIZADA", completedAt: "2030-03-10T14:00:00.000Z" }) });
    await waitFor(() => expect(screen.getByTestId("report-status")).toHaveTextContent("Finalizada"));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4_900);
    });
    expect(detailCalls()).toBe(before);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    await waitFor(() => expect(screen.getByTestId("report-delivered-of-valid")).toHaveTextContent("20 de 20 entregues"));
    expect(detailCalls()).toBe(before + 1);
    expect(screen.getByTestId("card-completion-value")).toHaveTextContent("10/03/2030 11:00");
    // The shipping rows were refetched too: the contact's row is delivered.
    await waitFor(() => expect(screen.getByTestId("shipping-row")).toHaveTextContent("Entregue"));
    expect(screen.getByTestId("shipping-row")).toHaveTextContent("10/03/2030 10:10");
  });

  it("tells why a running campaign is paused and downloads the CSV export with the token", async () => {
    const { calls } = mockFetch({
      "GET /api/campaigns/1": () => jsonResponse(200, detail({ pauseReason: "ERR_WAPP_NOT_INITIALIZED" })),
      "GET /api/campaigns/1/shipping": () => jsonResponse(200, { records: [], hasMore: false }),
      "GET /api/campaigns/1/export": () => new Response("nome;numero\nAna;5511999990000\n", { status: 200, headers: { "Content-Type": "text/csv" } }),
    });
    const createObjectURL = vi.fn(() => "blob:csv");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    renderPage(<CampaignReportPage />, { session: fakeSession(admin()), path: "/campaign/1/report", routePath: "/campaign/:campaignId/report" });
    expect(await screen.findByTestId("report-paused")).toHaveTextContent("Esta conexão não foi inicializada");
    await userEvent.click(screen.getByRole("button", { name: "Exportar CSV" }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(calls.map((c) => c.url)).toContain("/api/campaigns/1/export");
    expect(clicked).toEqual(["campanha-1.csv"]);

    // The shipping rows can be filtered by state.
    expect(await screen.findByText("Nenhum envio ainda")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("combobox", { name: "Situação" }));
    await userEvent.click(screen.getByRole("option", { name: "Falhou" }));
    await waitFor(() => expect(calls.some((c) => c.url.startsWith("/api/campaigns/1/shipping?") && c.url.includes("status=failed"))).toBe(true));
  });
});
