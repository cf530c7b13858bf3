/**
 * Voice-note conversion (MP3 → OGG/Opus mono, packages/server/src/channels/audio) for a 30 s and a
 * 120 s note recorded as the browser does (lamejs, 128 kbit/s, 44.1 kHz mono), printed beside the
 * time to merely decode the same MP3 (mpg123-decoder) measured in the same run. Also prints the
 * longest event-loop stall during a conversion (other WhatsApp sessions wait that long at most).
 *
 * The input is speech-like, not a pure tone (Opus' speech coder works harder on voiced + noisy
 * signal): a 90–220 Hz glottal-like harmonic series with syllable-rate loudness and some breath noise.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Mp3Encoder } from "@breezystack/lamejs";
import { MPEGDecoder } from "mpg123-decoder";
import { toOggOpusVoice } from "../packages/server/src/channels/audio";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const RATE = 44_100;

function speechLike(seconds: number): Int16Array {
  const n = Math.round(seconds * RATE);
  const out = new Int16Array(n);
  let phase = 0;
  let seed = 12345;
  for (let i = 0; i < n; i++) {
    const t = i / RATE;
    const f0 = 155 + 65 * Math.sin(2 * Math.PI * 0.7 * t) + 10 * Math.sin(2 * Math.PI * 5.5 * t);
    phase += (2 * Math.PI * f0) / RATE;
    let v = 0;
    for (let h = 1; h <= 12; h++) v += Math.sin(h * phase) / h;
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const noise = seed / 0x7fffffff - 0.5;
    const syllable = Math.max(0, Math.sin(2 * Math.PI * 4 * t)) ** 0.5 * (0.6 + 0.4 * Math.sin(2 * Math.PI * 0.3 * t));
    out[i] = Math.round(32767 * 0.35 * syllable * (0.8 * v * 0.5 + 0.2 * noise));
  }
  return out;
}

function mp3Of(pcm: Int16Array): Buffer {
  const enc = new Mp3Encoder(1, RATE, 128);
  const parts: Buffer[] = [];
  for (let i = 0; i < pcm.length; i += 1152) {
    const b = enc.encodeBuffer(pcm.subarray(i, i + 1152));
    if (b.length) parts.push(Buffer.from(b));
  }
  parts.push(Buffer.from(enc.flush()));
  return Buffer.concat(parts);
}

async function decodeOnly(mp3: Buffer): Promise<number> {
  const d = new MPEGDecoder();
  await d.ready;
  let samples = 0;
  for (let o = 0; o < mp3.length; o += 16 * 1024) samples += d.decode(mp3.subarray(o, o + 16 * 1024)).samplesDecoded;
  d.free();
  return samples;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function voiceNoteBench(): Promise<void> {
  // Warm-up: wasm compilation and JIT tiers, as a long-running server has already paid them.
  await toOggOpusVoice(mp3Of(speechLike(3)), "audio/mpeg");
  console.log(`MP3 128 kbit/s 44.1 kHz mono, speech-like; median of ${RUNS} runs; Node ${process.version}`);
  console.log("| note | MP3 size | decode only (baseline) | full conversion | × real time | Opus size | longest event-loop stall |");
  console.log("|---|---|---|---|---|---|---|");
  for (const seconds of [30, 120]) {
    const mp3 = mp3Of(speechLike(seconds));
    const decode: number[] = [];
    const convert: number[] = [];
    let size = 0;
    let stall = 0;
    for (let r = 0; r < RUNS; r++) {
      decode.push(await time(() => decodeOnly(mp3)));
      const loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      convert.push(
        await time(async () => {
          const out = await toOggOpusVoice(mp3, "audio/mpeg");
          size = out.data.length;
          if (Math.abs(out.seconds - seconds) > 0.1) throw new Error(`duration ${out.seconds} s, expected ${seconds}`);
        }),
      );
      loop.disable();
      stall = Math.max(stall, loop.max / 1e6);
    }
    const c = median(convert);
    console.log(
      `| ${seconds} s | ${(mp3.length / 1024).toFixed(0)} KiB | ${median(decode).toFixed(0)} ms | ${c.toFixed(0)} ms | ${((seconds * 1000) / c).toFixed(0)}× | ${(size / 1024).toFixed(0)} KiB | ${stall.toFixed(0)} ms |`,
    );
  }
}
