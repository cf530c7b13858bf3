import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeSession, makeUser, renderPage } from "../../test/utils";
import { makeMessage } from "../tickets/fixtures";
import { Bubble } from "./MessagesList";

const renderBubble = (message: ReturnType<typeof makeMessage>) =>
  renderPage(<Bubble message={message} readOnly={false} onMenu={vi.fn()} onRetry={vi.fn()} />, { session: fakeSession(makeUser()) });

describe("why a reply failed (issue 21)", () => {
  it("a queued reply that waited too long shows the catalogue's text for ERR_SEND_QUEUE_EXPIRED, in the user's language, with retry", () => {
    renderBubble(makeMessage({ body: "Ainda serve?", fromMe: true, status: "failed", failureReason: "ERR_SEND_QUEUE_EXPIRED" }));
    expect(screen.getByText(/Não enviada — Não enviada: a conexão ficou fora do ar por tempo demais/)).toBeTruthy();
    expect(screen.queryByText(/ERR_SEND_QUEUE_EXPIRED/)).toBeNull();
    expect(screen.getByRole("button", { name: "Reenviar" })).toBeTruthy();
  });

  it("a provider's own reason is shown as the provider gave it", () => {
    renderBubble(makeMessage({ body: "Oi", fromMe: true, status: "failed", failureReason: "(#131026) Message undeliverable" }));
    expect(screen.getByText(/Não enviada — \(#131026\) Message undeliverable/)).toBeTruthy();
  });
});
