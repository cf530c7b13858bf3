import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AckIcon, ackState } from "./AckIcon";

describe("ack icons", () => {
  it("maps ack and status to clock, check, double check, blue double check and failure", () => {
    expect(ackState({ ack: 0, status: "pending" })).toBe("pending");
    expect(ackState({ ack: 1, status: "sent" })).toBe("sent");
    expect(ackState({ ack: 2, status: "sent" })).toBe("delivered");
    expect(ackState({ ack: 3, status: "sent" })).toBe("read");
    expect(ackState({ ack: 4, status: "sent" })).toBe("read");
    expect(ackState({ ack: 5, status: "sent" })).toBe("read");
    expect(ackState({ ack: 0, status: "failed" })).toBe("failed");
  });

  it("renders a titled icon per state", () => {
    const { container, rerender } = render(<AckIcon message={{ ack: 0, status: "pending" }} />);
    expect(container.querySelector("[data-ack=pending] title")?.textContent).toBe("Enviando");
    rerender(<AckIcon message={{ ack: 1, status: "sent" }} />);
    expect(container.querySelector("[data-ack=sent] title")?.textContent).toBe("Enviada");
    rerender(<AckIcon message={{ ack: 2, status: "sent" }} />);
    expect(container.querySelector("[data-ack=delivered] title")?.textContent).toBe("Entregue");
    rerender(<AckIcon message={{ ack: 3, status: "sent" }} />);
    expect(container.querySelector("[data-ack=read] title")?.textContent).toBe("Lida");
  });
});
