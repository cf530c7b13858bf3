import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { makeConnection } from "../connections/fixtures";
import MessagesApiPage from "./MessagesApiPage";

const admin = makeUser({ id: 1, profile: "admin" });
const connections = [
  makeConnection({ id: 1, name: "Loja", token: "tok-loja-123", isDefault: true }),
  makeConnection({ id: 2, name: "Suporte", token: "tok-suporte-456", status: "DISCONNECTED" }),
];
const sendUrl = () => `${window.location.origin}/api/messages/send`;

let writeText: ReturnType<typeof vi.fn>;
beforeEach(() => {
  writeText = vi.fn(async () => undefined);
  Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } });
});
afterEach(() => vi.unstubAllGlobals());

function renderApiPage(routes: Parameters<typeof mockFetch>[0] = {}, user = admin) {
  const fetch = mockFetch({ "GET /api/whatsapp/": () => jsonResponse(200, connections), ...routes });
  renderPage(<MessagesApiPage />, { session: fakeSession(user) });
  return fetch;
}

describe("MessagesApiPage", () => {
  it("keeps the token hidden until revealed, copies it, and fills the curl examples with the origin and token", async () => {
    renderApiPage();
    const token = await screen.findByRole("textbox", { name: "Token da conexão" });
    expect(token).toHaveValue("•".repeat(24));
    expect(document.body.textContent).not.toContain("tok-loja-123");
    const example = screen.getByText(/Content-Type: application\/json/).closest("pre")!;
    expect(example.textContent).toContain(`'${sendUrl()}'`);
    expect(example.textContent).toContain("Authorization: Bearer ••••");

    await userEvent.click(screen.getByRole("button", { name: "Copiar token" }));
    expect(writeText).toHaveBeenLastCalledWith("tok-loja-123");
    // The example's copy carries the real token even while the page hides it.
    await userEvent.click(screen.getByRole("button", { name: "Copiar Exemplo: mensagem de texto" }));
    expect(writeText.mock.lastCall![0]).toContain("Authorization: Bearer tok-loja-123");
    expect(writeText.mock.lastCall![0]).toContain(`curl -X POST '${sendUrl()}'`);

    await userEvent.click(screen.getByRole("button", { name: "Mostrar token" }));
    expect(token).toHaveValue("tok-loja-123");
    expect(example.textContent).toContain("Authorization: Bearer tok-loja-123");
    await userEvent.click(screen.getByRole("button", { name: "Ocultar token" }));
    expect(token).toHaveValue("•".repeat(24));

    // Another connection: its own token, hidden again, and a warning while it is disconnected.
    await userEvent.click(screen.getByRole("combobox", { name: "Conexão" }));
    await userEvent.click(await screen.findByRole("option", { name: /Suporte/ }));
    await userEvent.click(screen.getByRole("button", { name: "Copiar token" }));
    expect(writeText).toHaveBeenLastCalledWith("tok-suporte-456");
    expect(screen.getByText(/não está conectada/)).toBeInTheDocument();
  });

  it("sends the test text through the real endpoint with the connection's token, not the user's session", async () => {
    const { calls } = renderApiPage({
      [`POST ${sendUrl()}`]: () => jsonResponse(200, { mensagem: "Mensagem enviada", contactId: 5, ticketId: 42, messages: [{ id: 9 }] }),
    });
    const form = await screen.findByRole("form", { name: "Testar envio de texto" });
    await userEvent.type(within(form).getByRole("textbox", { name: /Número/ }), "5511988887777");
    await userEvent.type(within(form).getByRole("textbox", { name: /Mensagem/ }), "Olá pela API");
    await userEvent.click(within(form).getByRole("button", { name: "Enviar texto" }));
    expect(await within(form).findByText("Mensagem enviada (atendimento #42).")).toBeInTheDocument();
    const post = calls.find((c) => c.method === "POST")!;
    expect(post.url).toBe(sendUrl());
    expect(post.headers.Authorization).toBe("Bearer tok-loja-123");
    expect(post.body).toEqual({ number: "5511988887777", body: "Olá pela API" });
  });

  it("sends a file as multipart and shows the server's error in words", async () => {
    let sent: FormData | undefined;
    renderApiPage({
      [`POST ${sendUrl()}`]: ({ body }) => {
        sent = body as FormData;
        return jsonResponse(409, { error: "ERR_WAPP_NOT_CONNECTED", meta: { status: "DISCONNECTED" } });
      },
    });
    const form = await screen.findByRole("form", { name: "Testar envio de arquivo" });
    const submit = within(form).getByRole("button", { name: "Enviar arquivo" });
    expect(submit).toBeDisabled();
    await userEvent.type(within(form).getByRole("textbox", { name: /Número/ }), "5511988887777");
    await userEvent.type(within(form).getByRole("textbox", { name: /Legenda/ }), "Boleto");
    await userEvent.upload(within(form).getByLabelText("Arquivo"), new File(["%PDF"], "boleto.pdf", { type: "application/pdf" }));
    expect(within(form).getByText("boleto.pdf")).toBeInTheDocument();
    await userEvent.click(submit);
    expect(await within(form).findByText("A conexão não está conectada (status: DISCONNECTED). Verifique a página de conexões.")).toBeInTheDocument();
    expect(sent).toBeInstanceOf(FormData);
    expect(sent!.get("number")).toBe("5511988887777");
    expect(sent!.get("body")).toBe("Boleto");
    expect((sent!.get("medias") as File).name).toBe("boleto.pdf");
  });

  it("is for admins only", async () => {
    const { calls } = renderApiPage({}, makeUser({ id: 2, profile: "user" }));
    expect(await screen.findByText("Somente administradores podem ver a API de mensagens.")).toBeInTheDocument();
    await waitFor(() => expect(calls).toHaveLength(0));
  });
});
