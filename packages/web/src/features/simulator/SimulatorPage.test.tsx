import type { SimulatorMessageDTO, SimulatorPhoneDTO, SimulatorStateDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import SimulatorRoute from "./SimulatorRoute";

const admin = makeUser({ id: 1, profile: "admin" });

function msg(overrides: Partial<SimulatorMessageDTO>): SimulatorMessageDTO {
  return {
    id: "M1",
    direction: "out",
    kind: "chat",
    body: "",
    ack: 1,
    deleted: false,
    hasMedia: false,
    timestamp: "2025-03-10T13:05:00.000Z",
    ...overrides,
  };
}

const maria: SimulatorPhoneDTO = {
  number: "5511987654321",
  name: "Maria",
  messages: [
    msg({ id: "C1", direction: "out", body: "Olá, tem pão *integral*?" }),
    msg({ id: "S1", direction: "in", body: "Temos sim!", ack: 3, quotedId: "C1" }),
    msg({ id: "S2", direction: "in", body: "", ack: 2, deleted: true }),
    msg({ id: "C2", direction: "out", body: "", deleted: true }),
    msg({ id: "C3", direction: "out", kind: "location", body: "|https://maps.google.com/maps?q=-23.5,-46.6|Padaria Central" }),
    msg({ id: "C4", direction: "out", kind: "call_log", body: "video call" }),
    msg({ id: "S3", direction: "in", kind: "audio", body: "", ack: 3, hasMedia: true, mimeType: "audio/ogg", fileName: "a.ogg", voice: true }),
  ],
};

function state(overrides: Partial<SimulatorStateDTO> = {}): SimulatorStateDTO {
  return { connection: { id: 5, name: "Simulador", status: "CONNECTED", qrcode: "" }, live: true, phones: [maria], ...overrides };
}

function renderSimulator(path: string, routes: Parameters<typeof mockFetch>[0], user: typeof admin | null = admin) {
  const fetch = mockFetch(routes);
  const utils = renderPage(<SimulatorRoute />, { session: fakeSession(user), path, routePath: "/simulator/:connectionId?" });
  return { ...fetch, ...utils };
}

async function openMaria() {
  await userEvent.click(await screen.findByRole("button", { name: /Maria/ }));
  return screen.findByRole("log", { name: "Mensagens do telefone" });
}

describe("SimulatorPage", () => {
  it("pairs a connection: shows the QR and 'Escanear' sends the code shown", async () => {
    let current = state({ connection: { id: 5, name: "Simulador", status: "qrcode", qrcode: "balcao-sim:5:xyz" }, phones: [] });
    const { calls } = renderSimulator("/simulator/5", {
      "GET /api/simulator/5": () => jsonResponse(200, current),
      "POST /api/simulator/5/scan": () => {
        current = state({ phones: [] });
        return jsonResponse(200, { status: "CONNECTED" });
      },
    });
    expect(await screen.findByRole("img", { name: "QR Code de pareamento" })).toBeInTheDocument();
    expect(screen.getByTestId("simulator-pairing-code")).toHaveTextContent("balcao-sim:5:xyz");
    await userEvent.click(screen.getByRole("button", { name: "Escanear" }));
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ code: "balcao-sim:5:xyz" });
    expect(await screen.findByRole("form", { name: "Adicionar cliente" })).toBeInTheDocument();
    expect(screen.getByText("Conectado")).toBeInTheDocument();
  });

  it("pairs by phone code (issue 21): while the connection shows a code (PAIRING), the phone types it", async () => {
    let current = state({ connection: { id: 5, name: "Simulador", status: "PAIRING", qrcode: "K7QW9XZ2" }, phones: [] });
    const { calls } = renderSimulator("/simulator/5", {
      "GET /api/simulator/5": () => jsonResponse(200, current),
      "POST /api/simulator/5/scan": () => {
        current = state({ phones: [] });
        return jsonResponse(200, { status: "CONNECTED" });
      },
    });
    const form = await screen.findByRole("form", { name: "Conectar com número de telefone" });
    const link = within(form).getByRole("button", { name: "Conectar" });
    expect(link).toBeDisabled();
    await userEvent.type(within(form).getByLabelText("Código de pareamento"), "K7QW-9XZ2");
    await userEvent.click(link);
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ code: "K7QW-9XZ2" });
    expect(await screen.findByRole("form", { name: "Adicionar cliente" })).toBeInTheDocument();
  });

  it("renders the chat from the phone's side: formatting, quotes, acks, deletions, location, calls", async () => {
    renderSimulator("/simulator/5", { "GET /api/simulator/5": () => jsonResponse(200, state()) });
    const log = await openMaria();
    const bubbles = within(log).getAllByTestId("simulator-message");
    expect(bubbles.map((b) => b.dataset.direction)).toEqual(["out", "in", "in", "out", "out", "out", "in"]);
    expect(within(bubbles[0]).getByText("integral").tagName).toBe("STRONG");
    // The company's reply quotes the customer's message and shows its ack (read).
    expect(within(bubbles[1]).getByTestId("quoted-message")).toHaveTextContent("Olá, tem pão *integral*?");
    expect(within(bubbles[1]).getByTitle("Lida")).toBeInTheDocument();
    expect(within(bubbles[2]).getByText("Esta mensagem foi apagada pela empresa")).toBeInTheDocument();
    expect(within(bubbles[3]).getByText("Você apagou esta mensagem")).toBeInTheDocument();
    expect(within(bubbles[4]).getByRole("link", { name: "Visualizar no mapa" })).toHaveAttribute(
      "href",
      "https://maps.google.com/maps?q=-23.5,-46.6",
    );
    expect(within(bubbles[4]).getByText("Padaria Central")).toBeInTheDocument();
    expect(within(bubbles[5]).getByText("Chamada de vídeo")).toBeInTheDocument();
    // Deleted bubbles have no menu.
    expect(within(bubbles[2]).queryByRole("button", { name: "Opções da mensagem" })).not.toBeInTheDocument();
  });

  it("validates the send form: blank text is not sent, Enter sends the text", async () => {
    const { calls } = renderSimulator("/simulator/5", {
      "GET /api/simulator/5": () => jsonResponse(200, state()),
      "POST /api/simulator/5/phones/5511987654321/messages": ({ body }) =>
        jsonResponse(201, msg({ id: "C9", body: (body as { body: string }).body })),
    });
    await openMaria();
    const input = screen.getByRole("textbox", { name: "Mensagem do cliente" });
    await userEvent.type(input, "   ");
    await userEvent.click(screen.getByRole("button", { name: "Enviar" }));
    expect(await screen.findByText("Digite uma mensagem")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await userEvent.clear(input);
    await userEvent.type(input, "Quero dois{Enter}");
    await waitFor(() => expect(calls.filter((c) => c.method === "POST").map((c) => c.body)).toEqual([{ type: "text", body: "Quero dois" }]));
    await waitFor(() => expect(input).toHaveValue(""));
  });

  it("replies to a company message with its quote", async () => {
    const { calls } = renderSimulator("/simulator/5", {
      "GET /api/simulator/5": () => jsonResponse(200, state()),
      "POST /api/simulator/5/phones/5511987654321/messages": () => jsonResponse(201, msg({ id: "C9" })),
    });
    const log = await openMaria();
    const reply = within(log).getAllByTestId("simulator-message")[1];
    await userEvent.click(within(reply).getByRole("button", { name: "Opções da mensagem" }));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Responder" }));
    expect(screen.getByTestId("simulator-reply-banner")).toHaveTextContent("Temos sim!");
    await userEvent.type(screen.getByRole("textbox", { name: "Mensagem do cliente" }), "Oba{Enter}");
    await waitFor(() => expect(calls.find((c) => c.method === "POST")?.body).toEqual({ type: "text", body: "Oba", quotedId: "S1" }));
  });

  it("validates a location and a contact card before sending them", async () => {
    const { calls } = renderSimulator("/simulator/5", {
      "GET /api/simulator/5": () => jsonResponse(200, state()),
      "POST /api/simulator/5/phones/5511987654321/messages": () => jsonResponse(201, msg({ id: "C9" })),
    });
    await openMaria();
    await userEvent.click(screen.getByRole("button", { name: "Enviar localização" }));
    let dialog = await screen.findByRole("dialog", { name: "Enviar localização" });
    const latitude = within(dialog).getByRole("textbox", { name: /Latitude/ });
    await userEvent.clear(latitude);
    await userEvent.type(latitude, "123");
    await userEvent.type(within(dialog).getByRole("textbox", { name: /Descrição/ }), "Loja");
    await userEvent.click(within(dialog).getByRole("button", { name: "Enviar" }));
    expect(await within(dialog).findByText("Informe uma latitude entre -90 e 90")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    await userEvent.clear(latitude);
    await userEvent.type(latitude, "-22,9");
    await userEvent.click(within(dialog).getByRole("button", { name: "Enviar" }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === "POST")?.body).toEqual({ type: "location", latitude: -22.9, longitude: -46.6333, description: "Loja" }),
    );
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole("button", { name: "Enviar contato" }));
    dialog = await screen.findByRole("dialog", { name: "Enviar contato" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Enviar" }));
    expect(await within(dialog).findByText("Obrigatório")).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole("textbox", { name: /Nome do contato/ }), "João");
    await userEvent.type(within(dialog).getByRole("textbox", { name: /Número do contato/ }), "12ab");
    await userEvent.click(within(dialog).getByRole("button", { name: "Enviar" }));
    expect(await within(dialog).findByText("Número inválido")).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByRole("textbox", { name: /Número do contato/ }));
    await userEvent.type(within(dialog).getByRole("textbox", { name: /Número do contato/ }), "+5521912345678");
    await userEvent.click(within(dialog).getByRole("button", { name: "Enviar" }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === "POST").at(-1)?.body).toEqual({ type: "vcard", contactName: "João", contactNumber: "5521912345678" }),
    );
  });

  it("sends a poll with 2 to 12 options, one per line", async () => {
    const { calls } = renderSimulator("/simulator/5", {
      "GET /api/simulator/5": () => jsonResponse(200, state()),
      "POST /api/simulator/5/phones/5511987654321/messages": () => jsonResponse(201, msg({ id: "C9" })),
    });
    await openMaria();
    await userEvent.click(screen.getByRole("button", { name: "Enviar enquete" }));
    const dialog = await screen.findByRole("dialog", { name: "Enviar enquete" });
    await userEvent.type(within(dialog).getByRole("textbox", { name: /Pergunta/ }), "Sabor?");
    const options = within(dialog).getByRole("textbox", { name: /Opções/ });
    await userEvent.type(options, "Calabresa");
    await userEvent.click(within(dialog).getByRole("button", { name: "Enviar" }));
    expect(await within(dialog).findByText("Informe de 2 a 12 opções")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    await userEvent.type(options, "{Enter}{Enter}Marguerita ");
    await userEvent.click(within(dialog).getByRole("button", { name: "Enviar" }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === "POST")?.body).toEqual({ type: "poll", question: "Sabor?", options: ["Calabresa", "Marguerita"] }),
    );
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("deletes the customer's own message after confirmation and marks a company message as played", async () => {
    const { calls } = renderSimulator("/simulator/5", {
      "GET /api/simulator/5": () => jsonResponse(200, state()),
      "DELETE /api/simulator/5/phones/5511987654321/messages/C1": () => jsonResponse(204),
      "POST /api/simulator/5/phones/5511987654321/messages/S3/ack": () => jsonResponse(204),
    });
    const log = await openMaria();
    const bubbles = within(log).getAllByTestId("simulator-message");
    await userEvent.click(within(bubbles[0]).getByRole("button", { name: "Opções da mensagem" }));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Apagar para todos" }));
    const dialog = await screen.findByRole("dialog", { name: "Apagar mensagem para todos?" });
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(within(dialog).getByRole("button", { name: "Excluir" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE" && c.url.endsWith("/messages/C1"))).toBe(true));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await userEvent.click(within(bubbles[6]).getByRole("button", { name: "Opções da mensagem" }));
    expect(await screen.findByRole("menuitem", { name: "Marcar como lida" })).toHaveAttribute("aria-disabled", "true");
    await userEvent.click(screen.getByRole("menuitem", { name: "Marcar como reproduzida" }));
    await waitFor(() => expect(calls.find((c) => c.url.endsWith("/ack"))?.body).toEqual({ ack: 4 }));
  });

  it("sends disappearing messages with the chat's timer (issue 21); the phone marks view-once and disappearing ones", async () => {
    const withMarks = state({
      phones: [
        {
          ...maria,
          messages: [
            msg({
              id: "V1",
              kind: "image",
              body: "foto",
              hasMedia: true,
              mimeType: "image/png",
              fileName: "a.png",
              viewOnce: true,
              ephemeral: 86_400,
            }),
          ],
        },
      ],
    });
    const { calls } = renderSimulator("/simulator/5", {
      "GET /api/simulator/5": () => jsonResponse(200, withMarks),
      "POST /api/simulator/5/phones/5511987654321/messages": () => jsonResponse(201, msg({ id: "C9" })),
    });
    const log = await openMaria();
    const bubble = within(log).getByTestId("simulator-message");
    expect(within(bubble).getByTestId("simulator-view-once")).toHaveAccessibleName("Visualização única");
    expect(within(bubble).getByTestId("simulator-ephemeral")).toHaveAccessibleName("Temporária (24 horas)");

    // The chat's timer, set on the phone, goes with every message.
    await userEvent.click(screen.getByRole("button", { name: "Mensagens temporárias" }));
    await userEvent.click(await screen.findByRole("menuitemradio", { name: "7 dias" }));
    expect(screen.getByTestId("simulator-ephemeral-on")).toHaveTextContent("Mensagens temporárias: 7 dias");
    await userEvent.type(screen.getByRole("textbox", { name: "Mensagem do cliente" }), "Some depois{Enter}");
    await waitFor(() =>
      expect(calls.filter((c) => c.method === "POST").at(-1)?.body).toEqual({ type: "text", body: "Some depois", ephemeral: 604_800 }),
    );
  });

  it("sends a view-once photo (issue 21): offered for photos and videos, not for documents", async () => {
    const { calls } = renderSimulator("/simulator/5", {
      "GET /api/simulator/5": () => jsonResponse(200, state()),
      "POST /api/simulator/5/phones/5511987654321/messages": () => jsonResponse(201, msg({ id: "C9" })),
    });
    await openMaria();
    await userEvent.click(screen.getByRole("button", { name: "Enviar arquivo" }));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Documento de exemplo" }));
    let dialog = await screen.findByRole("dialog");
    expect(within(dialog).queryByRole("checkbox", { name: /Visualização única/ })).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole("button", { name: "Enviar arquivo" }));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Imagem de exemplo" }));
    dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("checkbox", { name: /Visualização única/ }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Enviar" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "POST").at(-1)?.body).toEqual({ type: "image", viewOnce: true }));
  });

  it("a linked connection that is down still takes the customer's messages, which wait for it (issue 21)", async () => {
    let current = state({
      connection: { id: 5, name: "Simulador", status: "TIMEOUT", qrcode: "" },
      paired: true,
      queued: 1,
      phones: [{ ...maria, messages: [msg({ id: "Q1", body: "ainda aí?", queued: true })] }],
    });
    const { calls } = renderSimulator("/simulator/5", {
      "GET /api/simulator/5": () => jsonResponse(200, current),
      "POST /api/simulator/5/phones/5511987654321/messages": () => {
        const held = msg({ id: "Q2", body: "alô", queued: true });
        current = { ...current, queued: 2, phones: [{ ...maria, messages: [...current.phones[0]!.messages, held] }] };
        return jsonResponse(202, held);
      },
    });
    expect(await screen.findByTestId("simulator-offline")).toHaveTextContent(
      "A conexão caiu. O que os clientes enviarem agora fica aguardando e chega à empresa, de uma vez, quando ela reconectar. 1 mensagem aguardando.",
    );
    expect(screen.queryByRole("img", { name: "QR Code de pareamento" })).not.toBeInTheDocument();
    const log = await openMaria();
    expect(within(log).getByTestId("simulator-queued")).toHaveAccessibleName("Aguardando a conexão");
    // Calls need the connection; writing does not.
    expect(screen.getByRole("button", { name: "Ligar" })).toBeDisabled();
    await userEvent.type(screen.getByRole("textbox", { name: "Mensagem do cliente" }), "alô{Enter}");
    await waitFor(() => expect(calls.filter((c) => c.method === "POST").map((c) => c.body)).toEqual([{ type: "text", body: "alô" }]));
    expect(
      await screen.findByText("A conexão está fora do ar: a mensagem ficou aguardando e chega à empresa quando ela reconectar."),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(log).getAllByTestId("simulator-queued")).toHaveLength(2));
    expect(screen.getByTestId("simulator-offline")).toHaveTextContent("2 mensagens aguardando.");
  });

  it("a DISCONNECTED connection whose number is still linked says an admin starts it again; unlinked it shows the pairing", async () => {
    renderSimulator("/simulator/5", {
      "GET /api/simulator/5": () =>
        jsonResponse(200, state({ connection: { id: 5, name: "Simulador", status: "DISCONNECTED", qrcode: "" }, paired: true })),
    });
    expect(await screen.findByTestId("simulator-offline")).toHaveTextContent(/um administrador iniciar a conexão de novo/);
    expect(await screen.findByRole("form", { name: "Adicionar cliente" })).toBeInTheDocument();
  });

  it("adds a phone and opens its chat; an invalid number shows the server's error", async () => {
    let phones: SimulatorPhoneDTO[] = [];
    renderSimulator("/simulator/5", {
      "GET /api/simulator/5": () => jsonResponse(200, state({ phones })),
      "POST /api/simulator/5/phones": ({ body }) => {
        const { number, name } = body as { number: string; name?: string };
        if (number.endsWith("0000")) return jsonResponse(400, { error: "ERR_WAPP_INVALID_CONTACT" });
        const phone = { number, name: name ?? "Cliente", messages: [] };
        phones = [phone];
        return jsonResponse(201, phone);
      },
    });
    const form = await screen.findByRole("form", { name: "Adicionar cliente" });
    await userEvent.type(within(form).getByRole("textbox", { name: /Número/ }), "12");
    await userEvent.click(within(form).getByRole("button", { name: "Adicionar telefone" }));
    expect(await within(form).findByText("Número inválido")).toBeInTheDocument();
    await userEvent.clear(within(form).getByRole("textbox", { name: /Número/ }));
    await userEvent.type(within(form).getByRole("textbox", { name: /Número/ }), "5511900000000");
    await userEvent.click(within(form).getByRole("button", { name: "Adicionar telefone" }));
    expect(await within(form).findByText(/não é um número de WhatsApp válido/)).toBeInTheDocument();
    await userEvent.clear(within(form).getByRole("textbox", { name: /Número/ }));
    await userEvent.type(within(form).getByRole("textbox", { name: /Número/ }), "5511912345678");
    await userEvent.type(within(form).getByRole("textbox", { name: /Nome/ }), "José");
    await userEvent.click(within(form).getByRole("button", { name: "Adicionar telefone" }));
    expect(await screen.findByRole("region", { name: "Conversa de José" })).toBeInTheDocument();
    expect(screen.getByText("Nenhuma mensagem ainda. Escreva para a empresa!")).toBeInTheDocument();
  });

  it("works without signing in through the secret link: every call carries the key and no token", async () => {
    localStorage.setItem("token", "stale-token");
    const { calls } = renderSimulator("/simulator/5?key=s3cr3t", { "GET /api/simulator/5": () => jsonResponse(200, state()) }, null);
    await openMaria();
    expect(calls[0].url).toBe("/api/simulator/5?key=s3cr3t");
    expect(calls[0].headers.Authorization).toBeUndefined();
    expect(screen.queryByRole("link", { name: "Conexões" })).not.toBeInTheDocument();
  });

  it("sends a signed-out visitor without a key to the login", async () => {
    renderSimulator("/simulator/5", {}, null);
    expect(await screen.findByTestId("location")).toHaveTextContent("/login");
  });

  it("lists the company's simulator connections when none is in the URL", async () => {
    renderSimulator("/simulator", {
      "GET /api/simulator/connections": () => jsonResponse(200, [{ id: 5, name: "Simulador", status: "qrcode", qrcode: "x" }]),
    });
    expect(await screen.findByRole("link", { name: /Simulador/ })).toHaveAttribute("href", "/simulator/5");
  });
});
