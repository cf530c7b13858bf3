import type { ConnectionDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch } from "../../test/utils";
import ConnectionsPage from "./ConnectionsPage";
import { makeConnection } from "./fixtures";
import { renderWithSocket } from "./testSocket";

const admin = makeUser({ id: 1, profile: "admin" });
const attendant = makeUser({ id: 2, name: "Bia", profile: "user" });

const byStatus: ConnectionDTO[] = [
  makeConnection({ id: 1, name: "A qrcode", status: "qrcode", qrcode: "balcao-sim:1:abc" }),
  makeConnection({ id: 2, name: "B desconectada", status: "DISCONNECTED", channel: "baileys" }),
  makeConnection({ id: 3, name: "C conectada", status: "CONNECTED", isDefault: true, number: "5511987654321" }),
  makeConnection({ id: 4, name: "D pareando", status: "PAIRING", channel: "baileys" }),
  makeConnection({ id: 5, name: "E perdida", status: "TIMEOUT", channel: "baileys" }),
  makeConnection({ id: 6, name: "F abrindo", status: "OPENING", channel: "baileys" }),
];

function renderConnections(user = admin, connections = byStatus, extra: Parameters<typeof mockFetch>[0] = {}) {
  const fetch = mockFetch({ "GET /api/whatsapp/": () => jsonResponse(200, connections), ...extra });
  const utils = renderWithSocket(<ConnectionsPage />, { session: fakeSession(user), path: "/connections" });
  return { ...fetch, ...utils };
}

const row = async (name: string) => (await screen.findByText(name)).closest("tr")!;
const buttonNames = (el: HTMLElement) =>
  within(el)
    .queryAllByRole("button")
    .map((b) => b.textContent?.trim() || b.getAttribute("aria-label"));

