/**
 * libopus through opusscript's WebAssembly build (shipped inside the npm package; nothing is
 * downloaded at install time and no system library is needed).
 *
 * Why we drive opusscript's native handler instead of its `OpusScript` class: the class copies the
 * PCM to `HEAPU16.subarray(ptr, …)`, i.e. to byte address 2·ptr, outside the block it allocated;
 * with several encoders alive that can overwrite another encoder's state. Here every buffer is our
 * own `_malloc` block. Also, the handler's destructor does not free an internal buffer, so encoders
 * are pooled and reset (OPUS_RESET_STATE) instead of being created per voice note.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The parts of the emscripten module (build/opusscript_native_wasm.js) used here. */
interface OpusNative {
  ready?: Promise<unknown>;
  HEAPU8: Uint8Array;
  HEAP16: Int16Array;
  HEAP32: Int32Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  OpusScriptHandler: new (rate: number, channels: number, application: number) => OpusHandler;
}
interface OpusHandler {
  /** Reads `bytes` int16 slots, each holding one byte of little-endian PCM (see `encodeFrame`). */
  _encode(input: number, bytes: number, output: number, frameSize: number): number;
  _encoder_ctl(ctl: number, arg: number): number;
  delete(): void;
}

// opus_defines.h
const OPUS_APPLICATION_VOIP = 2048;
const OPUS_SET_BITRATE = 4002;
const OPUS_SET_COMPLEXITY = 4010;
const OPUS_SET_SIGNAL = 4024;
const OPUS_SIGNAL_VOICE = 3001;
const OPUS_GET_LOOKAHEAD = 4027;
const OPUS_RESET_STATE = 4028;

/** 20 ms at 48 kHz: the frame size every Opus decoder and WhatsApp handle best. */
export const FRAME_SAMPLES = 960;
const MAX_PACKET_BYTES = 1276 * 3;
/** The handler reads 2 int16 slots per sample (one per byte); we hand it one frame. */
const INPUT_SLOTS = FRAME_SAMPLES * 2;

let nativePromise: Promise<OpusNative> | null = null;

function loadNative(): Promise<OpusNative> {
  nativePromise ??= (async () => {
    const factory = require("opusscript/build/opusscript_native_wasm.js") as (m?: object) => OpusNative;
    const native = factory();
    await native.ready;
    return native;
  })().catch((err) => {
    nativePromise = null; // let a later call retry instead of caching the failure forever
    throw err;
  });
  return nativePromise;
}

export interface OpusEncoderSettings {
  bitrate: number;
  complexity: number;
}

export class OpusFrameEncoder {
  private constructor(
    private readonly native: OpusNative,
    private readonly handler: OpusHandler,
    private readonly inPtr: number,
    private readonly outPtr: number,
    private readonly lookPtr: number,
    readonly settings: OpusEncoderSettings,
  ) {}

  static async create(settings: OpusEncoderSettings): Promise<OpusFrameEncoder> {
    const native = await loadNative();
    const handler = new native.OpusScriptHandler(48_000, 1, OPUS_APPLICATION_VOIP);
    const inPtr = native._malloc(INPUT_SLOTS * 2 * 2); // room for either reading of `bytes` (samples or bytes)
    const outPtr = native._malloc(MAX_PACKET_BYTES);
    const lookPtr = native._malloc(4);
    const enc = new OpusFrameEncoder(native, handler, inPtr, outPtr, lookPtr, settings);
    enc.ctl(OPUS_SET_BITRATE, settings.bitrate);
    enc.ctl(OPUS_SET_COMPLEXITY, settings.complexity);
    enc.ctl(OPUS_SET_SIGNAL, OPUS_SIGNAL_VOICE);
    return enc;
  }

  private ctl(request: number, arg: number): void {
    const code = this.handler._encoder_ctl(request, arg);
    if (code < 0) throw new Error(`opus_encoder_ctl(${request}) failed: ${code}`);
  }

  /** Samples the decoder must skip at the start (the encoder's algorithmic delay; 312 at 48 kHz). */
  lookahead(): number {
    this.ctl(OPUS_GET_LOOKAHEAD, this.lookPtr); // a GET takes an opus_int32* — a wasm address
    return this.native.HEAP32[this.lookPtr >> 2]!;
  }

  /** Back to a fresh stream, keeping bitrate/complexity/signal (libopus keeps settings across a reset). */
  reset(): void {
    this.ctl(OPUS_RESET_STATE, 0);
  }

  /** Encodes exactly FRAME_SAMPLES samples in [-1, 1] into one Opus packet. */
  encodeFrame(frame: Float32Array): Uint8Array {
    // Read the heap views on every call: they are replaced when the wasm memory grows.
    const heap16 = this.native.HEAP16;
    const base = this.inPtr >> 1;
    for (let i = 0; i < FRAME_SAMPLES; i++) {
      const v = frame[i]!;
      const s = v >= 1 ? 32767 : v <= -1 ? -32768 : Math.round(v * 32767);
      // opusscript's handler rebuilds each int16 from two slots: input[2i+1] << 8 | input[2i].
      heap16[base + 2 * i] = s & 0xff;
      heap16[base + 2 * i + 1] = (s >> 8) & 0xff;
    }
    const len = this.handler._encode(this.inPtr, FRAME_SAMPLES * 2, this.outPtr, FRAME_SAMPLES);
    if (len < 0) throw new Error(`opus_encode failed: ${len}`);
    return this.native.HEAPU8.slice(this.outPtr, this.outPtr + len);
  }

  destroy(): void {
    this.native._free(this.inPtr);
    this.native._free(this.outPtr);
    this.native._free(this.lookPtr);
    this.handler.delete();
  }
}

/** Idle encoders kept for reuse; bounded so a burst of parallel sends does not pin memory forever. */
const POOL_MAX = 4;
const pool: OpusFrameEncoder[] = [];

export async function acquireEncoder(settings: OpusEncoderSettings): Promise<OpusFrameEncoder> {
  const i = pool.findIndex((e) => e.settings.bitrate === settings.bitrate && e.settings.complexity === settings.complexity);
  if (i >= 0) return pool.splice(i, 1)[0]!;
  return OpusFrameEncoder.create(settings);
}

/** `healthy: false` after an error: the encoder's state is unknown, so it is dropped, not pooled. */
export function releaseEncoder(enc: OpusFrameEncoder, healthy: boolean): void {
  if (healthy && pool.length < POOL_MAX) {
    try {
      enc.reset();
      pool.push(enc);
      return;
    } catch {
      // fall through: destroy it
    }
  }
  try {
    enc.destroy();
  } catch {
    // a broken wasm instance cannot be cleaned further
  }
}
