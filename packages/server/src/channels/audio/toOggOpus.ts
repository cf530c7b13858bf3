/**
 * Voice notes for WhatsApp: any MP3 or PCM WAV → OGG/Opus mono 48 kHz (channels.md §2.5), in pure
 * JS + WebAssembly, so `npm install && npm start` works on a machine without ffmpeg.
 *
 *   MP3 ─ mpg123-decoder (wasm) ─┐
 *   WAV ─ wav.ts ────────────────┴→ downmix → Resampler (→ 48 kHz) → libopus (opusscript wasm,
 *                                   VOIP, 20 ms frames, 32 kbit/s) → OggOpusWriter → Buffer
 *   OGG/Opus → passed through unchanged (only measured).
 *
 * Everything streams in small blocks and yields to the event loop every ~10 ms of CPU: a 2-minute note
 * (~3–4 s of work) never holds other WhatsApp sessions up for long, and PCM is never held whole.
 * Failures are `AudioConversionError`s with a code and a readable message; nothing here throws
 * anything else for bad input, and nothing can take the process down.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { OggOpusWriter, readOggOpusInfo } from "./ogg";
import { acquireEncoder, FRAME_SAMPLES, releaseEncoder, type OpusFrameEncoder } from "./opus";
import { downmix, OUTPUT_RATE, Resampler } from "./resample";
import { isWav, readWavInfo, readWavMono } from "./wav";

export const OPUS_MIME = "audio/ogg; codecs=opus" as const;

export const VOICE_LIMITS = {
  /** Same ceiling as an upload (messages/routes MAX_UPLOAD_BYTES). */
  maxBytes: 64 * 1024 * 1024,
  /** 15 minutes; WhatsApp's own recorder stops far earlier, and this bounds CPU per send. */
  maxSeconds: 15 * 60,
};

/** ~24–32 kbit/s is transparent for speech in Opus VOIP mode; 32k matches the ffmpeg path. */
const BITRATE = 32_000;
/**
 * libopus' default is 10, but SILK (the speech coder VOIP mode uses) is costly in wasm: on this
 * machine complexity 10 encodes ~7× real time, 5 about 30× (bench/voice-note.ts). 5 is what
 * real-time VoIP stacks use on phones; the difference is not audible for speech at 32 kbit/s.
 */
const COMPLEXITY = 5;
/** MP3 bytes per decoder call: ≈ 0.13 s of audio at 128 kbit/s, ≈ 0.5 s at 32 kbit/s. */
const MP3_CHUNK_BYTES = 2 * 1024;
/** WAV frames per step (≈ 0.1 s at 44.1 kHz). */
const WAV_CHUNK_FRAMES = 4096;
/** Longest stretch of CPU work before giving other connections a turn on the event loop. */
const SLICE_MS = 10;

/** Returns a function to await between steps; it yields only once a slice of CPU time is used up. */
function slicer(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < SLICE_MS) return;
    await nextTurn();
    since = performance.now();
  };
}

export type AudioErrorCode = "EMPTY" | "TOO_LARGE" | "TOO_LONG" | "NOT_AUDIO" | "UNSUPPORTED_AUDIO" | "CORRUPT";

export class AudioConversionError extends Error {
  constructor(
    readonly code: AudioErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "AudioConversionError";
  }
}

export interface VoiceNote {
  data: Buffer;
  mimeType: typeof OPUS_MIME;
  /** Playable length in seconds (millisecond precision). */
  seconds: number;
  /** False when the input already was OGG/Opus and is returned as is. */
  converted: boolean;
}

/** What the bytes are (the declared MIME type is only a hint: the browser or the user may be wrong). */
export type AudioContainer = "ogg-opus" | "mp3" | "wav" | "other-audio" | "unknown";

export function sniffAudio(data: Buffer): AudioContainer {
  if (data.length >= 4 && data.toString("ascii", 0, 4) === "OggS") return readOggOpusInfo(data) ? "ogg-opus" : "other-audio";
  if (isWav(data)) return "wav";
  if (mp3Start(data) >= 0) return "mp3";
  const ascii = data.toString("latin1", 0, 12);
  if (ascii.startsWith("fLaC") || ascii.startsWith("#!AMR") || ascii.startsWith("FORM") || ascii.slice(4, 8) === "ftyp") return "other-audio";
  if (data.length >= 4 && data.readUInt32BE(0) === 0x1a45dfa3) return "other-audio"; // EBML: WebM/Matroska
  if (data.length >= 2 && data[0] === 0xff && (data[1]! & 0xf6) === 0xf0) return "other-audio"; // ADTS AAC
  return "unknown";
}

