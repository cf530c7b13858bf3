import { formatPhoneNumber } from "./phone";

export interface ContactCsvRow {
  name: string;
  number: string | null;
  email: string | null;
}

const BOM = "\uFEFF";
const SEPARATOR = ";";
const EOL = "\r\n";

/** Quotes a cell when needed and defuses spreadsheet formulas (=, +, -, @ at the start: CSV injection). */
function cell(value: string): string {
  let v = value;
  if (/^[=+\-@\t\r]/.test(v)) v = `'${v}`;
  return /[";\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * The contacts page's CSV export (spec §2): columns name, number, email; ';' separator, CRLF lines and a
 * UTF-8 BOM so a pt-BR spreadsheet (Excel, LibreOffice) splits the columns and shows accents. Numbers are
 * written in international form without '+' ("55 11 98765 4321") so the spreadsheet keeps them as text
 * instead of turning 13 digits into 5,51E+12.
 */
export function contactsToCsv(rows: readonly ContactCsvRow[]): string {
  const lines = [["name", "number", "email"].join(SEPARATOR)];
  for (const r of rows) {
    const number = r.number ? formatPhoneNumber(r.number).replace(/^\+/, "") : "";
    lines.push([cell(r.name ?? ""), cell(number), cell(r.email ?? "")].join(SEPARATOR));
  }
  return BOM + lines.join(EOL) + EOL;
}

/** Any table in the same dialect (BOM, ';', CRLF, quoting, formula defusing); the first row is the header. */
export function tableToCsv(rows: readonly (readonly string[])[]): string {
  return BOM + rows.map((r) => r.map(cell).join(SEPARATOR)).join(EOL) + EOL;
}
