/**
 * Voice-note conversion, checked by decoding our output with an independent Ogg/Opus decoder
 * (ogg-opus-decoder, a dev dependency) — the same question a phone asks of the file.
 */
import { OggOpusDecoder } from "ogg-opus-decoder";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AudioConversionError, prepareVoiceNote, readOggOpusInfo, sniffAudio, toOggOpusVoice } from ".";
import { oggCrc32, OGG_FLAGS } from "./ogg";
import { Resampler } from "./resample";
import { tone, toneEnergy, toneMp3, toneWav } from "./testing";
import { encodeWav16 } from "./wav";

let decoder: OggOpusDecoder;
beforeAll(async () => {
  decoder = new OggOpusDecoder();
  await decoder.ready;
});
afterAll(() => decoder.free());

async function decode(data: Buffer) {
  await decoder.reset();
  const out = await decoder.decodeFile(new Uint8Array(data));
  return { ...out, seconds: out.samplesDecoded / out.sampleRate };
}

function rms(x: Float32Array): number {
  let e = 0;
  for (const v of x) e += v * v;
  return Math.sqrt(e / x.length);
}

/** Every page of an Ogg stream, with its CRC checked against a recomputation. */
function pages(data: Buffer) {
  const out: { flags: number; granule: bigint; serial: number; sequence: number; body: Buffer; crcOk: boolean }[] = [];
  let o = 0;
  while (o < data.length) {
    expect(data.toString("ascii", o, o + 4)).toBe("OggS");
    const segments = data[o + 26]!;
    let len = 0;
    for (let i = 0; i < segments; i++) len += data[o + 27 + i]!;
    const end = o + 27 + segments + len;
    const copy = Buffer.from(data.subarray(o, end));
    const crc = copy.readUInt32LE(22);
    copy.writeUInt32LE(0, 22);
    out.push({
      flags: data[o + 5]!,
      granule: data.readBigInt64LE(o + 6),
      serial: data.readUInt32LE(o + 14),
      sequence: data.readUInt32LE(o + 18),
      body: data.subarray(o + 27 + segments, end),
      crcOk: oggCrc32(copy) === crc,
    });
    o = end;
  }
  return out;
}

