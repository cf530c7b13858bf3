import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { makeMessage, makeTicket } from "../tickets/fixtures";
import { MessageInput, quickMessageSuggestions, quickPreview, signBody } from "./MessageInput";

const quick = [
  {
    id: 1,
    companyId: 10,
    shortcode: "ola",
    message: "Olá! Seja bem-vindo à nossa loja, em que posso ajudar hoje?",
    userId: 1,
    createdAt: "",
    updatedAt: "",
  },
  { id: 2, companyId: 10, shortcode: "pix", message: "Nossa chave Pix é o CNPJ.", userId: 1, createdAt: "", updatedAt: "" },
];

function setup(ticket = makeTicket(), sign?: boolean) {
  if (sign !== undefined) localStorage.setItem("signOption", JSON.stringify(sign));
  const fetch = mockFetch({
    "POST /api/messages/1": (call) =>
      jsonResponse(201, [makeMessage({ id: 50, fromMe: true, ack: 1, body: String((call.body as { body: string }).body) })]),
    "GET /api/quick-messages/list": () => jsonResponse(200, quick),
  });
  renderPage(<MessageInput ticket={ticket} replyingTo={null} onCancelReply={() => {}} />, { session: fakeSession(makeUser({ name: "Ana" })) });
  return fetch;
}

const sends = (calls: { method: string; url: string; body: unknown }[]) =>
  calls.filter((c) => c.method === "POST" && c.url.startsWith("/api/messages/"));

describe("composer rules", () => {
  it("Enter sends the trimmed text signed with the attendant's name (sign on by default)", async () => {
    const { calls } = setup();
    const box = screen.getByRole("textbox", { name: "Mensagem" });
    await userEvent.type(box, "  Bom dia  {Enter}");
    await waitFor(() => expect(sends(calls)).toHaveLength(1));
    expect(sends(calls)[0].body).toEqual({ body: "*Ana:*\nBom dia" });
    expect(box).toHaveValue("");
  });

  it("Shift+Enter breaks the line; blank text is never sent", async () => {
    const { calls } = setup(makeTicket(), false);
    const box = screen.getByRole("textbox", { name: "Mensagem" });
    await userEvent.type(box, "   {Enter}");
    await userEvent.type(box, "{Shift>}{Enter}{/Shift}{Enter}");
    expect(sends(calls)).toHaveLength(0);
    await userEvent.clear(box);
    await userEvent.type(box, "linha 1{Shift>}{Enter}{/Shift}linha 2");
    expect(box).toHaveValue("linha 1\nlinha 2");
    await userEvent.type(box, "{Enter}");
    await waitFor(() => expect(sends(calls)).toHaveLength(1));
    expect(sends(calls)[0].body).toEqual({ body: "linha 1\nlinha 2" });
  });

  it("the sign option is stored locally as signOption", async () => {
    setup();
    const toggle = screen.getByRole("switch", { name: "Assinar" });
    expect(toggle).toBeChecked();
    await userEvent.click(toggle);
    expect(localStorage.getItem("signOption")).toBe("false");
  });

  it("shows quick-message suggestions after '/' plus a character, cut at 35 characters, and picks one", async () => {
    setup();
    const box = screen.getByRole("textbox", { name: "Mensagem" });
    await userEvent.type(box, "/");
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    await userEvent.type(box, "ol");
    const option = await screen.findByRole("option");
    expect(option).toHaveTextContent("/ola - Olá! Seja bem-vindo à nossa loja, e...");
    expect("Olá! Seja bem-vindo à nossa loja, e").toHaveLength(35);
    await userEvent.click(option);
    expect(box).toHaveValue(quick[0].message);
  });

  it("is disabled with a note when the ticket is not open", () => {
    mockFetch({});
    renderPage(<MessageInput ticket={makeTicket({ status: "pending", userId: null })} replyingTo={null} onCancelReply={() => {}} />, {
      session: fakeSession(makeUser()),
    });
    expect(screen.getByRole("textbox", { name: "Mensagem" })).toBeDisabled();
    expect(screen.getByRole("note")).toHaveTextContent("Aceite o atendimento para enviar mensagens");
  });
});

describe("composer helpers", () => {
  it("signBody, quickPreview and quickMessageSuggestions", () => {
    expect(signBody(" oi ", "Ana", true)).toBe("*Ana:*\noi");
    expect(signBody(" oi ", "Ana", false)).toBe("oi");
    expect(quickPreview("a".repeat(35))).toBe("a".repeat(35));
    expect(quickPreview("a".repeat(36))).toBe(`${"a".repeat(35)}...`);
    expect(quickMessageSuggestions("/", quick)).toEqual([]);
    expect(quickMessageSuggestions("ola", quick)).toEqual([]);
    expect(quickMessageSuggestions("/pi", quick).map((q) => q.id)).toEqual([2]);
    expect(quickMessageSuggestions("/CNPJ", quick).map((q) => q.id)).toEqual([2]);
  });
});
