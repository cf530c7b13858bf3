import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { InfiniteScrollArea, isNearEnd } from "./InfiniteScrollArea";

describe("InfiniteScrollArea", () => {
  it("is near the end within 100px", () => {
    expect(isNearEnd({ scrollHeight: 1000, scrollTop: 850, clientHeight: 100 })).toBe(true);
    expect(isNearEnd({ scrollHeight: 1000, scrollTop: 700, clientHeight: 100 })).toBe(false);
  });

  function scroll(el: HTMLElement, scrollTop: number) {
    Object.defineProperty(el, "scrollHeight", { configurable: true, value: 1000 });
    Object.defineProperty(el, "clientHeight", { configurable: true, value: 300 });
    el.scrollTop = scrollTop;
    fireEvent.scroll(el);
  }

  it("loads more only near the end, when there is more and nothing is loading", () => {
    const onLoadMore = vi.fn();
    const { rerender } = render(<InfiniteScrollArea data-testid="area" hasMore loading={false} onLoadMore={onLoadMore} />);
    const area = screen.getByTestId("area");
    scroll(area, 100);
    expect(onLoadMore).not.toHaveBeenCalled();
    scroll(area, 650);
    expect(onLoadMore).toHaveBeenCalledTimes(1);
    rerender(<InfiniteScrollArea data-testid="area" hasMore={false} loading={false} onLoadMore={onLoadMore} />);
    scroll(area, 700);
    expect(onLoadMore).toHaveBeenCalledTimes(1);
  });
});
