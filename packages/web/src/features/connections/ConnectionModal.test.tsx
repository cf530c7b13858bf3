import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { ConnectionModal } from "./ConnectionModal";
import { makeConnection } from "./fixtures";

const admin = makeUser({ id: 1, profile: "admin" });
const queues = [
  { id: 1, name: "Vendas", color: "#2E7D32" },
  { id: 2, name: "Suporte", color: "#1565C0" },
];

function renderModal(connection: ReturnType<typeof makeConnection> | null, routes: Parameters<typeof mockFetch>[0] = {}) {
  const fetch = mockFetch({
    "GET /api/queue": () => jsonResponse(200, queues),
    "GET /api/simulator/connections": () => jsonResponse(200, []),
    ...routes,
  });
  const onClose = vi.fn();
  renderPage(<ConnectionModal open connection={connection} onClose={onClose} />, { session: fakeSession(admin) });
  return { ...fetch, onClose };
}

describe("ConnectionModal", () => {
  it("validates the name (2–50) and creates a simulator connection with its fields", async () => {
    const { calls, onClose } = renderModal(null, {
      "POST /api/whatsapp": ({ body }) => jsonResponse(201, makeConnection({ id: 7, ...(body as object) })),
    });
    const dialog = await screen.findByRole("dialog", { name: "Adicionar WhatsApp" });
    await userEvent.type(within(dialog).getByRole("textbox", { name: /Nome/ }), "A");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("Muito curto!")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await userEvent.type(within(dialog).getByRole("textbox", { name: /Nome/ }), "tendimento");
    await userEvent.type(within(dialog).getByRole("textbox", { name: "Mensagem de saudação" }), "Olá, bem-vindo!");
    await userEvent.click(within(dialog).getByRole("switch", { name: "Padrão" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = calls.find((c) => c.method === "POST")!;
    expect(post.body).toMatchObject({ name: "Atendimento", channel: "simulator", isDefault: true, greetingMessage: "Olá, bem-vindo!", queueIds: [] });
    expect(await screen.findByText("Conexão salva com sucesso.")).toBeInTheDocument();
  });

  it("requires a greeting when more than one queue is linked", async () => {
    const { calls } = renderModal(makeConnection({ id: 3, name: "Loja", queues: [queues[0]] }), {
      "PUT /api/whatsapp/3": () => jsonResponse(400, { error: "ERR_WAPP_GREETING_REQUIRED" }),
    });
    const dialog = await screen.findByRole("dialog", { name: "Editar WhatsApp" });
    expect(within(dialog).getByRole("combobox", { name: "Canal" })).toHaveAttribute("aria-disabled", "true");
    await userEvent.click(within(dialog).getByRole("combobox", { name: "Filas" }));
    await userEvent.click(await screen.findByRole("option", { name: "Suporte" }));
    await userEvent.keyboard("{Escape}");
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    expect(await within(dialog).findByText("A mensagem de saudação é obrigatória quando há mais de uma fila.")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "PUT")).toBe(false);
  });

  it("translates the server's rules: ERR_NO_OTHER_WHATSAPP and the plan limit", async () => {
    renderModal(makeConnection({ id: 3, name: "Loja", isDefault: true }), {
      "PUT /api/whatsapp/3": () => jsonResponse(400, { error: "ERR_NO_OTHER_WHATSAPP" }),
    });
    const dialog = await screen.findByRole("dialog", { name: "Editar WhatsApp" });
    await userEvent.click(within(dialog).getByRole("switch", { name: "Padrão" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    expect(await screen.findByText("Deve haver pelo menos uma conexão padrão.")).toBeInTheDocument();
  });

  it("sets the timed queue transfer: minutes and destination queue", async () => {
    const { calls, onClose } = renderModal(makeConnection({ id: 4, name: "Loja", queues: [] }), {
      "PUT /api/whatsapp/4": ({ body }) => jsonResponse(200, makeConnection({ id: 4, ...(body as object) })),
    });
    const dialog = await screen.findByRole("dialog", { name: "Editar WhatsApp" });
    const minutes = within(dialog).getByRole("spinbutton", { name: "Transferir para a fila após (minutos)" });
    await userEvent.clear(minutes);
    await userEvent.type(minutes, "15");
    await userEvent.click(within(dialog).getByRole("combobox", { name: "Fila de destino" }));
    await userEvent.click(await screen.findByRole("option", { name: "Suporte" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === "PUT")!.body).toMatchObject({ timeSendQueue: 15, sendIdQueue: 2 });
  });

  it("shows the plan's connection limit", async () => {
    renderModal(null, { "POST /api/whatsapp": () => jsonResponse(400, { error: "ERR_CONNECTION_LIMIT_REACHED", meta: { limit: 2 } }) });
    const dialog = await screen.findByRole("dialog", { name: "Adicionar WhatsApp" });
    await userEvent.type(within(dialog).getByRole("textbox", { name: /Nome/ }), "Terceira");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await screen.findByText("Número máximo de conexões já alcançado: 2")).toBeInTheDocument();
  });

  it("regenerates the send-API token only after a confirmation", async () => {
    const { calls } = renderModal(makeConnection({ id: 4, name: "Loja", token: "velho" }), {
      "POST /api/whatsapp/4/token": () => jsonResponse(200, makeConnection({ id: 4, name: "Loja", token: "novo" })),
    });
    const dialog = await screen.findByRole("dialog", { name: "Editar WhatsApp" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Gerar novo token" }));
    const confirm = await screen.findByRole("dialog", { name: "Gerar novo token para Loja?" });
    expect(within(confirm).getByText(/deixará de funcionar imediatamente/)).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole("button", { name: "Cancelar" }));
    expect(calls.some((c) => c.url.endsWith("/token"))).toBe(false);

    // The edit dialog is inert until the confirmation has closed.
    await userEvent.click(await within(dialog).findByRole("button", { name: "Gerar novo token" }));
    await userEvent.click(
      within(await screen.findByRole("dialog", { name: "Gerar novo token para Loja?" })).getByRole("button", { name: "Gerar novo token" }),
    );
    expect(await screen.findByText("Novo token gerado. O anterior foi revogado.")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST" && c.url === "/api/whatsapp/4/token")).toHaveLength(1);
    // The connection form itself was not submitted.
    expect(calls.some((c) => c.method === "PUT")).toBe(false);
  });

  it("Cloud API: shows its settings, requires them on create, sends them; on edit the secrets stay blank and the webhook URL is shown", async () => {
    const { calls, onClose } = renderModal(null, {
      "POST /api/whatsapp": ({ body }) => jsonResponse(201, makeConnection({ id: 9, ...(body as object) })),
    });
    const dialog = await screen.findByRole("dialog", { name: "Adicionar WhatsApp" });
    expect(within(dialog).queryByLabelText(/ID do número de telefone/)).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("combobox", { name: "Canal" }));
    await userEvent.click(await screen.findByRole("option", { name: "WhatsApp Cloud API (oficial)" }));
    await userEvent.type(within(dialog).getByRole("textbox", { name: /Nome/ }), "Oficial");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText(/Informe o ID do número de telefone/)).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    expect(within(dialog).getByText("A URL aparece depois de salvar a conexão.")).toBeInTheDocument();

    // Pasted, as a user does with credentials copied from Meta's console: typing them key by key re-renders the
    // whole form ~40 times, which took over 30 s on a loaded CI machine.
    const paste = async (field: HTMLElement, text: string) => {
      await userEvent.click(field);
      await userEvent.paste(text);
    };
    await paste(within(dialog).getByLabelText(/ID do número de telefone/), "1065550001");
    await paste(within(dialog).getByLabelText(/Token de acesso/), "EAAG-secret");
    await paste(within(dialog).getByLabelText(/Chave secreta do app/), "app-secret");
    await paste(within(dialog).getByLabelText(/Token de verificação do webhook/), "verify-token-1");
    expect(within(dialog).getByLabelText(/Token de acesso/)).toHaveAttribute("type", "password");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === "POST")!.body).toMatchObject({
      name: "Oficial",
      channel: "cloud-api",
      cloudApi: { phoneNumberId: "1065550001", accessToken: "EAAG-secret", appSecret: "app-secret", verifyToken: "verify-token-1" },
    });
  });

  it("Cloud API edit: only typed secrets are sent and the webhook URL to paste in Meta's console is shown", async () => {
    const conn = makeConnection({
      id: 5,
      name: "Oficial",
      channel: "cloud-api",
      cloudApi: { phoneNumberId: "1065550001", webhookPath: "/api/cloudapi/5/webhook" },
    });
    const { calls, onClose } = renderModal(conn, { "PUT /api/whatsapp/5": () => jsonResponse(200, conn) });
    const dialog = await screen.findByRole("dialog", { name: "Editar WhatsApp" });
    // The name field takes the focus when the dialog opens (autoFocus); on a loaded machine that can happen after
    // typing elsewhere began, and the rest of the keys then went into the name.
    await waitFor(() => expect(within(dialog).getByRole("textbox", { name: /Nome/ })).toHaveFocus());
    expect(within(dialog).getByTestId("cloud-api-webhook-url")).toHaveTextContent(`${window.location.origin}/api/cloudapi/5/webhook`);
    expect(within(dialog).getByLabelText(/ID do número de telefone/)).toHaveValue("1065550001");
    expect(within(dialog).getByLabelText(/Chave secreta do app/)).toHaveValue("");
    await userEvent.type(within(dialog).getByLabelText(/Token de acesso/), "EAAG-new");
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const put = calls.find((c) => c.method === "PUT")!.body as { cloudApi: Record<string, string> };
    expect(put.cloudApi).toEqual({ phoneNumberId: "1065550001", accessToken: "EAAG-new" });
  });
});
