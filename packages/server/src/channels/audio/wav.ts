/**
 * RIFF/WAVE reader for uncompressed PCM (8/16/24/32-bit integer, 32/64-bit float, incl.
 * WAVE_FORMAT_EXTENSIBLE). Reads in blocks and downmixes on the fly, so the samples are never
 * copied whole. Compressed WAV variants (ADPCM, µ-law…) are rejected with a clear message.
 */

export interface WavInfo {
  sampleRate: number;
  channels: number;
  /** 1 = integer PCM, 3 = IEEE float. */
  format: 1 | 3;
  bitsPerSample: number;
  dataOffset: number;
  /** Whole sample frames present (a truncated or streamed file counts what is really there). */
  frames: number;
}

export function isWav(data: Buffer): boolean {
  return data.length >= 12 && data.toString("ascii", 0, 4) === "RIFF" && data.toString("ascii", 8, 12) === "WAVE";
}

/** Throws an Error with a human-readable reason when the file is not a usable PCM WAV. */
export function readWavInfo(data: Buffer): WavInfo {
  if (!isWav(data)) throw new Error("not a RIFF/WAVE file");
  let offset = 12;
  let fmt: Omit<WavInfo, "dataOffset" | "frames"> | null = null;
  while (offset + 8 <= data.length) {
    const id = data.toString("ascii", offset, offset + 4);
    const size = data.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") {
      if (size < 16 || body + 16 > data.length) throw new Error("WAV fmt chunk is truncated");
      let format = data.readUInt16LE(body);
      const channels = data.readUInt16LE(body + 2);
      const sampleRate = data.readUInt32LE(body + 4);
      const bitsPerSample = data.readUInt16LE(body + 14);
      // WAVE_FORMAT_EXTENSIBLE keeps the real format in the first two bytes of the sub-format GUID.
      if (format === 0xfffe && size >= 40 && body + 26 <= data.length) format = data.readUInt16LE(body + 24);
      const intOk = format === 1 && [8, 16, 24, 32].includes(bitsPerSample);
      const floatOk = format === 3 && (bitsPerSample === 32 || bitsPerSample === 64);
      if (!intOk && !floatOk) throw new Error(`unsupported WAV encoding (format ${format}, ${bitsPerSample} bits): only uncompressed PCM is read`);
      if (channels < 1 || channels > 8) throw new Error(`unsupported WAV channel count ${channels}`);
      if (sampleRate < 1000 || sampleRate > 384_000) throw new Error(`unsupported WAV sample rate ${sampleRate}`);
      fmt = { format: format as 1 | 3, channels, sampleRate, bitsPerSample };
    } else if (id === "data") {
      if (!fmt) throw new Error("WAV data chunk comes before its fmt chunk");
      const frameBytes = (fmt.bitsPerSample / 8) * fmt.channels;
      // Recorders that stream (and crash) leave size 0 or 0xFFFFFFFF: trust the bytes actually present.
      const available = data.length - body;
      const declared = size === 0 || size === 0xffffffff ? available : Math.min(size, available);
      return { ...fmt, dataOffset: body, frames: Math.floor(declared / frameBytes) };
    }
    offset = body + size + (size & 1); // chunks are padded to even sizes
  }
  throw new Error(fmt ? "WAV file has no data chunk" : "WAV file has no fmt chunk");
}

/** Frames [start, start+count) as one mono channel in [-1, 1]. */
export function readWavMono(data: Buffer, info: WavInfo, start: number, count: number): Float32Array {
  const n = Math.max(0, Math.min(count, info.frames - start));
  const out = new Float32Array(n);
  const bytes = info.bitsPerSample / 8;
  const frameBytes = bytes * info.channels;
  const gain = 1 / info.channels;
  for (let i = 0; i < n; i++) {
    let sum = 0;
    let p = info.dataOffset + (start + i) * frameBytes;
    for (let c = 0; c < info.channels; c++, p += bytes) {
      if (info.format === 3) sum += bytes === 4 ? data.readFloatLE(p) : data.readDoubleLE(p);
      else if (bytes === 2) sum += data.readInt16LE(p) / 32768;
      else if (bytes === 1)
        sum += (data[p]! - 128) / 128; // 8-bit WAV is unsigned
      else if (bytes === 3) sum += data.readIntLE(p, 3) / 8388608;
      else sum += data.readInt32LE(p) / 2147483648;
    }
    out[i] = sum * gain;
  }
  return out;
}

/** Writes a 16-bit PCM WAV (used by tests and the benchmark to make inputs without fixtures). */
export function encodeWav16(samples: Int16Array, sampleRate: number, channels = 1): Buffer {
  const dataBytes = samples.length * 2;
  const out = Buffer.alloc(44 + dataBytes);
  out.write("RIFF", 0, "ascii");
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write("WAVE", 8, "ascii");
  out.write("fmt ", 12, "ascii");
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(channels, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * channels * 2, 28);
  out.writeUInt16LE(channels * 2, 32);
  out.writeUInt16LE(16, 34);
  out.write("data", 36, "ascii");
  out.writeUInt32LE(dataBytes, 40);
  Buffer.from(samples.buffer, samples.byteOffset, dataBytes).copy(out, 44);
  return out;
}
