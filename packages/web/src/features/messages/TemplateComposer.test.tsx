import type { CloudApiTemplateDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { makeMessage, makeTicket } from "../tickets/fixtures";
import { MessageInput } from "./MessageInput";
import { templateSendBody } from "./TemplateComposer";

const retomar: CloudApiTemplateDTO = {
  name: "retomar",
  language: "pt_BR",
  status: "APPROVED",
  components: [{ type: "BODY", text: "Olá {{1}}, seu pedido {{2}} está pronto." }],
};
const rastreio: CloudApiTemplateDTO = {
  name: "rastreio",
  language: "pt_BR",
  status: "APPROVED",
  components: [
    { type: "HEADER", format: "IMAGE" },
    { type: "BODY", text: "Pedido enviado." },
    { type: "BUTTONS", buttons: [{ type: "URL", text: "Rastrear", url: "https://loja.example/r/{{1}}" }] },
  ],
};

function setup(window: { applies: boolean; open: boolean }) {
  const fetch = mockFetch({
    "GET /api/cloudapi/tickets/1/window": () =>
      jsonResponse(200, { ...window, lastInboundAt: "2026-11-20T10:00:00.000Z", closesAt: "2026-11-21T10:00:00.000Z" }),
    "GET /api/cloudapi/3/templates": () => jsonResponse(200, { templates: [retomar, rastreio], syncedAt: "2026-11-20T09:00:00.000Z" }),
    "POST /api/cloudapi/tickets/1/template": () =>
      jsonResponse(201, [makeMessage({ id: 60, fromMe: true, ack: 1, body: "Olá Maria, seu pedido 42 está pronto." })]),
    "GET /api/quick-messages/list": () => jsonResponse(200, []),
  });
  const ticket = makeTicket({ whatsappId: 3, whatsapp: { id: 3, name: "Oficial" } });
  renderPage(<MessageInput ticket={ticket} replyingTo={null} onCancelReply={() => {}} />, { session: fakeSession(makeUser({ name: "Ana" })) });
  return fetch;
}

const templatePosts = (calls: { method: string; url: string; body: unknown }[]) =>
  calls.filter((c) => c.method === "POST" && c.url.includes("/template"));

describe("template picker outside the 24-hour window", () => {
  it("says free text is not allowed, offers the approved templates, fills their parameters with a preview and sends one", async () => {
    const { calls } = setup({ applies: true, open: false });
    const region = await screen.findByRole("region", { name: "Modelos do WhatsApp" });
    expect(within(region).getByText(/o WhatsApp não permite texto livre/)).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: "Mensagem" })).not.toBeInTheDocument();

    await userEvent.click(await screen.findByRole("combobox", { name: "Modelo aprovado" }));
    expect(screen.getByRole("option", { name: "rastreio (pt_BR)" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("option", { name: "retomar (pt_BR)" }));

    const send = screen.getByRole("button", { name: "Enviar modelo" });
    expect(send).toBeDisabled();
    await userEvent.type(screen.getByRole("textbox", { name: "Parâmetro 1" }), "Maria");
    expect(screen.getByRole("figure", { name: "Prévia" })).toHaveTextContent("Olá Maria, seu pedido {{2}} está pronto.");
    expect(send).toBeDisabled();
    await userEvent.type(screen.getByRole("textbox", { name: "Parâmetro 2" }), "42");
    expect(screen.getByRole("figure", { name: "Prévia" })).toHaveTextContent("Olá Maria, seu pedido 42 está pronto.");
    await userEvent.click(send);
    await waitFor(() => expect(templatePosts(calls)).toHaveLength(1));
    expect(templatePosts(calls)[0]!.body).toEqual({ name: "retomar", language: "pt_BR", bodyParams: ["Maria", "42"] });
  });

  it("a template with a media header and a dynamic URL button asks for both", async () => {
    const { calls } = setup({ applies: true, open: false });
    await userEvent.click(await screen.findByRole("combobox", { name: "Modelo aprovado" }));
    await userEvent.click(screen.getByRole("option", { name: "rastreio (pt_BR)" }));
    await userEvent.type(screen.getByRole("textbox", { name: "Link do cabeçalho (image)" }), "https://cdn.example/p.jpg");
    expect(screen.getByRole("button", { name: "Enviar modelo" })).toBeDisabled();
    await userEvent.type(screen.getByRole("textbox", { name: "Botão “Rastrear”: final do link" }), "AB12");
    await userEvent.click(screen.getByRole("button", { name: "Enviar modelo" }));
    await waitFor(() => expect(templatePosts(calls)).toHaveLength(1));
    expect(templatePosts(calls)[0]!.body).toEqual({
      name: "rastreio",
      language: "pt_BR",
      bodyParams: [],
      header: { type: "image", link: "https://cdn.example/p.jpg" },
      buttons: [{ index: 0, subType: "url", param: "AB12" }],
    });
  });

  it("an admin syncs the templates from the account when none are listed yet", async () => {
    const fetch = mockFetch({
      "GET /api/cloudapi/tickets/1/window": () => jsonResponse(200, { applies: true, open: false, lastInboundAt: null, closesAt: null }),
      "GET /api/cloudapi/3/templates": () => jsonResponse(200, { templates: [], syncedAt: null }),
      "POST /api/cloudapi/3/templates/sync": () => jsonResponse(200, { templates: [retomar], syncedAt: "2026-11-20T09:00:00.000Z" }),
    });
    const ticket = makeTicket({ whatsappId: 3, whatsapp: { id: 3, name: "Oficial" } });
    renderPage(<MessageInput ticket={ticket} replyingTo={null} onCancelReply={() => {}} />, {
      session: fakeSession(makeUser({ name: "Ana", profile: "admin" })),
    });
    expect(await screen.findByText(/Nenhum modelo aprovado sincronizado/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Sincronizar modelos" }));
    await userEvent.click(await screen.findByRole("combobox", { name: "Modelo aprovado" }));
    expect(screen.getByRole("option", { name: "retomar (pt_BR)" })).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.url === "/api/cloudapi/3/templates/sync")).toHaveLength(1);
  });

  it("inside the window (or on another channel) the normal composer is shown", async () => {
    const { calls } = setup({ applies: true, open: true });
    await waitFor(() => expect(calls.some((c) => c.url === "/api/cloudapi/tickets/1/window")).toBe(true));
    expect(await screen.findByRole("textbox", { name: "Mensagem" })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("region", { name: "Modelos do WhatsApp" })).not.toBeInTheDocument());
  });
});

describe("templateSendBody", () => {
  it("is null while a required value is missing and leaves an empty optional quick-reply payload out", () => {
    const quick: CloudApiTemplateDTO = {
      name: "q",
      language: "en",
      status: "APPROVED",
      components: [
        { type: "HEADER", format: "TEXT", text: "Oi {{1}}" },
        { type: "BODY", text: "Corpo" },
        { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Sim" }] },
      ],
    };
    expect(templateSendBody(quick, { body: [], header: " ", buttons: {} })).toBeNull();
    expect(templateSendBody(quick, { body: [], header: "Ana", buttons: { 0: " " } })).toEqual({
      name: "q",
      language: "en",
      bodyParams: [],
      header: { type: "text", text: "Ana" },
    });
    expect(templateSendBody(quick, { body: [], header: "Ana", buttons: { 0: "SIM" } })?.buttons).toEqual([
      { index: 0, subType: "quick_reply", param: "SIM" },
    ]);
  });
});
