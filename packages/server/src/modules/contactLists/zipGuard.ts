/**
 * Zip bombs (issue 11): an .xlsx is a ZIP, and a few megabytes can inflate to gigabytes that the spreadsheet
 * reader would parse and hold. Before reading, every entry is inflated once as a stream (nothing kept) and
 * counted; past XLSX_INFLATED_MAX_BYTES in all, more than XLSX_ENTRIES_MAX entries, or a layout this check
 * cannot follow (ZIP64, encryption, a compression other than stored/deflate), the file is refused. The real
 * inflated bytes are counted, not the sizes the archive declares (which a bomb can fake).
 */
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createInflateRaw } from "node:zlib";
import { AppError } from "../../http/errors";

export const XLSX_INFLATED_MAX_BYTES = 64 * 1024 * 1024;
export const XLSX_ENTRIES_MAX = 1000;

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

class Unreadable extends Error {}

const tooLarge = () => new AppError("ERR_PAYLOAD_TOO_LARGE", 413, { limit: XLSX_INFLATED_MAX_BYTES });

function endOfCentralDirectory(data: Buffer): number {
  // The record is at least 22 bytes from the end, followed by a comment of at most 65535 bytes.
  for (let at = data.length - 22; at >= Math.max(0, data.length - 22 - 65_535); at--) if (data.readUInt32LE(at) === EOCD) return at;
  throw new Unreadable("no end of central directory");
}

/** One entry of an archive held in memory: its name and its bytes as stored (compressed or not). */
export interface ZipEntry {
  name: string;
  /** 0 = stored, 8 = deflate (the only methods accepted). */
  method: 0 | 8;
  body: Buffer;
}

/**
 * The entries of an archive in their order, read from its central directory (the sizes a streaming reader
 * would have to guess from data descriptors). Throws Unreadable for a layout this file cannot follow.
 */
function entriesOf(data: Buffer): ZipEntry[] {
  const eocd = endOfCentralDirectory(data);
  const count = data.readUInt16LE(eocd + 10);
  let at = data.readUInt32LE(eocd + 16);
  if (count === 0xffff || at === 0xffffffff) throw new Unreadable("zip64");
  if (count > XLSX_ENTRIES_MAX) throw tooLarge();
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== CENTRAL) throw new Unreadable("bad central directory");
    const flags = data.readUInt16LE(at + 8);
    const method = data.readUInt16LE(at + 10);
    const compressed = data.readUInt32LE(at + 20);
    const nameLength = data.readUInt16LE(at + 28);
    const local = data.readUInt32LE(at + 42);
    const name = data.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const next = at + 46 + nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
    if (flags & 0x1) throw new Unreadable("encrypted");
    if (compressed === 0xffffffff || local === 0xffffffff) throw new Unreadable("zip64");
    if (local + 30 > data.length || data.readUInt32LE(local) !== LOCAL) throw new Unreadable("bad local header");
    if (method !== 0 && method !== 8) throw new Unreadable(`compression method ${method}`);
    const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
    entries.push({ name, method, body: data.subarray(start, Math.min(data.length, start + compressed)) });
    at = next;
  }
  return entries;
}

/**
 * The entries of an .xlsx that passed assertZipWithinLimits; 400 ERR_CONTACT_LIST_IMPORT_UNREADABLE for what
 * this file cannot follow.
 */
export function zipEntries(data: Buffer): ZipEntry[] {
  try {
    return entriesOf(data);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError("ERR_CONTACT_LIST_IMPORT_UNREADABLE", 400);
  }
}

/** Throws 413 ERR_PAYLOAD_TOO_LARGE for a bomb, 400 ERR_CONTACT_LIST_IMPORT_UNREADABLE for what it cannot follow. */
export async function assertZipWithinLimits(data: Buffer, maxBytes = XLSX_INFLATED_MAX_BYTES): Promise<void> {
  try {
    let total = 0;
    for (const entry of entriesOf(data)) {
      if (entry.method === 0) total += entry.body.length;
      else total = await inflatedSize(entry.body, total, maxBytes);
      if (total > maxBytes) throw tooLarge();
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError("ERR_CONTACT_LIST_IMPORT_UNREADABLE", 400);
  }
}

/** `counted` plus the entry's inflated size; stops (413) as soon as the sum passes `maxBytes`. */
async function inflatedSize(body: Buffer, counted: number, maxBytes: number): Promise<number> {
  let total = counted;
  const meter = new Writable({
    write(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      done(total > maxBytes ? tooLarge() : null);
    },
  });
  await pipeline(Readable.from([body]), createInflateRaw(), meter);
  return total;
}
