/**
 * A minimal Ogg Opus muxer and reader (RFC 3533 container, RFC 7845 Opus mapping), mono only.
 *
 * Why hand-written: the Ogg framing is ~100 lines, while every npm muxer either wraps ffmpeg or
 * ships a browser bundle. What WhatsApp needs from it (channels.md §2.5) is exactly a standard file:
 * an OpusHead page with the BOS flag, an OpusTags page, audio pages whose granule positions count
 * 48 kHz samples *including* the encoder's pre-skip, and an EOS flag on the last page.
 */
import { randomBytes } from "node:crypto";

/** CRC-32 of Ogg: polynomial 0x04C11DB7, not reflected, initial value 0, no final xor (RFC 3533 §6). */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

export function oggCrc32(data: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < data.length; i++) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ data[i]!) & 0xff]!) >>> 0;
  return crc;
}

const FLAG_CONTINUED = 0x01;
const FLAG_BOS = 0x02;
const FLAG_EOS = 0x04;
/** A page's segment table holds at most 255 lacing values. */
const MAX_SEGMENTS = 255;

/** Builds one page holding whole packets (we never split a packet across pages: Opus packets are tiny). */
function page(packets: Uint8Array[], granule: bigint, serial: number, sequence: number, flags: number): Buffer {
  const lacing: number[] = [];
  for (const p of packets) {
    // A packet of length L is laced as ⌊L/255⌋ values of 255 and one final value L mod 255 (maybe 0),
    // so a reader knows where it ends even when L is a multiple of 255.
    for (let left = p.length; ; left -= 255) {
      lacing.push(Math.min(left, 255));
      if (left < 255) break;
    }
  }
  const header = Buffer.alloc(27 + lacing.length);
  header.write("OggS", 0, "ascii");
  header[4] = 0; // stream structure version
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  // bytes 22..25: CRC, computed below over the whole page with this field zeroed
  header[26] = lacing.length;
  Buffer.from(lacing).copy(header, 27);
  const out = Buffer.concat([header, ...packets]);
  out.writeUInt32LE(oggCrc32(out), 22);
  return out;
}

function lacingCount(packet: Uint8Array): number {
  return Math.floor(packet.length / 255) + 1;
}

export interface OggOpusWriterOptions {
  /** Samples (at 48 kHz) the decoder must drop at the start: the encoder's lookahead (RFC 7845 §4.2). */
  preSkip: number;
  /** Sample rate of the original input, informational only (players always decode at 48 kHz). */
  inputSampleRate: number;
  vendor?: string;
  /** Audio packets per page. ~1 s per page keeps seeking granular and the page overhead small (~0.3 %). */
  packetsPerPage?: number;
}

/**
 * Collects 20 ms Opus packets (960 samples each at 48 kHz) and writes the Ogg stream.
 * `finish(totalSamples)` sets the last page's granule to preSkip + the real input length, which is
 * how Ogg Opus trims the zero padding of the final frame (RFC 7845 §4.5, "end trimming").
 */
export class OggOpusWriter {
  private readonly pages: Buffer[] = [];
  private readonly serial = randomBytes(4).readUInt32LE(0);
  private sequence = 0;
  private pending: Uint8Array[] = [];
  private pendingSegments = 0;
  private samplesWritten = 0;
  private readonly packetsPerPage: number;

  constructor(private readonly options: OggOpusWriterOptions) {
    this.packetsPerPage = options.packetsPerPage ?? 50;
    const head = Buffer.alloc(19);
    head.write("OpusHead", 0, "ascii");
    head[8] = 1; // version
    head[9] = 1; // channel count: mono, as WhatsApp voice notes are
    head.writeUInt16LE(options.preSkip, 10);
    head.writeUInt32LE(options.inputSampleRate, 12);
    head.writeInt16LE(0, 16); // output gain
    head[18] = 0; // channel mapping family 0: mono/stereo, no mapping table
    this.pages.push(page([head], 0n, this.serial, this.sequence++, FLAG_BOS));
    const vendor = Buffer.from(options.vendor ?? "balcao libopus (opusscript)", "utf8");
    const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
    tags.write("OpusTags", 0, "ascii");
    tags.writeUInt32LE(vendor.length, 8);
    vendor.copy(tags, 12);
    tags.writeUInt32LE(0, 12 + vendor.length); // no user comments
    // RFC 7845 §5: the comment header must start a page of its own, and audio starts on a fresh page.
    this.pages.push(page([tags], 0n, this.serial, this.sequence++, 0));
  }

  /** Adds one encoded packet that decodes to `samples` samples at 48 kHz. */
  addPacket(packet: Uint8Array, samples: number): void {
    if (this.pending.length >= this.packetsPerPage || this.pendingSegments + lacingCount(packet) > MAX_SEGMENTS) this.flushPage(0);
    this.pending.push(packet);
    this.pendingSegments += lacingCount(packet);
    this.samplesWritten += samples;
  }

  private flushPage(flags: number, granule = BigInt(this.samplesWritten)): void {
    if (this.pending.length === 0 && !(flags & FLAG_EOS)) return;
    this.pages.push(page(this.pending, granule, this.serial, this.sequence++, flags));
    this.pending = [];
    this.pendingSegments = 0;
  }

  /** `inputSamples`: the real audio length at 48 kHz, without pre-skip or padding. */
  finish(inputSamples: number): Buffer {
    const end = Math.min(this.samplesWritten, this.options.preSkip + inputSamples);
    // Granules of earlier pages never exceed `end`: the padded tail is entirely inside the last packet
    // or two, and they sit on this final page.
    this.flushPage(FLAG_EOS, BigInt(end));
    return Buffer.concat(this.pages);
  }
}

export interface OggOpusInfo {
  channels: number;
  preSkip: number;
  /** Playable length: (last granule − pre-skip) / 48000. */
  seconds: number;
}

/**
 * Reads just enough of an Ogg file to tell whether it is Opus and how long it plays. Returns null for
 * anything that is not a well-formed Ogg Opus stream (Ogg Vorbis, truncated pages, other files).
 */
export function readOggOpusInfo(data: Buffer): OggOpusInfo | null {
  let offset = 0;
  let first: Buffer | null = null;
  let lastGranule = -1n;
  let pages = 0;
  while (offset + 27 <= data.length) {
    if (data.toString("ascii", offset, offset + 4) !== "OggS") return null;
    const segments = data[offset + 26]!;
    if (offset + 27 + segments > data.length) return null;
    let bodyLength = 0;
    for (let i = 0; i < segments; i++) bodyLength += data[offset + 27 + i]!;
    const bodyStart = offset + 27 + segments;
    if (bodyStart + bodyLength > data.length) return null;
    if (pages === 0) first = data.subarray(bodyStart, bodyStart + bodyLength);
    const granule = data.readBigInt64LE(offset + 6);
    if (granule >= 0n) lastGranule = granule; // -1 means "no packet ends on this page"
    pages++;
    offset = bodyStart + bodyLength;
  }
  if (!first || first.length < 19 || first.toString("ascii", 0, 8) !== "OpusHead") return null;
  const channels = first[9]!;
  const preSkip = first.readUInt16LE(10);
  const seconds = lastGranule > BigInt(preSkip) ? Number(lastGranule - BigInt(preSkip)) / 48_000 : 0;
  return { channels, preSkip, seconds };
}

export const OGG_FLAGS = { CONTINUED: FLAG_CONTINUED, BOS: FLAG_BOS, EOS: FLAG_EOS } as const;
