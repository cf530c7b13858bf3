/**
 * Voice notes (spec §4): record with MediaRecorder, encode MP3 at 128 kbit/s with lamejs (loaded on first
 * use), discard recordings under 10000 bytes. The server/provider converts the MP3 to OGG/Opus for WhatsApp.
 */
export const MIN_VOICE_BYTES = 10_000;
export const VOICE_BITRATE_KBPS = 128;

export interface Recording {
  stop: () => Promise<File | null>;
  cancel: () => void;
}

/** Starts recording from the microphone; rejects when the microphone is not available or refused. */
export async function startRecording(): Promise<Recording> {
  if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") throw new Error("ERR_MIC_UNAVAILABLE");
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const recorder = new MediaRecorder(stream);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (e) => {
    if (e.data.size > 0) chunks.push(e.data);
  };
  const stopped = new Promise<void>((resolve) => {
    recorder.onstop = () => resolve();
  });
  const release = () => stream.getTracks().forEach((track) => track.stop());
  recorder.start();

  return {
    async stop() {
      if (recorder.state !== "inactive") recorder.stop();
      await stopped;
      release();
      const raw = new Blob(chunks, { type: recorder.mimeType || "audio/webm" });
      const mp3 = await encodeMp3(raw);
      if (mp3.size < MIN_VOICE_BYTES) return null;
      return new File([mp3], `audio-${Date.now()}.mp3`, { type: "audio/mpeg" });
    },
    cancel() {
      if (recorder.state !== "inactive") recorder.stop();
      release();
    },
  };
}

function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]));
    out[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return out;
}

/** Decodes the recorded audio and encodes it as mono MP3, 128 kbit/s. */
export async function encodeMp3(recorded: Blob): Promise<Blob> {
  const [{ Mp3Encoder }, buffer] = await Promise.all([import("@breezystack/lamejs"), recorded.arrayBuffer()]);
  const context = new AudioContext();
  try {
    const audio = await context.decodeAudioData(buffer);
    const channel = audio.numberOfChannels > 1 ? mixDown(audio) : audio.getChannelData(0);
    const encoder = new Mp3Encoder(1, audio.sampleRate, VOICE_BITRATE_KBPS);
    const pcm = toInt16(channel);
    const parts: Uint8Array[] = [];
    const block = 1152;
    for (let i = 0; i < pcm.length; i += block) {
      const chunk = encoder.encodeBuffer(pcm.subarray(i, i + block));
      if (chunk.length > 0) parts.push(new Uint8Array(chunk));
    }
    const end = encoder.flush();
    if (end.length > 0) parts.push(new Uint8Array(end));
    return new Blob(parts as BlobPart[], { type: "audio/mpeg" });
  } finally {
    void context.close().catch(() => undefined);
  }
}

function mixDown(audio: AudioBuffer): Float32Array {
  const out = new Float32Array(audio.length);
  for (let c = 0; c < audio.numberOfChannels; c++) {
    const data = audio.getChannelData(c);
    for (let i = 0; i < data.length; i++) out[i] += data[i] / audio.numberOfChannels;
  }
  return out;
}
