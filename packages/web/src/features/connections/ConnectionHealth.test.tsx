import type { ConnectionHealthDTO } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch } from "../../test/utils";
import ConnectionsPage from "./ConnectionsPage";
import { ConnectionsMenuIcon } from "./ConnectionsMenuIcon";
import { makeConnection } from "./fixtures";
import { renderWithSocket } from "./testSocket";

const admin = makeUser({ id: 1, profile: "admin" });
const dropped = makeConnection({ id: 2, name: "Loja", status: "DISCONNECTED", channel: "baileys" });
const waiting = makeConnection({ id: 3, name: "Balcão", status: "qrcode", qrcode: "2@abc", channel: "baileys" });

const health: ConnectionHealthDTO = {
  connectionId: 2,
  status: "DISCONNECTED",
  retries: 0,
  reason: "loggedOut",
  since: "2026-11-24T10:00:00.000Z",
  needsScan: true,
  connectedMs: { last24h: 6 * 3600_000 + 30 * 60_000, last7d: 84 * 3600_000 },
  messages: { last24h: { in: 12, out: 7 }, last7d: { in: 80, out: 41 } },
  lastError: { at: "2026-11-24T10:00:00.000Z", reason: "loggedOut", detail: "Connection Failure" },
  timeline: [
    { at: "2026-11-24T10:05:00.000Z", kind: "alert", status: "DISCONNECTED", reason: "loggedOut", detail: null, retries: 0 },
    { at: "2026-11-24T10:00:00.000Z", kind: "status", status: "DISCONNECTED", reason: "loggedOut", detail: "Connection Failure", retries: 0 },
    { at: "2026-11-24T09:00:00.000Z", kind: "status", status: "TIMEOUT", reason: "unreachable", detail: "WebSocket Error (ENOTFOUND)", retries: 2 },
    { at: "2026-11-24T08:00:00.000Z", kind: "status", status: "CONNECTED", reason: null, detail: null, retries: 0 },
  ],
};

function renderPage(extra: Parameters<typeof mockFetch>[0] = {}) {
  const fetch = mockFetch({
    "GET /api/whatsapp/": () => jsonResponse(200, [dropped, waiting]),
    "GET /api/whatsapp/2/health": () => jsonResponse(200, health),
    ...extra,
  });
  return { ...fetch, ...renderWithSocket(<ConnectionsPage />, { session: fakeSession(admin), path: "/connections" }) };
}

describe("connection health view (issue 21)", () => {
  it("shows the status with its reason, time connected, messages in/out, last error and the timeline; 'scan again' asks for a new QR", async () => {
    const { calls } = renderPage({ "PUT /api/whatsappsession/2": () => jsonResponse(200, { ...dropped, status: "qrcode", qrcode: "2@new" }) });
    await userEvent.click(await screen.findByRole("button", { name: "Saúde de Loja" }));
    const dialog = await screen.findByRole("dialog", { name: "Saúde de Loja" });
    expect(await within(dialog).findByTestId("health-connected-24h")).toHaveTextContent("6 h 30 min (27%)");
    expect(within(dialog).getByTestId("health-connected-7d")).toHaveTextContent("84 h 0 min (50%)");
    expect(within(dialog).getByTestId("health-messages-24h")).toHaveTextContent("12 recebidas · 7 enviadas");
    expect(within(dialog).getByTestId("health-last-error")).toHaveTextContent("Desconectado no celular (Connection Failure)");
    const entries = within(dialog).getAllByTestId("health-entry");
    expect(entries.map((e) => [e.dataset.kind, e.dataset.status, e.dataset.reason])).toEqual([
      ["alert", "DISCONNECTED", "loggedOut"],
      ["status", "DISCONNECTED", "loggedOut"],
      ["status", "TIMEOUT", "unreachable"],
      ["status", "CONNECTED", ""],
    ]);
    expect(entries[0]).toHaveTextContent("Administradores alertados");
    expect(entries[2]).toHaveTextContent("WhatsApp inacessível (rede) · tentativa 2");
    expect(entries[2]).toHaveTextContent("WebSocket Error (ENOTFOUND)");

    const scan = within(dialog).getByTestId("health-scan-again");
    await userEvent.click(within(scan).getByRole("button", { name: "Ler de novo" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT" && c.url.endsWith("/api/whatsappsession/2"))).toBe(true));
  });

  it("the QR dialog offers a code on the phone: number with country code, the code shown large with its countdown, and a new code", async () => {
    let n = 0;
    const { calls } = renderPage({
      "POST /api/whatsappsession/3/pairing-code": () =>
        jsonResponse(200, { code: ++n === 1 ? "K7QW9XZ2" : "ABCD2345", expiresAt: new Date(Date.now() + 60_000).toISOString() }),
    });
    const row = (await screen.findByText("Balcão")).closest("tr")!;
    await userEvent.click(within(row).getByRole("button", { name: "QR CODE" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("tab", { name: "Código no celular" }));
    await userEvent.type(within(dialog).getByTestId("pairing-phone"), "12");
    await userEvent.click(within(dialog).getByRole("button", { name: "Gerar código" }));
    expect(await within(dialog).findByText("Informe o número com código do país (10 a 15 dígitos).")).toBeInTheDocument();
    expect(calls.filter((c) => c.url.includes("pairing-code"))).toHaveLength(0);

    await userEvent.clear(within(dialog).getByTestId("pairing-phone"));
    await userEvent.type(within(dialog).getByTestId("pairing-phone"), "+55 11 91234-5678");
    await userEvent.click(within(dialog).getByRole("button", { name: "Gerar código" }));
    expect(await within(dialog).findByTestId("pairing-code")).toHaveTextContent("K7QW-9XZ2");
    expect(calls.find((c) => c.url.includes("pairing-code"))!.body).toEqual({ phoneNumber: "5511912345678" });
    expect(within(dialog).getByTestId("pairing-countdown")).toHaveTextContent(/Expira em (59|60) s/);

    await userEvent.click(within(dialog).getByRole("button", { name: "Novo código" }));
    expect(await within(dialog).findByText("ABCD-2345")).toBeInTheDocument();
  });

  it("raises a toast for the admins' whatsappHealthAlert", async () => {
    mockFetch({ "GET /api/whatsapp/": () => jsonResponse(200, [dropped]) });
    const { emit } = renderWithSocket(<ConnectionsMenuIcon />, { session: fakeSession(admin), path: "/" });
    emit("whatsappHealthAlert", {
      connectionId: 2,
      name: "Loja",
      status: "TIMEOUT",
      reason: "unreachable",
      since: "2026-11-24T10:00:00.000Z",
      minutes: 5,
      needsScan: false,
    });
    expect(
      await screen.findByText("A conexão Loja está fora do ar há mais de 5 min (WhatsApp inacessível (rede)). Ela continua tentando reconectar."),
    ).toBeInTheDocument();
  });

  it("/connections?health=<id> (the alert bell's link) opens that connection's health dialog", async () => {
    mockFetch({
      "GET /api/whatsapp/": () => jsonResponse(200, [dropped, waiting]),
      "GET /api/whatsapp/2/health": () => jsonResponse(200, health),
    });
    renderWithSocket(<ConnectionsPage />, { session: fakeSession(admin), path: "/connections?health=2", routePath: "/connections" });
    const dialog = await screen.findByRole("dialog", { name: "Saúde de Loja" });
    expect(await within(dialog).findByTestId("health-connected-24h")).toHaveTextContent("6 h 30 min (27%)");
  });
});