describe("toOggOpusVoice", () => {
  it("MP3 (the browser recorder's 128 kbit/s, 44.1 kHz) → OGG/Opus mono 48 kHz a decoder plays back at the same length and pitch", async () => {
    const mp3 = await toneMp3(1.5);
    expect(sniffAudio(mp3)).toBe("mp3");
    const voice = await toOggOpusVoice(mp3, "audio/mpeg");
    expect(voice).toMatchObject({ mimeType: "audio/ogg; codecs=opus", converted: true });
    expect(voice.data.toString("ascii", 0, 4)).toBe("OggS");
    expect(voice.data.toString("ascii", 28, 36)).toBe("OpusHead"); // 27-byte page header + 1 lacing value
    const out = await decode(voice.data);
    expect(out.errors).toEqual([]);
    expect(out.sampleRate).toBe(48_000);
    expect(out.channelData.length).toBe(1);
    // MP3 adds up to ~1 frame of encoder padding (1152 samples ≈ 26 ms) that the decoder cannot know to trim.
    expect(out.seconds).toBeGreaterThan(1.5 * 0.97);
    expect(out.seconds).toBeLessThan(1.5 * 1.05);
    expect(voice.seconds).toBeCloseTo(out.seconds, 2);
    const pcm = out.channelData[0]!;
    expect(rms(pcm)).toBeGreaterThan(0.15); // 0.4 peak tone ≈ 0.28 RMS
    // It is still the 440 Hz tone (not noise, not a resampling-shifted pitch).
    expect(toneEnergy(pcm, 48_000, 440)).toBeGreaterThan(50 * toneEnergy(pcm, 48_000, 470));
    expect(toneEnergy(pcm, 48_000, 440)).toBeGreaterThan(50 * toneEnergy(pcm, 48_000, 1000));
  });

  it("writes a well-formed Ogg stream: CRCs, BOS/EOS, OpusHead + OpusTags pages, granules with pre-skip", async () => {
    const voice = await toOggOpusVoice(toneWav(3.3, 16_000), "audio/wav");
    const list = pages(voice.data);
    expect(list.every((p) => p.crcOk)).toBe(true);
    expect(new Set(list.map((p) => p.serial)).size).toBe(1);
    expect(list.map((p) => p.sequence)).toEqual(list.map((_, i) => i));
    expect(list.map((p) => p.flags)).toEqual([OGG_FLAGS.BOS, ...Array(list.length - 2).fill(0), OGG_FLAGS.EOS]);
    const head = list[0]!.body;
    expect(head.toString("ascii", 0, 8)).toBe("OpusHead");
    expect({ version: head[8], channels: head[9], inputRate: head.readUInt32LE(12), family: head[18] }).toEqual({
      version: 1,
      channels: 1,
      inputRate: 16_000,
      family: 0,
    });
    const preSkip = head.readUInt16LE(10);
    expect(preSkip).toBeGreaterThan(0);
    expect(list[1]!.body.toString("ascii", 0, 8)).toBe("OpusTags");
    expect(list[1]!.granule).toBe(0n);
    const granules = list.slice(2).map((p) => p.granule);
    expect([...granules].sort((a, b) => (a < b ? -1 : 1))).toEqual(granules);
    // End trimming: the last granule is exactly pre-skip + the real input length at 48 kHz.
    expect(granules.at(-1)).toBe(BigInt(preSkip + 3.3 * 48_000));
    expect(voice.seconds).toBe(3.3);
    expect(readOggOpusInfo(voice.data)).toEqual({ channels: 1, preSkip, seconds: 3.3 });
    const out = await decode(voice.data);
    expect(out.samplesDecoded).toBe(3.3 * 48_000);
  });

  it.each([
    ["WAV 8 kHz mono", 8_000, 1],
    ["WAV 22.05 kHz stereo", 22_050, 2],
    ["WAV 48 kHz stereo (no resampling)", 48_000, 2],
    ["WAV 96 kHz mono (downsampling)", 96_000, 1],
  ])("%s → mono 48 kHz, same duration, same tone", async (_name, rate, channels) => {
    const voice = await toOggOpusVoice(toneWav(1.2, rate, channels, 300), "audio/wav");
    const out = await decode(voice.data);
    expect(out.channelData.length).toBe(1);
    expect(out.seconds).toBeCloseTo(1.2, 2);
    const pcm = out.channelData[0]!;
    expect(rms(pcm)).toBeGreaterThan(0.15);
    expect(toneEnergy(pcm, 48_000, 300)).toBeGreaterThan(50 * toneEnergy(pcm, 48_000, 1300));
  });

  it("stereo MP3 at 32 kHz is downmixed (not doubled in level)", async () => {
    const out = await decode((await toOggOpusVoice(await toneMp3(1, 32_000, 2, 96), "audio/mpeg")).data);
    expect(out.channelData.length).toBe(1);
    const level = rms(out.channelData[0]!);
    expect(level).toBeGreaterThan(0.18);
    expect(level).toBeLessThan(0.4);
  });

  it("OGG/Opus input passes through unchanged, with its duration measured", async () => {
    const first = await toOggOpusVoice(toneWav(2, 48_000), "audio/wav");
    const again = await toOggOpusVoice(first.data, "audio/ogg");
    expect(again.data).toBe(first.data);
    expect(again).toMatchObject({ converted: false, seconds: 2, mimeType: "audio/ogg; codecs=opus" });
  });

  it("runs conversions side by side (pooled encoders keep their state apart)", async () => {
    const inputs = [toneWav(1, 44_100, 1, 300), toneWav(1, 16_000, 1, 500), toneWav(1, 48_000, 2, 700), toneWav(1, 8_000, 1, 200)];
    const results = await Promise.all(inputs.map((wav) => toOggOpusVoice(wav, "audio/wav")));
    for (const [i, hz] of [300, 500, 700, 200].entries()) {
      const pcm = (await decode(results[i]!.data)).channelData[0]!;
      expect(toneEnergy(pcm, 48_000, hz)).toBeGreaterThan(50 * toneEnergy(pcm, 48_000, hz * 1.5));
    }
  });

  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
  const adpcm = (() => {
    const wav = encodeWav16(tone(0.1, 8000), 8000);
    wav.writeUInt16LE(2, 20); // format tag 2 = MS ADPCM
    return wav;
  })();
  it.each([
    ["an empty file", Buffer.alloc(0), "audio/mpeg", "EMPTY"],
    ["a PNG labelled audio/mpeg", png, "audio/mpeg", "NOT_AUDIO"],
    ["text", Buffer.from("not audio at all, just text"), "audio/mpeg", "NOT_AUDIO"],
    [
      "an ID3 tag with nothing after it",
      Buffer.concat([Buffer.from("ID3\x04\x00\x00\x00\x00\x00\x05", "latin1"), Buffer.alloc(5)]),
      "audio/mpeg",
      "NOT_AUDIO",
    ],
    [
      "an MP3 frame header followed by garbage",
      Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0xc4]), Buffer.alloc(3000, 0x5a)]),
      "audio/mpeg",
      "CORRUPT",
    ],
    ["a WebM recording (no wasm demuxer)", Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]), "audio/webm", "UNSUPPORTED_AUDIO"],
    ["an ADPCM WAV", adpcm, "audio/wav", "CORRUPT"],
    ["a WAV without data", toneWav(0.5, 8000).subarray(0, 36), "audio/wav", "CORRUPT"],
  ])("rejects %s with a clear AudioConversionError", async (_what, data, mime, code) => {
    const err = await toOggOpusVoice(data, mime).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AudioConversionError);
    expect(err).toMatchObject({ code });
    expect((err as Error).message.length).toBeGreaterThan(10);
  });

  it("caps size and duration", async () => {
    await expect(toOggOpusVoice(toneWav(1, 8000), "audio/wav", { maxBytes: 1000 })).rejects.toMatchObject({ code: "TOO_LARGE" });
    await expect(toOggOpusVoice(toneWav(2, 8000), "audio/wav", { maxSeconds: 1 })).rejects.toMatchObject({
      code: "TOO_LONG",
      message: expect.stringContaining("longer than"),
    });
    await expect(toOggOpusVoice(await toneMp3(2), "audio/mpeg", { maxSeconds: 1 })).rejects.toMatchObject({ code: "TOO_LONG" });
    const ogg = (await toOggOpusVoice(toneWav(2, 8000), "audio/wav")).data;
    await expect(toOggOpusVoice(ogg, "audio/ogg", { maxSeconds: 1 })).rejects.toMatchObject({ code: "TOO_LONG" });
  });

  it("a truncated MP3 (upload cut short) still converts what is there", async () => {
    const mp3 = await toneMp3(2);
    const voice = await toOggOpusVoice(mp3.subarray(0, Math.floor(mp3.length / 2)), "audio/mpeg");
    expect(voice.seconds).toBeGreaterThan(0.9);
    expect(voice.seconds).toBeLessThan(1.1);
  });
});

