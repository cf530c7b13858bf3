/**
 * Reading a contact-list spreadsheet: .xlsx with exceljs's streaming reader (first worksheet), .csv with
 * papaparse (delimiter detected; UTF-8, else Windows-1252 as Excel saves it in Brazil). The columns are
 * found by their header names in pt/en/es (CONTACT_LIST_IMPORT_HEADERS) in one of the first rows; each data
 * row is then checked with spec §5's rules and reported with its row number when refused. Pure: no database.
 */
import { PassThrough, Readable } from "node:stream";
import { createInflateRaw } from "node:zlib";
import ExcelJS from "exceljs";
import Papa from "papaparse";
import {
  CONTACT_LIST_IMPORT_HEADERS,
  INVALID_NUMBER,
  LIMITS,
  MSG,
  normalizePhoneNumber,
  type ContactListImportColumn,
  type ContactListImportRowError,
} from "@balcao/shared";
import { z } from "zod";
import { foldText } from "../../db/search";
import { AppError } from "../../http/errors";
import { assertZipWithinLimits, zipEntries } from "./zipGuard";

export type SpreadsheetFormat = "xlsx" | "csv";

/** One non-empty row of the sheet: its row number (1 = the sheet's first row) and its cells as text. */
export interface SheetRow {
  line: number;
  cells: string[];
}

export interface ImportCandidate {
  line: number;
  name: string;
  number: string;
  email: string;
}

export type CheckedRow = { ok: true; item: ImportCandidate } | { ok: false; error: ContactListImportRowError };

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/**
 * The format from the file's bytes (not its name): a ZIP is an .xlsx; an old binary .xls (OLE2), which exceljs
 * cannot read, and any other binary file are refused with 415; text is CSV.
 */
export function sniffFormat(head: Buffer): SpreadsheetFormat {
  if (head.subarray(0, 4).equals(ZIP)) return "xlsx";
  if (head.subarray(0, 8).equals(OLE2)) throw new AppError("ERR_CONTACT_LIST_IMPORT_FILE_TYPE", 415);
  if (head.subarray(0, 4096).includes(0)) throw new AppError("ERR_CONTACT_LIST_IMPORT_FILE_TYPE", 415);
  return "csv";
}

/** A cell's value as the text a person sees (numbers without exponent, rich text joined, formula results). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === "boolean") return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") {
    const v = value as { richText?: { text?: string }[]; text?: unknown; result?: unknown; error?: unknown; hyperlink?: unknown };
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text ?? "").join("");
    if ("text" in v) return cellText(v.text);
    if ("result" in v) return cellText(v.result);
    if ("error" in v) return "";
    if (typeof v.hyperlink === "string") return v.hyperlink.replace(/^mailto:/i, "");
  }
  return String(value);
}

const isBlank = (cells: string[]) => cells.every((c) => c.trim() === "");

/** What the streaming reader does with each part of the archive (exceljs 4.4's WorkbookReader, not in its typings). */
interface WorkbookReaderParts {
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(entry: Readable, sheetNo: string): Generator<{ eventType: string; value: unknown }>;
}

const WORKSHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/**
 * The first worksheet's rows through exceljs's streaming reader, which is handed the archive's parts itself
 * (read from the central directory, inflated as they are read) in the order it needs them: relationships,
 * workbook, shared strings, then the worksheet. Its own walk of the archive (unzipper's streaming parser) ends
 * as soon as the parser reaches the end of the file, even while entries it found are still waiting for the
 * walk to take them: a file whose last entries are the workbook or the shared strings (exceljs writes
 * xl/workbook.xml last, the sample spreadsheet included) then failed about one read in 200, depending on
 * timing, or lost its texts.
 */
async function xlsxRows(data: Buffer): Promise<SheetRow[]> {
  // A zip bomb is refused before the reader inflates anything (zipGuard.ts).
  await assertZipWithinLimits(data);
  const entries = zipEntries(data);
  const opened: Readable[] = [];
  const open = (name: string): Readable | undefined => {
    const entry = entries.find((e) => e.name === name);
    if (!entry) return undefined;
    const stream = Readable.from([entry.body]).pipe(entry.method === 8 ? createInflateRaw() : new PassThrough());
    opened.push(stream);
    return stream;
  };
  const rows: SheetRow[] = [];
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
      worksheets: "emit",
      sharedStrings: "cache",
      hyperlinks: "ignore",
      styles: "ignore",
      entries: "ignore",
    }) as unknown as WorkbookReaderParts;
    const rels = open("xl/_rels/workbook.xml.rels");
    if (rels) await reader._parseRels(rels);
    const workbook = open("xl/workbook.xml");
    if (workbook) await reader._parseWorkbook(workbook);
    const sharedStrings = open("xl/sharedStrings.xml");
    if (sharedStrings) for await (const _ of reader._parseSharedStrings(sharedStrings));
    // The first worksheet only (in archive order, as exceljs's own walk found it).
    const first = entries.find((e) => WORKSHEET.test(e.name));
    if (first) {
      for (const { eventType, value } of reader._parseWorksheet(open(first.name)!, WORKSHEET.exec(first.name)![1]!)) {
        if (eventType !== "worksheet") continue;
        for await (const row of value as ExcelJS.stream.xlsx.WorksheetReader) {
          const values = Array.isArray(row.values) ? (row.values as unknown[]) : [];
          const cells: string[] = [];
          for (let i = 1; i < values.length; i++) cells.push(cellText(values[i]));
          if (!isBlank(cells)) rows.push({ line: row.number, cells });
        }
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError("ERR_CONTACT_LIST_IMPORT_UNREADABLE", 400);
  } finally {
    for (const stream of opened) stream.destroy();
  }
  return rows;
}

