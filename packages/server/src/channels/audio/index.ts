/**
 * Audio for channels: voice notes as WhatsApp wants them (OGG/Opus mono, channels.md §2.5).
 * Provider-neutral: the Baileys provider and the simulator both call `prepareVoiceNote`.
 */
import { AudioConversionError, OPUS_MIME, toOggOpusVoice, VOICE_LIMITS, type VoiceNote } from "./toOggOpus";
import { readOggOpusInfo } from "./ogg";

export { AudioConversionError, OPUS_MIME, sniffAudio, toOggOpusVoice, VOICE_LIMITS, type AudioErrorCode, type VoiceNote } from "./toOggOpus";
export { readOggOpusInfo } from "./ogg";

export type PreparedVoiceNote =
  /** Send as a voice note (PTT) with these bytes. */
  | ({ as: "voice" } & VoiceNote)
  /** Real audio we cannot convert here (e.g. WebM or M4A without ffmpeg): send as a plain audio file. */
  | { as: "file"; reason: string };

export interface PrepareVoiceOptions {
  /**
   * Optional external converter (the Baileys provider's ffmpeg, when installed): tried first for
   * input that is not OGG/Opus; null or an error means "not available", and the wasm path runs.
   */
  external?: (data: Buffer) => Promise<Buffer | null>;
  onExternalError?: (err: unknown) => void;
}

/**
 * Turns an attendant's recording into a voice note. Throws `AudioConversionError` for files that
 * are not audio, corrupt, empty, or over `VOICE_LIMITS` (the send then fails: ERR_SENDING_WAPP_MSG).
 */
export async function prepareVoiceNote(data: Buffer, mimeType: string, options: PrepareVoiceOptions = {}): Promise<PreparedVoiceNote> {
  // Size and emptiness are checked before anything (ffmpeg included) reads the file.
  const small = data.length > 0 && data.length <= VOICE_LIMITS.maxBytes;
  if (small && options.external && !readOggOpusInfo(data)) {
    const viaExternal = await options.external(data).catch((err: unknown) => {
      options.onExternalError?.(err);
      return null;
    });
    const info = viaExternal ? readOggOpusInfo(viaExternal) : null;
    if (viaExternal && info && info.seconds > 0) {
      if (info.seconds > VOICE_LIMITS.maxSeconds)
        throw new AudioConversionError("TOO_LONG", `audio is longer than ${VOICE_LIMITS.maxSeconds / 60} minutes`);
      return { as: "voice", data: viaExternal, mimeType: OPUS_MIME, seconds: Math.round(info.seconds * 1000) / 1000, converted: true };
    }
  }
  try {
    return { as: "voice", ...(await toOggOpusVoice(data, mimeType)) };
  } catch (err) {
    if (err instanceof AudioConversionError && err.code === "UNSUPPORTED_AUDIO") return { as: "file", reason: err.message };
    throw err;
  }
}
