import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { safeHref, WhatsAppText } from "./whatsappFormat";

const html = (text: string) => render(<WhatsAppText text={text} />).container;

describe("WhatsApp formatting", () => {
  it("renders *bold*, _italic_, ~strike~ and nested markers as elements", () => {
    const el = html("Olá *mundo* e _bela_ ~velha~ *_ambos_*");
    expect(el.querySelector("strong")?.textContent).toBe("mundo");
    expect(el.querySelector("em")?.textContent).toBe("bela");
    expect(el.querySelector("s")?.textContent).toBe("velha");
    expect(el.querySelector("strong em")?.textContent).toBe("ambos");
    expect(el.textContent).toBe("Olá mundo e bela velha ambos");
  });

  it("leaves markers that are not at word boundaries or cross lines alone", () => {
    const el = html("2*3*4 e *a\nb* e snake_case_name");
    expect(el.querySelector("strong")).toBeNull();
    expect(el.querySelector("em")).toBeNull();
    expect(el.textContent).toBe("2*3*4 e *a\nb* e snake_case_name");
  });

  it("links http(s) URLs safely, without trailing punctuation", () => {
    const el = html("Veja https://exemplo.com/a?b=1. e *http://x.test*");
    const links = el.querySelectorAll("a");
    expect(links).toHaveLength(2);
    expect(links[0].getAttribute("href")).toBe("https://exemplo.com/a?b=1");
    expect(links[0].getAttribute("rel")).toBe("noopener noreferrer");
    expect(links[0].getAttribute("target")).toBe("_blank");
    expect(el.textContent).toContain("https://exemplo.com/a?b=1.");
  });

  it("never injects HTML: tags and javascript: payloads stay text", () => {
    const el = html('<img src=x onerror="alert(1)"> <script>alert(2)</script> javascript:alert(3) [x](javascript:alert(4))');
    expect(el.querySelector("img")).toBeNull();
    expect(el.querySelector("script")).toBeNull();
    expect(el.querySelector("a")).toBeNull();
    expect(el.textContent).toContain('<img src=x onerror="alert(1)">');
  });

  it("accepts only http, https, mailto and tel hrefs", () => {
    expect(safeHref("https://a.test")).toBe("https://a.test/");
    expect(safeHref("mailto:a@b.test")).toBe("mailto:a@b.test");
    expect(safeHref("tel:+5511999990000")).toBe("tel:+5511999990000");
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("data:text/html,<b>x</b>")).toBeNull();
    expect(safeHref("not a url")).toBeNull();
  });
});
