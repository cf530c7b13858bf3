/**
 * The plan price mask of spec §5: prefix 'R$', dot thousands separator, comma decimal, 2 decimals, up to 7
 * integer digits, no negatives; sent to the server with a dot. Typing works on cents, as bank apps do: each
 * digit shifts in from the right ("1", "12", "123" → R$ 0,01, R$ 0,12, R$ 1,23), so a value is always valid.
 */

/** 7 integer digits + 2 decimals. */
export const PRICE_MAX_DIGITS = 9;

/** The digits of what was typed or pasted (anything else, a minus sign included, is dropped), leading zeros removed. */
export function priceDigits(input: string): string {
  const digits = input.replace(/\D/g, "").replace(/^0+/, "");
  return digits.slice(0, PRICE_MAX_DIGITS);
}

/** "123456" → "R$ 1.234,56"; "" → "". */
export function formatPriceDigits(digits: string): string {
  if (!digits) return "";
  const padded = digits.padStart(3, "0");
  const integer = padded.slice(0, -2).replace(/^0+(?=\d)/, "");
  const decimals = padded.slice(-2);
  return `R$ ${integer.replace(/\B(?=(\d{3})+(?!\d))/g, ".")},${decimals}`;
}

/** What the field shows after a keystroke: the masked form of the digits typed so far. */
export function maskPrice(input: string): string {
  return formatPriceDigits(priceDigits(input));
}

/** The masked text as the server wants it: "R$ 1.234,56" → "1234.56"; empty → "". */
export function priceToDot(masked: string): string {
  if (!/\d/.test(masked)) return "";
  const digits = priceDigits(masked);
  const padded = digits.padStart(3, "0");
  return `${padded.slice(0, -2).replace(/^0+(?=\d)/, "")}.${padded.slice(-2)}`;
}

/** A stored price (a number in reais) as the field shows it: 1234.5 → "R$ 1.234,50". */
export function priceFromNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value) || value < 0) return "";
  return formatPriceDigits(priceDigits(String(Math.round(value * 100))) || "0");
}
