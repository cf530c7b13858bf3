import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch } from "../../test/utils";
import { renderWithSocket } from "../connections/testSocket";
import type { OnboardingState } from "./api";
import ConnectionsPage from "../connections/ConnectionsPage";
import { OnboardingChecklist, SIMULATOR_LINK } from "./OnboardingChecklist";

const admin = makeUser({ id: 1, profile: "admin" });
const state = (done: string[], dismissed = false): OnboardingState => {
  const steps = (["connection", "queue", "attendant", "reply"] as const).map((key) => ({ key, done: done.includes(key) }));
  return { steps, completed: steps.every((s) => s.done), dismissed };
};

describe("OnboardingChecklist", () => {
  it("ticks the steps the server reports done, links each open one to its page, and follows a connection event", async () => {
    let current = state(["queue"]);
    mockFetch({ "GET /api/onboarding": () => jsonResponse(200, current) });
    const { emit } = renderWithSocket(<OnboardingChecklist />, { session: fakeSession(admin) });
    const card = await screen.findByRole("region", { name: "Primeiros passos" });
    expect(within(card).getByTestId("onboarding-progress")).toHaveTextContent("1 de 4 concluídos");
    expect(within(card).getByTestId("onboarding-step-queue")).toHaveAttribute("data-done", "true");
    // A done step offers no action; the open ones link to where they are done.
    expect(within(within(card).getByTestId("onboarding-step-queue")).queryByRole("link")).toBeNull();
    const connection = within(card).getByTestId("onboarding-step-connection");
    expect(connection).toHaveAttribute("data-done", "false");
    expect(within(connection).getByRole("link", { name: "Conectar WhatsApp" })).toHaveAttribute("href", "/connections");
    expect(within(connection).getByRole("link", { name: "Experimentar sem celular" })).toHaveAttribute("href", "/connections?new=1");
    expect(within(card).getByRole("link", { name: "Convidar atendente" })).toHaveAttribute("href", "/users");
    expect(within(card).getByRole("link", { name: "Ir para os atendimentos" })).toHaveAttribute("href", "/tickets");

    // The simulator is scanned: the session event refetches and the step is ticked.
    current = state(["queue", "connection"]);
    emit("whatsappSession", { action: "update", session: { id: 1, status: "CONNECTED" } });
    await waitFor(() => expect(within(card).getByTestId("onboarding-step-connection")).toHaveAttribute("data-done", "true"));
    expect(within(card).getByTestId("onboarding-progress")).toHaveTextContent("2 de 4 concluídos");
  });

  it("is dismissed through the server and disappears", async () => {
    const { calls } = mockFetch({
      "GET /api/onboarding": () => jsonResponse(200, state([])),
      "PUT /api/onboarding": () => jsonResponse(200, state([], true)),
    });
    renderWithSocket(<OnboardingChecklist />, { session: fakeSession(admin) });
    await userEvent.click(await screen.findByRole("button", { name: "Ocultar primeiros passos" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "Primeiros passos" })).toBeNull());
    expect(calls.filter((c) => c.method === "PUT").map((c) => c.body)).toEqual([{ dismissed: true }]);
  });

  it("shows nothing once dismissed or complete, and never to attendants", async () => {
    for (const body of [state([], true), state(["connection", "queue", "attendant", "reply"])]) {
      const { calls } = mockFetch({ "GET /api/onboarding": () => jsonResponse(200, body) });
      const view = renderWithSocket(<OnboardingChecklist />, { session: fakeSession(admin) });
      await waitFor(() => expect(calls).toHaveLength(1));
      expect(screen.queryByTestId("onboarding")).toBeNull();
      view.unmount();
    }
    const { calls } = mockFetch({ "GET /api/onboarding": () => jsonResponse(200, state([])) });
    renderWithSocket(<OnboardingChecklist />, { session: fakeSession(makeUser({ id: 2, profile: "user" })) });
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toHaveLength(0);
    expect(screen.queryByTestId("onboarding")).toBeNull();
  });
});

describe("'Experimentar sem celular' (/connections?new=1)", () => {
  it("opens the add-connection dialog once, with the Simulator channel, and clears the query", async () => {
    mockFetch({ "GET /api/whatsapp/": () => jsonResponse(200, []) });
    const view = renderWithSocket(<ConnectionsPage />, { session: fakeSession(admin), path: `/connections?new=1`, routePath: "/connections" });
    const dialog = await screen.findByRole("dialog", { name: "Adicionar WhatsApp" });
    expect(within(dialog).getByRole("combobox", { name: "Canal" })).toHaveTextContent("Simulador");
    await waitFor(() => expect(view.router.location().search).toBe(""));
    expect(SIMULATOR_LINK).toBe("/connections?new=1");
  });
});
