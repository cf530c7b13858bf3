import { describe, expect, it } from "vitest";
import { createTranslator } from "./translator";

describe("createTranslator (the login shell's texts)", () => {
  const messages = {
    auth: { ending: "vence em {{count}} dia(s)", expired: "venceu em {{ date }}" },
    items_one: "{{count}} item",
    items_other: "{{count}} itens",
  };

  it("reads dotted keys and interpolates values", () => {
    const { t } = createTranslator(messages, "pt");
    expect(t("auth.ending", { count: 2 })).toBe("vence em 2 dia(s)");
    expect(t("auth.expired", { date: "01/02/2025" })).toBe("venceu em 01/02/2025");
  });

  it("picks the plural form of a count", () => {
    const { t } = createTranslator(messages, "en");
    expect(t("items", { count: 1 })).toBe("1 item");
    expect(t("items", { count: 3 })).toBe("3 itens");
  });

  it("answers the key itself when a text is missing, and lookup answers undefined", () => {
    const { t, lookup } = createTranslator(messages, "pt");
    expect(t("auth.nothing")).toBe("auth.nothing");
    expect(t("auth")).toBe("auth");
    expect(lookup("auth.nothing")).toBeUndefined();
    expect(lookup("auth.expired", {})).toBe("venceu em {{ date }}");
  });
});
