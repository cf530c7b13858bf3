/**
 * Streaming mono resampler to 48 kHz (Opus' native rate), windowed-sinc, polyphase.
 *
 * Why not linear interpolation: browsers record at 44.1/48 kHz but uploads can be 8–96 kHz; going
 * down (96 → 48 kHz) without a low-pass folds everything above 24 kHz back into the voice band, and
 * going up (8 → 48 kHz) linearly leaves audible images. A Blackman-windowed sinc with a cutoff just
 * below the lower Nyquist frequency avoids both at ~18–36 multiply-adds per output sample.
 *
 * Streaming: `push` takes any chunk size and returns what can already be computed; `flush` pads the
 * end with silence. Memory stays at one chunk plus the filter's history, so a 15-minute note never
 * sits in memory as PCM.
 */

export const OUTPUT_RATE = 48_000;
/**
 * Zero crossings of the sinc on each side of the centre (quality vs. cost). 8 gives a transition
 * band of a few kHz right under the cutoff (~20 kHz for 44.1 kHz input), above what Opus keeps at
 * voice bitrates, at ~18 taps per output sample (~5 ms of CPU per second of audio here).
 */
const ZERO_CROSSINGS = 8;
/** Phases of the polyphase table when the exact ratio would need more (odd input rates). */
const MAX_PHASES = 2048;

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

export class Resampler {
  /** Output advances `down / up` input samples per output sample (exact: inputRate/48000 reduced). */
  private readonly up: number;
  private readonly down: number;
  /** One row of `taps` weights per table phase (fractional position row/phases between two input samples). */
  private readonly table: Float32Array;
  private readonly phases: number;
  private readonly taps: number;
  private readonly half: number;
  private readonly passthrough: boolean;
  /** Input not yet fully consumed; `buffer[0]` is input sample number `bufferStart`. */
  private buffer = new Float32Array(0);
  private bufferStart = 0;
  /** Next output sample's position in the input: integer part `pos`, fractional part `phase / up`. */
  private pos = 0;
  private phase = 0;
  private inputSamples = 0;
  private outputSamples = 0;

  constructor(readonly inputRate: number) {
    if (!Number.isInteger(inputRate) || inputRate < 1000 || inputRate > 384_000) throw new RangeError(`unsupported sample rate ${inputRate}`);
    this.passthrough = inputRate === OUTPUT_RATE;
    const g = gcd(inputRate, OUTPUT_RATE);
    this.up = OUTPUT_RATE / g;
    this.down = inputRate / g;
    // Positions are tracked exactly; only the filter's fractional phase is rounded to the table. Rates
    // like 44 056 Hz would need 6000 phases: 2048 put the error under 1/2048 of a sample, inaudible.
    this.phases = Math.min(this.up, MAX_PHASES);
    const { phases } = this;
    // Cutoff as a fraction of the input Nyquist frequency; 0.9 leaves room for the window's transition band.
    const cutoff = Math.min(1, OUTPUT_RATE / inputRate) * 0.9;
    this.half = Math.ceil(ZERO_CROSSINGS / cutoff);
    this.taps = this.half * 2;
    this.table = new Float32Array(phases * this.taps);
    for (let p = 0; p < phases; p++) {
      const frac = p / phases;
      let sum = 0;
      for (let k = 0; k < this.taps; k++) {
        const t = k - this.half + 1 - frac; // distance in input samples from the output position
        const x = Math.PI * cutoff * t;
        const sinc = t === 0 ? 1 : Math.sin(x) / x;
        const w = 0.42 + 0.5 * Math.cos((Math.PI * t) / this.half) + 0.08 * Math.cos((2 * Math.PI * t) / this.half);
        const v = Math.abs(t) >= this.half ? 0 : sinc * w;
        this.table[p * this.taps + k] = v;
        sum += v;
      }
      // Unity gain at DC for every phase, or slow tones would ripple in loudness with the phase.
      for (let k = 0; k < this.taps; k++) this.table[p * this.taps + k]! /= sum;
    }
    // History before the first sample is silence.
    this.buffer = new Float32Array(this.half);
    this.bufferStart = -this.half;
  }

  /** Output samples the input seen so far should yield in total (the duration-preserving length). */
  private targetOutput(): number {
    return Math.round((this.inputSamples * this.up) / this.down);
  }

  push(chunk: Float32Array): Float32Array {
    this.inputSamples += chunk.length;
    if (this.passthrough) {
      this.outputSamples += chunk.length;
      return chunk;
    }
    const merged = new Float32Array(this.buffer.length + chunk.length);
    merged.set(this.buffer);
    merged.set(chunk, this.buffer.length);
    this.buffer = merged;
    return this.run(this.bufferStart + this.buffer.length);
  }

  /** Emits the rest, reading silence past the end of the input. */
  flush(): Float32Array {
    if (this.passthrough) return new Float32Array(0);
    const padded = new Float32Array(this.buffer.length + this.taps);
    padded.set(this.buffer);
    this.buffer = padded;
    return this.run(this.bufferStart + this.buffer.length, this.targetOutput());
  }

  /** Computes outputs whose filter window ends before input index `available` (and before `limit`). */
  private run(available: number, limit = Number.POSITIVE_INFINITY): Float32Array {
    const { table, taps, half, up, down, phases } = this;
    const exact = phases === up;
    const buf = this.buffer;
    // Output n needs inputs pos − half + 1 … pos + half, so it is ready when pos + half < available,
    // i.e. when ⌊(phase + n·down) / up⌋ < available − half − pos.
    const count = Math.max(0, Math.min(limit - this.outputSamples, Math.ceil(((available - half - this.pos) * up - this.phase) / down)));
    const out = new Float32Array(count);
    let pos = this.pos;
    let phase = this.phase;
    for (let n = 0; n < count; n++) {
      const base = pos - half + 1 - this.bufferStart;
      const row = (exact ? phase : Math.floor((phase * phases) / up)) * taps;
      let acc = 0;
      for (let k = 0; k < taps; k++) acc += buf[base + k]! * table[row + k]!;
      out[n] = acc;
      phase += down;
      while (phase >= up) {
        phase -= up;
        pos++;
      }
    }
    this.pos = pos;
    this.phase = phase;
    this.outputSamples += count;
    // Keep only the history the next output needs.
    const keepFrom = pos - half + 1 - this.bufferStart;
    if (keepFrom > 0) {
      this.buffer = this.buffer.slice(keepFrom);
      this.bufferStart += keepFrom;
    }
    return out;
  }
}

/** Averages interleaved-free channel arrays into one (equal weights keep a mono-in-stereo file at its level). */
export function downmix(channels: Float32Array[], length: number): Float32Array {
  if (channels.length === 1) return channels[0]!.subarray(0, length);
  const out = new Float32Array(length);
  const gain = 1 / channels.length;
  for (const ch of channels) for (let i = 0; i < length; i++) out[i]! += ch[i]! * gain;
  return out;
}
