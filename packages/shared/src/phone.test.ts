import { describe, expect, it } from "vitest";
import { brazilNinthDigitVariants, formatPhoneNumber, normalizePhoneNumber } from "./phone";
import { contactCreateBody, contactUpdateBody } from "./schemas/contacts";

describe("normalizePhoneNumber", () => {
  it.each([
    ["+55 11 98765-4321", "5511987654321"],
    ["+55 (11) 9 8765-4321", "5511987654321"],
    ["5511987654321", "5511987654321"],
    ["55 11 98765 4321", "5511987654321"],
    ["(11) 98765-4321", "5511987654321"],
    ["11987654321", "5511987654321"],
    ["011 98765-4321", "5511987654321"],
    ["0055 11 98765-4321", "5511987654321"],
  ])("Brazilian mobile with the 9th digit: %s → %s", (typed, digits) => {
    expect(normalizePhoneNumber(typed)).toBe(digits);
  });

  it.each([
    ["553187654321", "553187654321"],
    ["(31) 8765-4321", "553187654321"],
    ["+55 31 8765-4321", "553187654321"],
  ])("Brazilian mobile in the old 8-digit form WhatsApp still uses: %s → %s", (typed, digits) => {
    expect(normalizePhoneNumber(typed)).toBe(digits);
  });

  it.each([
    ["(11) 3333-4444", "551133334444"],
    ["+55 21 2345-6789", "552123456789"],
    ["4832223344", "554832223344"],
  ])("Brazilian landline: %s → %s", (typed, digits) => {
    expect(normalizePhoneNumber(typed)).toBe(digits);
  });

  it.each([
    ["+1 650 253 0000", "16502530000"],
    ["+351 912 345 678", "351912345678"],
    ["351912345678", "351912345678"],
    ["+44 20 7946 0958", "442079460958"],
    ["+54 9 11 2345-6789", "5491123456789"],
  ])("other countries: %s → %s", (typed, digits) => {
    expect(normalizePhoneNumber(typed)).toBe(digits);
  });

  it.each([
    "",
    "   ",
    "abc",
    "abcdefghij",
    "1234567",
    "12345678",
    "912345678",
    "(11) 1234-5678",
    "+55 11 0876-5432",
    "0000000000000",
    "+99 999 999 999",
    "11 98765-4321 ramal 2",
    "5511987654321=1+1",
    "1".repeat(60),
  ])("garbage is null: %j", (typed) => {
    expect(normalizePhoneNumber(typed)).toBeNull();
  });
});

describe("brazilNinthDigitVariants", () => {
  it("gives both forms of a Brazilian mobile, the given one first", () => {
    expect(brazilNinthDigitVariants("5511987654321")).toEqual(["5511987654321", "551187654321"]);
    expect(brazilNinthDigitVariants("551187654321")).toEqual(["551187654321", "5511987654321"]);
    expect(brazilNinthDigitVariants("558196543210")).toEqual(["558196543210", "5581996543210"]);
  });

  it("leaves landlines, other countries and odd input alone", () => {
    expect(brazilNinthDigitVariants("551133334444")).toEqual(["551133334444"]);
    expect(brazilNinthDigitVariants("5511912345678")).toEqual(["5511912345678"]); // 9 + 1…: no old 8-digit form
    expect(brazilNinthDigitVariants("16502530000")).toEqual(["16502530000"]);
    expect(brazilNinthDigitVariants("351912345678")).toEqual(["351912345678"]);
    expect(brazilNinthDigitVariants("120363025246125486")).toEqual(["120363025246125486"]);
    expect(brazilNinthDigitVariants("")).toEqual([""]);
  });
});

describe("formatPhoneNumber", () => {
  it("formats E.164 digits internationally and leaves anything else as is", () => {
    expect(formatPhoneNumber("5511987654321")).toBe("+55 11 98765 4321");
    expect(formatPhoneNumber("120363025246125486")).toBe("120363025246125486");
  });
});

describe("contact schemas (spec §5)", () => {
  it("name 2–50, number 8–50 with masks allowed, email valid when given", () => {
    expect(contactCreateBody.parse({ name: " Ana ", number: "(11) 98765-4321", email: "" })).toEqual({
      name: "Ana",
      number: "(11) 98765-4321",
      email: "",
      extraInfo: [],
    });
    expect(contactCreateBody.parse({ name: "Ana", number: "5511987654321", email: null }).email).toBe("");
    expect(contactCreateBody.parse({ name: "Ana", number: "5511987654321", email: " A@B.CO " }).email).toBe("a@b.co");
    const bad = contactCreateBody.safeParse({ name: "A", number: "abc", email: "nope" });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(messages).toEqual(expect.arrayContaining(["name: Too Short!", "number: Too Short!", "email: Invalid email"]));
    expect(contactCreateBody.safeParse({ name: "Ana", number: "11 9876x4321" }).error!.issues[0]!.message).toBe("Invalid number");
    expect(contactUpdateBody.parse({ name: "Só o nome" })).toEqual({ name: "Só o nome" });
  });
});
