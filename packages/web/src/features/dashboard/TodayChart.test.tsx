import { render } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import TodayChart from "./TodayChart";

describe("TodayChart", () => {
  it("draws one bar per hour with the hour labels", async () => {
    // jsdom has no layout: give the chart a size through the observer it listens to.
    vi.stubGlobal(
      "ResizeObserver",
      class {
        constructor(private readonly cb: ResizeObserverCallback) {}
        observe(target: Element) {
          Object.defineProperty(target, "clientWidth", { configurable: true, value: 600 });
          Object.defineProperty(target, "clientHeight", { configurable: true, value: 220 });
          this.cb([{ target, contentRect: { width: 600, height: 220 } } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
        }
        unobserve() {}
        disconnect() {}
      },
    );
    const hours = Array.from({ length: 24 }, (_, h) => (h === 9 ? 4 : h === 14 ? 2 : 0));
    const { container, findAllByText } = render(<TodayChart hours={hours} />);
    expect(await findAllByText("09h")).not.toHaveLength(0);
    expect(container.querySelectorAll("svg").length).toBeGreaterThan(0);
  });
});
