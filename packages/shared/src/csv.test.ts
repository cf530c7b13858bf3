import { describe, expect, it } from "vitest";
import { COLOR_PALETTE, isPaletteColor } from "./colors";
import { contactsToCsv, tableToCsv } from "./csv";

describe("contactsToCsv", () => {
  it("writes a BOM, a name;number;email header and CRLF lines", () => {
    const csv = contactsToCsv([
      { name: "João Conceição", number: "5511987654321", email: "joao@loja.com.br" },
      { name: "Maria", number: null, email: "" },
    ]);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv.slice(1).split("\r\n")).toEqual(["name;number;email", "João Conceição;55 11 98765 4321;joao@loja.com.br", "Maria;;", ""]);
  });

  it("quotes separators, quotes and line breaks", () => {
    const csv = contactsToCsv([{ name: 'Loja "Boa"; Matriz\nSP', number: "120363025246125486", email: "" }]);
    expect(csv.slice(1).split("\r\n")[1]).toBe('"Loja ""Boa""; Matriz\nSP";120363025246125486;');
  });

  it("defuses spreadsheet formulas (CSV injection)", () => {
    const csv = contactsToCsv([{ name: '=HYPERLINK("http://x")', number: "", email: "+1@x.com" }]);
    expect(csv.slice(1).split("\r\n")[1]).toBe(`"'=HYPERLINK(""http://x"")";;'+1@x.com`);
  });

  it("an empty list is just the header", () => {
    expect(contactsToCsv([])).toBe("\uFEFFname;number;email\r\n");
  });
});

describe("tableToCsv", () => {
  it("writes any table in the contacts export's dialect", () => {
    expect(
      tableToCsv([
        ["Fila", "Média"],
        ["Vendas; SP", "12,5"],
        ["=1+1", ""],
      ]),
    ).toBe('\uFEFFFila;Média\r\n"Vendas; SP";12,5\r\n\'=1+1;\r\n');
  });
});

describe("colour palette", () => {
  it("has about 50 distinct hex colours", () => {
    expect(COLOR_PALETTE.length).toBeGreaterThanOrEqual(48);
    expect(COLOR_PALETTE.length).toBeLessThanOrEqual(60);
    expect(new Set(COLOR_PALETTE.map((c) => c.toLowerCase())).size).toBe(COLOR_PALETTE.length);
    for (const c of COLOR_PALETTE) expect(c).toMatch(/^#[0-9A-F]{6}$/);
    expect(isPaletteColor("#2e7d32")).toBe(true);
    expect(isPaletteColor("#123456")).toBe(false);
  });
});
