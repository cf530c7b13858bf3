import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { ConnectionDropButton } from "./ConnectionDropButton";

const admin = makeUser({ id: 1, profile: "admin" });

describe("ConnectionDropButton (issue 21)", () => {
  it("drops a connected simulator connection", async () => {
    const { calls } = mockFetch({ "POST /api/simulator/5/connection": () => jsonResponse(200, { status: "TIMEOUT" }) });
    renderPage(<ConnectionDropButton access={{ connectionId: 5, key: null }} status="CONNECTED" />, {
      session: fakeSession(admin),
      path: "/simulator/5",
    });
    await userEvent.click(screen.getByRole("button", { name: "Derrubar conexão" }));
    await waitFor(() => expect(calls.find((c) => c.method === "POST")?.body).toEqual({ state: "lost" }));
  });

  it("brings a lost one back, with the link's key when opened by link", async () => {
    const { calls } = mockFetch({ "POST /api/simulator/5/connection": () => jsonResponse(200, { status: "CONNECTED" }) });
    renderPage(<ConnectionDropButton access={{ connectionId: 5, key: "k3y" }} status="TIMEOUT" />, {
      session: fakeSession(null),
      path: "/simulator/5",
    });
    await userEvent.click(screen.getByRole("button", { name: "Reconectar" }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === "POST")).toMatchObject({ url: "/api/simulator/5/connection?key=k3y", body: { state: "back" } }),
    );
  });

  it("another session takes the number over (issue 21); back, it tells how many customer messages arrived late", async () => {
    const { calls } = mockFetch({
      "POST /api/simulator/5/connection": ({ body }) =>
        jsonResponse(200, (body as { state: string }).state === "back" ? { status: "CONNECTED", delivered: 3 } : { status: "DISCONNECTED" }),
    });
    const { unmount } = renderPage(<ConnectionDropButton access={{ connectionId: 5, key: null }} status="CONNECTED" />, {
      session: fakeSession(admin),
      path: "/simulator/5",
    });
    await userEvent.click(screen.getByRole("button", { name: "Outra sessão assumiu" }));
    await waitFor(() => expect(calls.find((c) => c.method === "POST")?.body).toEqual({ state: "replaced" }));
    unmount();
    renderPage(<ConnectionDropButton access={{ connectionId: 5, key: null }} status="TIMEOUT" />, {
      session: fakeSession(admin),
      path: "/simulator/5",
    });
    await userEvent.click(screen.getByRole("button", { name: "Reconectar" }));
    expect(await screen.findByText("Conexão de volta: 3 mensagens entregues.")).toBeInTheDocument();
  });

  it("shows nothing while pairing", () => {
    mockFetch({});
    renderPage(<ConnectionDropButton access={{ connectionId: 5, key: null }} status="qrcode" />, {
      session: fakeSession(admin),
      path: "/simulator/5",
    });
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });
});