/** Offset of the first MPEG audio frame when the file starts with one (after ID3v2 tags), else −1. */
function mp3Start(data: Buffer): number {
  let offset = 0;
  // ID3v2: "ID3", version (2), flags (1), size (4 × 7 bits, "syncsafe"), optional 10-byte footer.
  while (data.length >= offset + 10 && data.toString("latin1", offset, offset + 3) === "ID3") {
    const size =
      ((data[offset + 6]! & 0x7f) << 21) | ((data[offset + 7]! & 0x7f) << 14) | ((data[offset + 8]! & 0x7f) << 7) | (data[offset + 9]! & 0x7f);
    offset += 10 + size + (data[offset + 5]! & 0x10 ? 10 : 0);
  }
  // Some encoders pad the tag with zeros beyond its declared size.
  while (offset < data.length && offset < 4096 && data[offset] === 0) offset++;
  return isMpegHeader(data, offset) ? offset : -1;
}

function isMpegHeader(d: Buffer, o: number): boolean {
  if (o + 4 > d.length || d[o] !== 0xff || (d[o + 1]! & 0xe0) !== 0xe0) return false;
  const version = (d[o + 1]! >> 3) & 3; // 1 is reserved
  const layer = (d[o + 1]! >> 1) & 3; // 0 is reserved (and is what ADTS AAC uses)
  const bitrate = d[o + 2]! >> 4; // 15 is invalid
  const rate = (d[o + 2]! >> 2) & 3; // 3 is reserved
  return version !== 1 && layer !== 0 && bitrate !== 15 && rate !== 3;
}

/** Accumulates 48 kHz samples into 20 ms frames and Ogg pages. */
class VoiceEncoder {
  private readonly resampler: Resampler;
  private readonly writer: OggOpusWriter;
  private readonly preSkip: number;
  private readonly frame = new Float32Array(FRAME_SAMPLES);
  private filled = 0;
  /** 48 kHz samples of real audio fed to the encoder (for end trimming and `seconds`). */
  private samples = 0;

  constructor(
    private readonly enc: OpusFrameEncoder,
    inputRate: number,
  ) {
    this.resampler = new Resampler(inputRate);
    this.preSkip = enc.lookahead();
    this.writer = new OggOpusWriter({ preSkip: this.preSkip, inputSampleRate: inputRate });
  }

  write(mono: Float32Array): void {
    this.feed(this.resampler.push(mono));
  }

  private feed(pcm: Float32Array, real = true): void {
    if (real) this.samples += pcm.length;
    let i = 0;
    while (i < pcm.length) {
      const n = Math.min(FRAME_SAMPLES - this.filled, pcm.length - i);
      this.frame.set(pcm.subarray(i, i + n), this.filled);
      this.filled += n;
      i += n;
      if (this.filled === FRAME_SAMPLES) {
        this.writer.addPacket(this.enc.encodeFrame(this.frame), FRAME_SAMPLES);
        this.filled = 0;
      }
    }
  }

  finish(): { data: Buffer; samples: number } {
    this.feed(this.resampler.flush());
    // The encoder outputs audio `preSkip` samples late: feed that much silence so the last real
    // sample is encoded, then pad the final frame. The last page's granule trims the excess.
    this.feed(new Float32Array(this.preSkip), false);
    if (this.filled > 0) this.feed(new Float32Array(FRAME_SAMPLES - this.filled), false);
    return { data: this.writer.finish(this.samples), samples: this.samples };
  }
}

/**
 * Conversions run cooperatively on the main thread, so running more at once gains no throughput and
 * only multiplies memory; later ones wait their turn (a 2-minute note takes ~3–4 s of CPU here).
 */
