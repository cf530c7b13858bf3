import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { ContactDrawer } from "../tickets/ContactDrawer";
import { makeTicket } from "../tickets/fixtures";
import { lastMessagePreview, TicketListItem } from "../tickets/TicketListItem";
import { WhatsAppText } from "./whatsappFormat";
import { stripWhatsApp } from "./whatsappMarkers";

describe("WhatsApp markup in bubbles and previews (issue 16)", () => {
  it("renders the markers as elements in a bubble and keeps <script> as text", () => {
    const { container } = render(<WhatsAppText text={"*Demo Admin:* _oi_ ~não~ ```código``` <script>alert(1)</script> https://balcao.test"} />);
    expect(container.querySelector("strong")?.textContent).toBe("Demo Admin:");
    expect(container.querySelector("em")?.textContent).toBe("oi");
    expect(container.querySelector("s")?.textContent).toBe("não");
    expect(container.querySelector("code")?.textContent).toBe("código");
    expect(container.querySelector("a")?.getAttribute("href")).toBe("https://balcao.test/");
    expect(container.querySelector("script")).toBeNull();
    expect(container.textContent).toContain("<script>alert(1)</script>");
  });

  it("strips the markers for one-line previews, nested ones included, and leaves other asterisks alone", () => {
    expect(stripWhatsApp("*Demo Admin:* Olá, _tudo bem_?")).toBe("Demo Admin: Olá, tudo bem?");
    expect(stripWhatsApp("*_ambos_* e ~riscado~ e ```mono```")).toBe("ambos e riscado e mono");
    expect(stripWhatsApp("2*3*4 e snake_case_name")).toBe("2*3*4 e snake_case_name");
    expect(stripWhatsApp("<b>*x*</b>")).toBe("<b>x</b>");
    expect(lastMessagePreview("*Ana:* oi", "Localização")).toBe("Ana: oi");
  });

  it("shows the ticket row preview without markup", async () => {
    mockFetch({});
    renderPage(
      <ul>
        <TicketListItem
          ticket={makeTicket({ lastMessage: "*Demo Admin:* _pronto_" })}
          selected={false}
          busy={false}
          onOpen={() => {}}
          onTransition={() => {}}
          onSpy={() => {}}
        />
      </ul>,
      { session: fakeSession(makeUser()) },
    );
    expect(await screen.findByText("Demo Admin: pronto")).toBeInTheDocument();
    expect(screen.queryByText(/\*Demo Admin/)).not.toBeInTheDocument();
  });
});

describe("phone numbers in one international format (issue 16)", () => {
  it("shows the contact drawer's stored digits as +55 11 94846 4213", async () => {
    mockFetch({ "GET /api/contacts/101": () => jsonResponse(404, { error: "ERR_NO_CONTACT_FOUND" }) });
    const ticket = makeTicket({ contact: { id: 101, name: "Cliente", number: "5511948464213", email: "", profilePicUrl: "", isGroup: false } });
    renderPage(<ContactDrawer open onClose={() => {}} ticket={ticket} variant="persistent" />, { session: fakeSession(makeUser()) });
    expect(await screen.findByText("+55 11 94846 4213")).toBeInTheDocument();
    expect(screen.queryByText("5511948464213")).not.toBeInTheDocument();
  });
});
