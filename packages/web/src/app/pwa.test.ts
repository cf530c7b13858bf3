import { afterEach, describe, expect, it, vi } from "vitest";
import { showBrowserNotification } from "../features/tickets/notifications";

function setUp(hidden: boolean) {
  const showNotification = vi.fn(async () => undefined);
  const PageNotification = vi.fn();
  vi.stubGlobal("Notification", Object.assign(PageNotification, { permission: "granted" }));
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(navigator, "serviceWorker", {
    configurable: true,
    value: { controller: {}, ready: Promise.resolve({ showNotification }) },
  });
  return { showNotification, PageNotification };
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "serviceWorker");
  Reflect.deleteProperty(document, "hidden");
});

describe("notifications through the service worker (issue 16)", () => {
  it("the worker shows the notification, with the ticket's address, while the tab is hidden", async () => {
    const { showNotification, PageNotification } = setUp(true);
    showBrowserNotification("Maria", "Oi", "ticket-1", () => {}, "/tickets/abc");
    await vi.waitFor(() => expect(showNotification).toHaveBeenCalledTimes(1));
    expect(showNotification).toHaveBeenCalledWith("Maria", expect.objectContaining({ body: "Oi", tag: "ticket-1", data: { url: "/tickets/abc" } }));
    expect(PageNotification).not.toHaveBeenCalled();
  });

  it("a visible tab keeps the page's own notification", () => {
    const { showNotification, PageNotification } = setUp(false);
    showBrowserNotification("Maria", "Oi", "ticket-1", () => {}, "/tickets/abc");
    expect(PageNotification).toHaveBeenCalledTimes(1);
    expect(showNotification).not.toHaveBeenCalled();
  });
});