const MAX_PARALLEL = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(fn: () => Promise<T>): Promise<T> {
  while (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** Runs `fn` with a pooled encoder; the encoder goes back to the pool only if nothing failed. */
async function withEncoder<T>(fn: (enc: OpusFrameEncoder) => Promise<T>): Promise<T> {
  const enc = await acquireEncoder({ bitrate: BITRATE, complexity: COMPLEXITY });
  let healthy = false;
  try {
    const result = await fn(enc);
    healthy = true;
    return result;
  } finally {
    releaseEncoder(enc, healthy);
  }
}

function tooLong(seconds: number, max: number): AudioConversionError {
  const limit = max >= 60 ? `${Math.round(max / 60)} minutes` : `${max} s`;
  return new AudioConversionError("TOO_LONG", `audio is longer than ${limit} (${Math.round(seconds)} s)`);
}

async function fromWav(data: Buffer, maxSeconds: number): Promise<{ data: Buffer; samples: number }> {
  let info;
  try {
    info = readWavInfo(data);
  } catch (err) {
    throw new AudioConversionError("CORRUPT", `unreadable WAV file: ${(err as Error).message}`);
  }
  if (info.frames === 0) throw new AudioConversionError("EMPTY", "the WAV file holds no audio");
  if (info.frames / info.sampleRate > maxSeconds) throw tooLong(info.frames / info.sampleRate, maxSeconds);
  return withEncoder(async (enc) => {
    const voice = new VoiceEncoder(enc, info.sampleRate);
    const pause = slicer();
    for (let start = 0; start < info.frames; start += WAV_CHUNK_FRAMES) {
      voice.write(readWavMono(data, info, start, WAV_CHUNK_FRAMES));
      await pause();
    }
    return voice.finish();
  });
}

async function fromMp3(data: Buffer, maxSeconds: number): Promise<{ data: Buffer; samples: number }> {
  const { MPEGDecoder } = await import("mpg123-decoder");
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    return await withEncoder(async (enc) => {
      let voice: VoiceEncoder | null = null;
      let rate = 0;
      let decoded = 0;
      let errors = 0;
      const pause = slicer();
      for (let offset = 0; offset < data.length; offset += MP3_CHUNK_BYTES) {
        const out = decoder.decode(data.subarray(offset, offset + MP3_CHUNK_BYTES));
        errors += out.errors.length;
        if (out.samplesDecoded > 0) {
          if (!voice) {
            rate = out.sampleRate;
            voice = new VoiceEncoder(enc, rate);
          } else if (out.sampleRate !== rate) {
            throw new AudioConversionError("CORRUPT", `MP3 sample rate changes mid-file (${rate} → ${out.sampleRate} Hz)`);
          }
          decoded += out.samplesDecoded;
          if (decoded / rate > maxSeconds) throw tooLong(decoded / rate, maxSeconds);
          voice.write(downmix(out.channelData, out.samplesDecoded));
        }
        // mpg123 resyncs past damage, so a few bad frames in a real recording cost a click, not the
        // note. But bytes that merely start like MP3 decode to a frame or two of noise amid errors:
        // stop early (which also bounds the decoder's console output) and call the file corrupt.
        if (errors > 20 && errors * 2 > decoded / 1152) break;
        await pause();
      }
      if (!voice || errors * 2 > decoded / 1152) {
        throw new AudioConversionError(
          "CORRUPT",
          `the MP3 file is corrupt: ${voice ? `${errors} damaged frames` : "no audio frame could be decoded"}`,
        );
      }
      return voice.finish();
    });
  } finally {
    decoder.free();
  }
}

/**
 * Converts a recorded voice note to what WhatsApp plays as a voice message: OGG/Opus, mono.
 * OGG/Opus input is returned unchanged. Throws `AudioConversionError` for anything else than MP3,
 * PCM WAV or OGG/Opus, for corrupt files, and beyond `VOICE_LIMITS`.
 */
export async function toOggOpusVoice(data: Buffer, mimeType: string, limits: Partial<typeof VOICE_LIMITS> = {}): Promise<VoiceNote> {
  const { maxBytes, maxSeconds } = { ...VOICE_LIMITS, ...limits };
  if (!Buffer.isBuffer(data) || data.length === 0) throw new AudioConversionError("EMPTY", "the audio file is empty");
  if (data.length > maxBytes) throw new AudioConversionError("TOO_LARGE", `audio file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  const container = sniffAudio(data);
  const declared = mimeType || "unknown type";
  let result: { data: Buffer; samples: number };
  try {
    switch (container) {
      case "ogg-opus": {
        const info = readOggOpusInfo(data)!;
        if (info.seconds > maxSeconds) throw tooLong(info.seconds, maxSeconds);
        return { data, mimeType: OPUS_MIME, seconds: Math.round(info.seconds * 1000) / 1000, converted: false };
      }
      case "wav":
        result = await inTurn(() => fromWav(data, maxSeconds));
        break;
      case "mp3":
        result = await inTurn(() => fromMp3(data, maxSeconds));
        break;
      case "other-audio":
        throw new AudioConversionError("UNSUPPORTED_AUDIO", `${declared} cannot be converted to a voice note here (supported: MP3, WAV, OGG/Opus)`);
      default:
        throw new AudioConversionError("NOT_AUDIO", `the file (${declared}) is not a recognised audio file`);
    }
  } catch (err) {
    if (err instanceof AudioConversionError) throw err;
    // A wasm trap or an allocation failure on hostile input: report it, never let it escape raw.
    throw new AudioConversionError("CORRUPT", `could not convert ${declared}: ${(err as Error)?.message ?? String(err)}`);
  }
  if (result.samples === 0) throw new AudioConversionError("EMPTY", "the audio file holds no samples");
  return { data: result.data, mimeType: OPUS_MIME, seconds: Math.round((result.samples / OUTPUT_RATE) * 1000) / 1000, converted: true };
}