function decodeText(data: Buffer): string {
  const body = data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf ? data.subarray(3) : data;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return new TextDecoder("windows-1252").decode(body);
  }
}

const DELIMITERS = [";", ",", "\t", "|"] as const;

/**
 * The delimiter of the first non-empty line (the header): the candidate found most often outside quotes.
 * papaparse's own guess wants every row to have the same number of fields, which blank lines break.
 */
export function guessDelimiter(text: string): string {
  const header = text.split(/\r\n|\n|\r/).find((line) => line.trim() !== "") ?? "";
  const unquoted = header.replace(/"[^"]*"/g, "");
  let best: string = ",";
  let bestCount = 0;
  for (const delimiter of DELIMITERS) {
    const count = unquoted.split(delimiter).length - 1;
    if (count > bestCount) [best, bestCount] = [delimiter, count];
  }
  return best;
}

function csvRows(data: Buffer): SheetRow[] {
  const text = decodeText(data);
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: false, delimiter: guessDelimiter(text) });
  const rows: SheetRow[] = [];
  parsed.data.forEach((cells, index) => {
    const text = (cells ?? []).map((c) => (c ?? "").toString());
    if (!isBlank(text)) rows.push({ line: index + 1, cells: text });
  });
  return rows;
}

export async function readSheet(format: SpreadsheetFormat, data: Buffer): Promise<SheetRow[]> {
  return format === "xlsx" ? xlsxRows(data) : csvRows(data);
}

/** Folded header text: lower case, no accents, no surrounding punctuation, single spaces. */
export function foldHeader(text: string): string {
  return foldText(text)
    .replace(/[*:._]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const HEADER_INDEX = new Map<string, ContactListImportColumn>(
  (Object.entries(CONTACT_LIST_IMPORT_HEADERS) as [ContactListImportColumn, readonly string[]][]).flatMap(([column, names]) =>
    names.map((n) => [foldHeader(n), column] as const),
  ),
);

export type ColumnMap = Partial<Record<ContactListImportColumn, number>>;

/** The header row (one of the first 10 rows naming a number column) and where each column is. */
export function findColumns(rows: SheetRow[]): { headerIndex: number; columns: ColumnMap } {
  for (let r = 0; r < Math.min(rows.length, 10); r++) {
    const columns: ColumnMap = {};
    rows[r]!.cells.forEach((cell, i) => {
      const column = HEADER_INDEX.get(foldHeader(cell));
      if (column && columns[column] === undefined) columns[column] = i;
    });
    if (columns.number !== undefined) return { headerIndex: r, columns };
  }
  throw new AppError("ERR_CONTACT_LIST_IMPORT_NO_NUMBER_COLUMN", 400);
}

const emailCheck = z.email();
const clip = (s: string) => (s.length > 100 ? `${s.slice(0, 100)}…` : s);

/**
 * Spec §5 for one data row: a number (8 to 50 characters, a phone number once normalized to E.164 digits), a
 * name of 2 to 50 (a blank name takes the number: many lists are numbers only), a valid email or none.
 * The first problem of the row is reported.
 */
export function checkRow(row: SheetRow, columns: ColumnMap): CheckedRow {
  const at = (column: ContactListImportColumn) => (columns[column] === undefined ? "" : (row.cells[columns[column]!] ?? "").trim());
  const rawNumber = at("number");
  const fail = (field: ContactListImportColumn, reason: ContactListImportRowError["reason"], message: string, value: string): CheckedRow => ({
    ok: false,
    error: { line: row.line, field, reason, message, value: clip(value) },
  });
  if (!rawNumber) return fail("number", "number_missing", MSG.required, "");
  const number = rawNumber.length >= LIMITS.numberMin && rawNumber.length <= LIMITS.numberMax ? normalizePhoneNumber(rawNumber) : null;
  if (!number) return fail("number", "number_invalid", INVALID_NUMBER, rawNumber);
  const name = at("name").replace(/\s+/g, " ") || number;
  if (name.length < LIMITS.nameMin) return fail("name", "name_too_short", MSG.tooShort, name);
  if (name.length > LIMITS.nameMax) return fail("name", "name_too_long", MSG.tooLong, name);
  const email = at("email").toLowerCase();
  if (email && (email.length > 254 || !emailCheck.safeParse(email).success)) return fail("email", "email_invalid", MSG.invalidEmail, email);
  return { ok: true, item: { line: row.line, name, number, email } };
}
