import { describe, expect, it } from "vitest";
import { formatPriceDigits, maskPrice, priceFromNumber, priceToDot } from "./priceMask";

describe("plan price mask (spec §5)", () => {
  it("shifts digits in from the right with R$, dot thousands and comma decimals", () => {
    expect(maskPrice("1")).toBe("R$ 0,01");
    expect(maskPrice("12")).toBe("R$ 0,12");
    expect(maskPrice("123")).toBe("R$ 1,23");
    expect(maskPrice("123456")).toBe("R$ 1.234,56");
    expect(maskPrice("R$ 1.234,567")).toBe("R$ 12.345,67");
    expect(maskPrice("")).toBe("");
    expect(formatPriceDigits("100")).toBe("R$ 1,00");
  });

  it("allows at most 7 integer digits and never a negative", () => {
    expect(maskPrice("99999999999")).toBe("R$ 9.999.999,99");
    expect(maskPrice("-500")).toBe("R$ 5,00");
    expect(maskPrice("abc")).toBe("");
    expect(maskPrice("000")).toBe("");
  });

  it("sends the value with a dot and reads a stored number back", () => {
    expect(priceToDot("R$ 1.234,56")).toBe("1234.56");
    expect(priceToDot("R$ 0,05")).toBe("0.05");
    expect(priceToDot("R$ 9.999.999,99")).toBe("9999999.99");
    expect(priceToDot("")).toBe("");
    expect(priceFromNumber(149.9)).toBe("R$ 149,90");
    expect(priceFromNumber(0)).toBe("R$ 0,00");
    expect(priceFromNumber(1234567.89)).toBe("R$ 1.234.567,89");
    expect(priceToDot(priceFromNumber(0))).toBe("0.00");
  });
});
