import type { ContactDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderWithSocket } from "../connections/testSocket";
import { fakeSession, jsonResponse, makeUser, mockFetch } from "../../test/utils";
import ContactsPage from "./ContactsPage";
import { makeContact } from "./fixtures";

const admin = makeUser({ id: 1, profile: "admin" });
const attendant = makeUser({ id: 2, name: "Bia", profile: "user", queues: [{ id: 3, name: "Vendas", color: "#2E7D32" }] });
const maria = makeContact({ id: 7, name: "Maria Souza", number: "5511987654321", email: "maria@cliente.test" });
const jose = makeContact({ id: 8, name: "José", number: "5521912345678", email: "" });

function renderContacts(user = admin, contacts: ContactDTO[] = [maria, jose], extra: Parameters<typeof mockFetch>[0] = {}) {
  const fetch = mockFetch({ "GET /api/contacts": () => jsonResponse(200, { contacts, hasMore: false }), ...extra });
  const utils = renderWithSocket(<ContactsPage />, { session: fakeSession(user), path: "/contacts" });
  return { ...fetch, ...utils };
}

afterEach(() => vi.restoreAllMocks());

describe("ContactsPage", () => {
  it("lists avatar, name, formatted number and email; delete only for those allowed", async () => {
    renderContacts();
    const table = await screen.findByRole("table", { name: "Contatos" });
    const row = (await within(table).findByText("Maria Souza")).closest("tr")!;
    expect(within(row).getByText("+55 11 98765 4321")).toBeInTheDocument();
    expect(within(row).getByText("maria@cliente.test")).toBeInTheDocument();
    expect(within(row).getByText("M")).toBeInTheDocument(); // avatar initial without a picture
    expect(screen.getByRole("button", { name: "Excluir Maria Souza" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Editar Maria Souza" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Iniciar atendimento com Maria Souza" })).toBeInTheDocument();
  });

  it("hides delete from attendants", async () => {
    renderContacts(attendant);
    expect(await screen.findByText("Maria Souza")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Excluir Maria Souza" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Editar Maria Souza" })).toBeInTheDocument();
  });

  it("deletes after confirmation", async () => {
    const { calls } = renderContacts(admin, [maria, jose], { "DELETE /api/contacts/8": () => jsonResponse(204) });
    await userEvent.click(await screen.findByRole("button", { name: "Excluir José" }));
    const dialog = await screen.findByRole("dialog", { name: "Excluir José?" });
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(within(dialog).getByRole("button", { name: "Excluir" }));
    await waitFor(() => expect(screen.queryByText("José")).not.toBeInTheDocument());
    expect(await screen.findByText("Contato excluído com sucesso!")).toBeInTheDocument();
  });

  it("follows the socket `contact` events live", async () => {
    const { emit } = renderContacts();
    expect(await screen.findByText("Maria Souza")).toBeInTheDocument();
    emit("contact", { action: "create", contact: makeContact({ id: 9, name: "Ana Paula", number: "5531999990000", email: "ana@x.test" }) });
    expect(await screen.findByText("Ana Paula")).toBeInTheDocument();
    const names = () => screen.getAllByTestId("contact-row").map((r) => within(r).getAllByRole("cell")[1]!.textContent);
    expect(names()).toEqual(["Ana Paula", "Maria Souza", "José"].sort((a, b) => a.localeCompare(b, "pt-BR")));
    emit("contact", { action: "update", contact: { ...maria, name: "Maria S. Lima" } });
    expect(await screen.findByText("Maria S. Lima")).toBeInTheDocument();
    emit("contact", { action: "delete", contactId: 8 });
    await waitFor(() => expect(screen.queryByText("José")).not.toBeInTheDocument());
  });

  it("starts a ticket in the chosen queue and opens it", async () => {
    const { calls, router } = renderContacts(attendant, [maria], {
      "GET /api/queue": () =>
        jsonResponse(200, [
          { id: 3, name: "Vendas", color: "#2E7D32" },
          { id: 4, name: "Suporte", color: "#1565C0" },
        ]),
      "POST /api/tickets": () => jsonResponse(201, { id: 50, uuid: "0b6f7c55-7d1d-4a4e-9a52-3c1de1a0f001" }),
    });
    await userEvent.click(await screen.findByRole("button", { name: "Iniciar atendimento com Maria Souza" }));
    const dialog = await screen.findByRole("dialog", { name: "Iniciar atendimento" });
    // An attendant only sees its own queues; the only one is preselected.
    await waitFor(() => expect(within(dialog).getByRole("combobox", { name: "Fila" })).toHaveTextContent("Vendas"));
    await userEvent.click(within(dialog).getByRole("combobox", { name: "Fila" }));
    expect(screen.queryByRole("option", { name: "Suporte" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("option", { name: "Vendas" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Iniciar" }));
    await waitFor(() => expect(router.location().pathname).toBe("/tickets/0b6f7c55-7d1d-4a4e-9a52-3c1de1a0f001"));
    expect(calls.find((c) => c.method === "POST")!.body).toEqual({ contactId: 7, queueId: 3, status: "open" });
  });

  it("translates ERR_OTHER_OPEN_TICKET and stays on the page", async () => {
    const { router } = renderContacts(admin, [maria], {
      "GET /api/queue": () => jsonResponse(200, [{ id: 3, name: "Vendas", color: "#2E7D32" }]),
      "POST /api/tickets": () => jsonResponse(400, { error: "ERR_OTHER_OPEN_TICKET", meta: { ticketId: 5 } }),
    });
    await userEvent.click(await screen.findByRole("button", { name: "Iniciar atendimento com Maria Souza" }));
    const dialog = await screen.findByRole("dialog", { name: "Iniciar atendimento" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Iniciar" }));
    expect(await screen.findAllByText("Já existe um atendimento aberto para este contato.")).toHaveLength(2);
    expect(router.location().pathname).toBe("/contacts");
  });

  it("imports after confirmation and shows the counts", async () => {
    const { calls } = renderContacts(admin, [maria], {
      "POST /api/contacts/import": () => jsonResponse(200, { created: 12, existing: 3, skipped: 1 }),
    });
    await userEvent.click(await screen.findByRole("button", { name: "Importar contatos" }));
    const confirm = await screen.findByRole("dialog", { name: "Importar contatos" });
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    await userEvent.click(within(confirm).getByRole("button", { name: "Importar" }));
    const result = await screen.findByRole("dialog", { name: "Importação concluída" });
    expect(within(result).getByTestId("import-created")).toHaveTextContent("12");
    expect(within(result).getByTestId("import-existing")).toHaveTextContent("3");
    expect(within(result).getByTestId("import-skipped")).toHaveTextContent("1");
    expect(screen.getByText("Importação concluída: 12 novo(s), 3 já cadastrado(s), 1 ignorado(s).")).toBeInTheDocument();
    // The list is fetched again.
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith("/api/contacts?")).length).toBe(2));
  });

  it("exports every page as contatos.csv with a progress indicator", async () => {
    const blobs: Blob[] = [];
    Object.defineProperty(URL, "createObjectURL", { configurable: true, value: (b: Blob) => (blobs.push(b), "blob:x") });
    Object.defineProperty(URL, "revokeObjectURL", { configurable: true, value: () => {} });
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    renderContacts(admin, [maria], {
      "GET /api/contacts": async ({ url }) => {
        const page = Number(new URL(url, "http://x").searchParams.get("pageNumber"));
        if (page === 2) await gate;
        return jsonResponse(200, page === 1 ? { contacts: [maria], hasMore: true } : { contacts: [jose], hasMore: false });
      },
    });
    expect(await screen.findByText("Maria Souza")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Exportar CSV" }));
    const progress = await screen.findByRole("dialog", { name: "Exportando contatos" });
    expect(await within(progress).findByText("1 contato(s) carregado(s)... (página 1)")).toBeInTheDocument();
    release();
    expect(await screen.findByText("2 contato(s) exportado(s).")).toBeInTheDocument();
    expect(click).toHaveBeenCalledTimes(1);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await blobs[0]!.arrayBuffer());
    expect(text).toBe("\uFEFFname;number;email\r\nMaria Souza;55 11 98765 4321;maria@cliente.test\r\nJosé;55 21 91234 5678;\r\n");
  });
});