describe("Resampler", () => {
  it.each([8_000, 11_025, 16_000, 22_050, 32_000, 44_100, 44_056, 96_000])("%i Hz → 48 kHz keeps length and level, in any chunking", (rate) => {
    const r = new Resampler(rate);
    const input = new Float32Array(rate); // 1 s of a 200 Hz sine
    for (let i = 0; i < rate; i++) input[i] = 0.5 * Math.sin((2 * Math.PI * 200 * i) / rate);
    const parts: Float32Array[] = [];
    for (let i = 0; i < rate; i += 777) parts.push(r.push(input.slice(i, i + 777)));
    parts.push(r.flush());
    const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) out.set(p, (o += p.length) - p.length);
    expect(out.length).toBe(48_000);
    const middle = out.subarray(2000, 46_000); // away from the silent edges
    expect(rms(middle)).toBeCloseTo(0.5 / Math.SQRT2, 2);
    for (let i = 2000; i < 46_000; i += 997) expect(Math.abs(out[i]! - 0.5 * Math.sin((2 * Math.PI * 200 * i) / 48_000))).toBeLessThan(0.01);
  });
});

describe("prepareVoiceNote", () => {
  it("uses an external converter's output when it is valid Ogg/Opus, else the wasm path", async () => {
    const wav = toneWav(1, 16_000);
    const ogg = (await toOggOpusVoice(wav, "audio/wav")).data;
    const viaExternal = await prepareVoiceNote(wav, "audio/wav", { external: async () => ogg });
    expect(viaExternal).toMatchObject({ as: "voice", seconds: 1, converted: true });
    expect((viaExternal as { data: Buffer }).data).toBe(ogg);
    const errors: unknown[] = [];
    for (const external of [async () => null, async () => Buffer.from("garbage"), async () => Promise.reject(new Error("ffmpeg exited with 1"))]) {
      const prepared = await prepareVoiceNote(wav, "audio/wav", { external, onExternalError: (e) => errors.push(e) });
      expect(prepared).toMatchObject({ as: "voice", converted: true, seconds: 1 });
    }
    expect(errors).toHaveLength(1);
  });

  it("real audio the wasm path cannot read (WebM, M4A) becomes a plain audio file; non-audio throws", async () => {
    expect(await prepareVoiceNote(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]), "audio/webm")).toMatchObject({
      as: "file",
      reason: expect.stringContaining("audio/webm"),
    });
    await expect(prepareVoiceNote(Buffer.from("hello"), "audio/mpeg")).rejects.toMatchObject({ code: "NOT_AUDIO" });
  });
});
