/**
 * Test and benchmark inputs made on the fly (no binary fixtures): tones as MP3 (lamejs, a dev
 * dependency, loaded only here) or WAV. Not used by the server itself.
 */
import { encodeWav16 } from "./wav";

/** A tone at `hz` (with a little second harmonic, so it is not a pure sine) as 16-bit PCM. */
export function tone(seconds: number, rate: number, hz = 440, amplitude = 0.4, channels = 1): Int16Array {
  const frames = Math.round(seconds * rate);
  const out = new Int16Array(frames * channels);
  for (let i = 0; i < frames; i++) {
    const t = i / rate;
    const v = Math.round(32767 * amplitude * (0.85 * Math.sin(2 * Math.PI * hz * t) + 0.15 * Math.sin(4 * Math.PI * hz * t)));
    for (let c = 0; c < channels; c++) out[i * channels + c] = v;
  }
  return out;
}

export function toneWav(seconds: number, rate: number, channels = 1, hz = 440): Buffer {
  return encodeWav16(tone(seconds, rate, hz, 0.4, channels), rate, channels);
}

/** MP3 as the browser recorder makes it (lamejs), `kbps` constant bitrate. */
export async function toneMp3(seconds: number, rate = 44_100, channels: 1 | 2 = 1, kbps = 128, hz = 440): Promise<Buffer> {
  const { Mp3Encoder } = await import("@breezystack/lamejs");
  const encoder = new Mp3Encoder(channels, rate, kbps);
  const pcm = tone(seconds, rate, hz, 0.4, 1);
  const parts: Buffer[] = [];
  for (let i = 0; i < pcm.length; i += 1152) {
    const block = pcm.subarray(i, i + 1152);
    const chunk = channels === 2 ? encoder.encodeBuffer(block, block) : encoder.encodeBuffer(block);
    if (chunk.length) parts.push(Buffer.from(chunk));
  }
  parts.push(Buffer.from(encoder.flush()));
  return Buffer.concat(parts);
}

/** Power of `hz` in `samples` (Goertzel), normalised by length: tells which tone dominates. */
export function toneEnergy(samples: Float32Array, rate: number, hz: number): number {
  const k = 2 * Math.cos((2 * Math.PI * hz) / rate);
  let s1 = 0;
  let s2 = 0;
  for (const x of samples) {
    const s = x + k * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return (s1 * s1 + s2 * s2 - k * s1 * s2) / samples.length;
}