describe("ConnectionsPage", () => {
  it("shows the session actions by status exactly as spec §2", async () => {
    renderConnections();
    const qr = await row("A qrcode");
    expect(within(qr).getByText("Aguardando leitura do QR Code")).toBeInTheDocument();
    expect(buttonNames(qr)).toEqual(["QR CODE", "Saúde de A qrcode", "Link secreto do simulador de A qrcode", "Editar A qrcode", "Excluir A qrcode"]);
    expect(within(qr).getByRole("link", { name: /Abrir simulador/ })).toHaveAttribute("href", "/simulator/1");

    const disconnected = await row("B desconectada");
    expect(within(disconnected).getByText("Desconectado")).toBeInTheDocument();
    expect(buttonNames(disconnected)).toEqual([
      "Tentar novamente",
      "Novo QR CODE",
      "Saúde de B desconectada",
      "Editar B desconectada",
      "Excluir B desconectada",
    ]);

    for (const [name, label] of [
      ["C conectada", "Conectado"],
      ["D pareando", "Pareando"],
      ["E perdida", "Conexão perdida"],
    ]) {
      const r = await row(name);
      expect(within(r).getByText(label)).toBeInTheDocument();
      expect(within(r).getByRole("button", { name: "Desconectar" })).toBeEnabled();
      expect(within(r).queryByRole("button", { name: "QR CODE" })).not.toBeInTheDocument();
      expect(within(r).queryByRole("button", { name: "Tentar novamente" })).not.toBeInTheDocument();
    }

    const opening = await row("F abrindo");
    const connecting = within(opening).getByRole("button", { name: /Conectando/ });
    expect(connecting).toBeDisabled();
    expect(within(connecting).getByRole("progressbar")).toBeInTheDocument();
    expect(within(opening).queryByRole("button", { name: "Desconectar" })).not.toBeInTheDocument();

    const connected = await row("C conectada");
    expect(within(connected).getByTestId("connection-default")).toBeInTheDocument();
    expect(within(connected).getByText("+55 11 98765 4321")).toBeInTheDocument();
  });

  it("try again posts, new QR puts, disconnect asks first then deletes the session", async () => {
    const { calls } = renderConnections(admin, byStatus, {
      "POST /api/whatsappsession/2": () => jsonResponse(200, { ...byStatus[1], status: "OPENING", updatedAt: "2025-01-02T00:00:00.000Z" }),
      "PUT /api/whatsappsession/2": () => jsonResponse(200, { ...byStatus[1], status: "qrcode", qrcode: "x", updatedAt: "2025-01-03T00:00:00.000Z" }),
      "DELETE /api/whatsappsession/3": () => jsonResponse(200, { ...byStatus[2], status: "DISCONNECTED", updatedAt: "2025-01-02T00:00:00.000Z" }),
    });
    const sessionCalls = () => calls.filter((c) => c.url.startsWith("/api/whatsappsession")).map((c) => `${c.method} ${c.url}`);

    await userEvent.click(within(await row("B desconectada")).getByRole("button", { name: "Tentar novamente" }));
    await waitFor(() => expect(within(screen.getByText("B desconectada").closest("tr")!).getByRole("button", { name: /Conectando/ })).toBeDisabled());
    expect(sessionCalls()).toEqual(["POST /api/whatsappsession/2"]);

    const conectada = await row("C conectada");
    await userEvent.click(within(conectada).getByRole("button", { name: "Desconectar" }));
    const dialog = await screen.findByRole("dialog", { name: "Desconectar C conectada?" });
    expect(sessionCalls()).toEqual(["POST /api/whatsappsession/2"]);
    await userEvent.click(within(dialog).getByRole("button", { name: "Desconectar" }));
    await waitFor(() => expect(within(conectada).getByText("Desconectado")).toBeInTheDocument());
    expect(sessionCalls()).toEqual(["POST /api/whatsappsession/2", "DELETE /api/whatsappsession/3"]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await userEvent.click(within(conectada).getByRole("button", { name: "Novo QR CODE" }));
    await waitFor(() => expect(sessionCalls()).toContain("PUT /api/whatsappsession/3"));
  });

  it("cancelling the disconnect confirmation sends nothing", async () => {
    const { calls } = renderConnections();
    await userEvent.click(within(await row("E perdida")).getByRole("button", { name: "Desconectar" }));
    await userEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls.some((c) => c.url.startsWith("/api/whatsappsession"))).toBe(false);
  });

  it("deletes a connection after confirmation", async () => {
    let list = byStatus;
    const { calls } = renderConnections(admin, byStatus, {
      "GET /api/whatsapp/": () => jsonResponse(200, list),
      "DELETE /api/whatsapp/5": () => {
        list = list.filter((c) => c.id !== 5);
        return jsonResponse(204);
      },
    });
    await userEvent.click(within(await row("E perdida")).getByRole("button", { name: "Excluir E perdida" }));
    const dialog = await screen.findByRole("dialog", { name: "Excluir E perdida?" });
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(within(dialog).getByRole("button", { name: "Excluir" }));
    await waitFor(() => expect(screen.queryByText("E perdida")).not.toBeInTheDocument());
    expect(await screen.findByText("Conexão excluída com sucesso.")).toBeInTheDocument();
  });

  it("is read-only for attendants", async () => {
    renderConnections(attendant);
    const r = await row("B desconectada");
    expect(within(r).getByText("Desconectado")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Adicionar WhatsApp" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Tentar novamente" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "QR CODE" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Editar/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Link secreto/ })).not.toBeInTheDocument();
    // Anyone of the company may open the simulator of a simulator connection.
    expect(within(await row("A qrcode")).getByRole("link", { name: /Abrir simulador/ })).toHaveAttribute("href", "/simulator/1");
  });

  it("follows whatsapp / whatsappSession events live", async () => {
    const { emit } = renderConnections(admin, [byStatus[2]]);
    const r = await row("C conectada");
    emit("whatsappSession", { action: "update", session: { ...byStatus[2], status: "TIMEOUT", updatedAt: "2025-01-05T00:00:00.000Z" } });
    expect(await within(r).findByText("Conexão perdida")).toBeInTheDocument();
    emit("whatsapp", {
      action: "update",
      whatsapp: makeConnection({ id: 9, name: "Nova", status: "OPENING", updatedAt: "2025-01-05T00:00:00.000Z" }),
    });
    expect(await screen.findByText("Nova")).toBeInTheDocument();
    emit("whatsapp", { action: "delete", whatsappId: 3 });
    await waitFor(() => expect(screen.queryByText("C conectada")).not.toBeInTheDocument());
  });

  it("shows the QR and closes the dialog by itself when a session update arrives with an empty QR", async () => {
    const { emit } = renderConnections();
    await userEvent.click(within(await row("A qrcode")).getByRole("button", { name: "QR CODE" }));
    const dialog = await screen.findByRole("dialog", { name: "Leia o QR Code de A qrcode" });
    const image = within(dialog).getByRole("img", { name: "QR Code da conexão" });
    expect(image).toHaveAttribute("data-qrcode", "balcao-sim:1:abc");

    // A new QR (e.g. it expired) replaces the image; an update of another connection changes nothing.
    emit("whatsappSession", { action: "update", session: { ...byStatus[0], qrcode: "balcao-sim:1:def", updatedAt: "2025-01-02T00:00:00.000Z" } });
    await waitFor(() => expect(within(dialog).getByRole("img", { name: "QR Code da conexão" })).toHaveAttribute("data-qrcode", "balcao-sim:1:def"));
    emit("whatsappSession", { action: "update", session: { ...byStatus[2], qrcode: "", updatedAt: "2025-01-02T00:00:00.000Z" } });
    expect(screen.getByRole("dialog", { name: "Leia o QR Code de A qrcode" })).toBeInTheDocument();

    // Scanned: the session update carries an empty qrcode → the dialog closes, the row shows CONNECTED.
    emit("whatsappSession", {
      action: "update",
      session: { ...byStatus[0], status: "CONNECTED", qrcode: "", updatedAt: "2025-01-03T00:00:00.000Z" },
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(within(await row("A qrcode")).getByText("Conectado")).toBeInTheDocument();
  });

  it("shows the simulator's secret link to admins", async () => {
    renderConnections(admin, [byStatus[0]], {
      "GET /api/simulator/1/link": () => jsonResponse(200, { key: "k3y", url: "/simulator/1?key=k3y" }),
    });
    await userEvent.click(await screen.findByRole("button", { name: "Link secreto do simulador de A qrcode" }));
    const dialog = await screen.findByRole("dialog", { name: /Link secreto do simulador/ });
    expect(await within(dialog).findByRole("textbox", { name: "Link" })).toHaveValue(`${window.location.origin}/simulator/1?key=k3y`);
  });

  it("shows an empty state and a list failure", async () => {
    renderConnections(admin, []);
    expect(await screen.findByText("Nenhuma conexão cadastrada")).toBeInTheDocument();
  });
});
