/**
 * Zip bombs in contact-list spreadsheets (issue 11): refused by what the entries really inflate to, before
 * the reader parses them; a real workbook passes.
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors";
import { sampleXlsx } from "./sample";
import { readSheet } from "./spreadsheet";
import { assertZipWithinLimits, XLSX_INFLATED_MAX_BYTES, zipEntries } from "./zipGuard";

interface Entry {
  name: string;
  data: Buffer;
  /** The uncompressed size written in the headers (a bomb lies). */
  declared?: number;
  method?: number;
}

/** A minimal ZIP: local headers and data, the central directory, its end record. */
function zip(entries: Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const method = entry.method ?? 8;
    const body = method === 8 ? deflateRawSync(entry.data) : entry.data;
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.declared ?? entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(entry.declared ?? entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const codeOf = async (work: Promise<unknown>) => {
  try {
    await work;
    return "ok";
  } catch (err) {
    return err instanceof AppError ? `${err.status} ${err.code}` : String(err);
  }
};

describe("zip bombs in spreadsheets", () => {
  it("a real workbook passes and is read", async () => {
    const xlsx = await sampleXlsx();
    await expect(assertZipWithinLimits(xlsx)).resolves.toBeUndefined();
    expect((await readSheet("xlsx", xlsx)).length).toBeGreaterThan(1);
  });

  it("reads a workbook whatever the order of its parts (exceljs writes xl/workbook.xml last)", async () => {
    const parts = zipEntries(await sampleXlsx()).map((e) => ({ name: e.name, data: e.method === 8 ? inflateRawSync(e.body) : e.body }));
    expect(parts.at(-1)!.name).toBe("xl/workbook.xml");
    const expected = [
      { line: 1, cells: ["Nome", "Número", "Email"] },
      { line: 2, cells: ["Maria Souza", "5511987654321", "maria@exemplo.com.br"] },
      { line: 3, cells: ["João Lima", "(21) 98765-4321"] },
    ];
    for (const order of [parts, [...parts].reverse()]) expect(await readSheet("xlsx", zip(order))).toEqual(expected);
  });

  it("refuses what inflates past the limit, whatever the headers declare", async () => {
    const bomb = zip([{ name: "xl/worksheets/sheet1.xml", data: Buffer.alloc(XLSX_INFLATED_MAX_BYTES + 1024, 0x20), declared: 100 }]);
    expect(bomb.length).toBeLessThan(200_000);
    expect(await codeOf(readSheet("xlsx", bomb))).toBe("413 ERR_PAYLOAD_TOO_LARGE");
    // Many small entries add up too.
    const spread = zip(Array.from({ length: 5 }, (_, i) => ({ name: `x${i}.xml`, data: Buffer.alloc(300_000, 0x20) })));
    expect(await codeOf(assertZipWithinLimits(spread, 1_000_000))).toBe("413 ERR_PAYLOAD_TOO_LARGE");
    expect(await codeOf(assertZipWithinLimits(spread, 2_000_000))).toBe("ok");
    // Stored (uncompressed) entries count as they are.
    expect(await codeOf(assertZipWithinLimits(zip([{ name: "a", data: Buffer.alloc(2_000), method: 0 }]), 1_000))).toBe("413 ERR_PAYLOAD_TOO_LARGE");
  });

  it("refuses too many entries, and layouts it cannot follow as unreadable", async () => {
    const many = zip(Array.from({ length: 1001 }, (_, i) => ({ name: `e${i}`, data: Buffer.from("x") })));
    expect(await codeOf(assertZipWithinLimits(many))).toBe("413 ERR_PAYLOAD_TOO_LARGE");
    expect(await codeOf(assertZipWithinLimits(zip([{ name: "a", data: Buffer.from("x"), method: 14 }])))).toBe(
      "400 ERR_CONTACT_LIST_IMPORT_UNREADABLE",
    );
    const corrupt = zip([{ name: "a", data: Buffer.from("x".repeat(1000)) }]);
    corrupt.fill(0xff, 40, 60);
    expect(await codeOf(assertZipWithinLimits(corrupt))).toBe("400 ERR_CONTACT_LIST_IMPORT_UNREADABLE");
    expect(await codeOf(assertZipWithinLimits(Buffer.from("PK\x03\x04 not a zip")))).toBe("400 ERR_CONTACT_LIST_IMPORT_UNREADABLE");
  });
});
