import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import HelpsPage from "./HelpsPage";

const help = (id: number, title: string, video: string) => ({ id, title, description: `Sobre ${title}`, video, createdAt: "", updatedAt: "" });

describe("HelpsPage", () => {
  it("is an accordion of videos whose player is created only when an item is opened", async () => {
    mockFetch({ "GET /api/helps/list": () => jsonResponse(200, [help(1, "Conectar o WhatsApp", "abcDEF12345"), help(2, "Filas", "zyx987654321")]) });
    const { container } = renderPage(<HelpsPage />, { session: fakeSession(makeUser({ profile: "user" })) });
    expect(await screen.findByText("Conectar o WhatsApp")).toBeInTheDocument();
    expect(container.querySelectorAll("iframe")).toHaveLength(0);
    await userEvent.click(screen.getByRole("button", { name: "Conectar o WhatsApp" }));
    const frame = await screen.findByTitle("Conectar o WhatsApp");
    expect(frame.tagName).toBe("IFRAME");
    expect(frame).toHaveAttribute("src", "https://www.youtube-nocookie.com/embed/abcDEF12345");
    expect(screen.getByText("Sobre Conectar o WhatsApp")).toBeInTheDocument();
    expect(container.querySelectorAll("iframe")).toHaveLength(1);
    // Opening another closes the first one's player.
    await userEvent.click(screen.getByRole("button", { name: "Filas" }));
    const second = await screen.findByTitle("Filas");
    expect(second).toHaveAttribute("src", "https://www.youtube-nocookie.com/embed/zyx987654321");
    await within(document.body).findByTitle("Filas");
    await expect.poll(() => container.querySelectorAll("iframe").length).toBe(1);
  });

  it("says when there is no help yet", async () => {
    mockFetch({ "GET /api/helps/list": () => jsonResponse(200, []) });
    renderPage(<HelpsPage />, { session: fakeSession(makeUser()) });
    expect(await screen.findByText("Nenhum vídeo de ajuda cadastrado")).toBeInTheDocument();
  });
});
