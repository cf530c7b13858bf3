import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { renderWithSocket } from "../connections/testSocket";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { quick } from "./fixtures";
import QuickMessagesPage from "./QuickMessagesPage";

describe("QuickMessagesPage", () => {
  it("lists shortcode and message, edit/delete only for the author or an admin, follows `quickmessage` events", async () => {
    const mine = quick({ id: 1, shortcode: "oi", message: "Olá!", userId: 2 });
    const theirs = quick({ id: 2, shortcode: "tchau", message: "Até logo!", userId: 3 });
    const { calls } = mockFetch({
      "GET /api/quick-messages": () => jsonResponse(200, { records: [mine, theirs], hasMore: false }),
      "DELETE /api/quick-messages/1": () => jsonResponse(204),
    });
    const { emit } = renderWithSocket(<QuickMessagesPage />, { session: fakeSession(makeUser({ id: 2, profile: "user" })), path: "/quick-messages" });
    const table = await screen.findByRole("table", { name: "Respostas rápidas" });
    expect(await within(table).findByText("/oi")).toBeInTheDocument();
    expect(within(table).getByText("Até logo!")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Editar /oi" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Editar /tchau" })).not.toBeInTheDocument();

    emit("quickmessage", { action: "create", record: quick({ id: 3, shortcode: "pix", message: "Nossa chave Pix é...", userId: 3 }) });
    expect(await within(table).findByText("/pix")).toBeInTheDocument();
    emit("quickmessage", { action: "update", record: { ...theirs, message: "Até mais!" } });
    expect(await within(table).findByText("Até mais!")).toBeInTheDocument();
    emit("quickmessage", { action: "delete", id: 3 });
    await waitFor(() => expect(within(table).queryByText("/pix")).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole("button", { name: "Excluir /oi" }));
    const dialog = await screen.findByRole("dialog", { name: "Excluir a resposta rápida /oi?" });
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(within(dialog).getByRole("button", { name: "Excluir" }));
    await waitFor(() => expect(within(table).queryByText("/oi")).not.toBeInTheDocument());
    expect(await screen.findByText("Resposta rápida excluída")).toBeInTheDocument();
  });

  it("shows an empty state", async () => {
    mockFetch({ "GET /api/quick-messages": () => jsonResponse(200, { records: [], hasMore: false }) });
    renderPage(<QuickMessagesPage />, { session: fakeSession(makeUser()), path: "/quick-messages" });
    expect(await screen.findByText("Nenhuma resposta rápida encontrada")).toBeInTheDocument();
  });
});
