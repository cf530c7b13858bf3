/**
 * Content type from the file's first bytes, never from the client's name or header (ASVS 5.2.2).
 * Anything unrecognised is served as an opaque download.
 */
export function sniffMimeType(data: Buffer): string {
  const hex = data.subarray(0, 16).toString("hex");
  const ascii = data.subarray(0, 16).toString("latin1");
  if (hex.startsWith("ffd8ff")) return "image/jpeg";
  if (hex.startsWith("89504e470d0a1a0a")) return "image/png";
  if (ascii.startsWith("GIF87a") || ascii.startsWith("GIF89a")) return "image/gif";
  if (ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WEBP") return "image/webp";
  if (ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WAVE") return "audio/wav";
  if (ascii.startsWith("%PDF-")) return "application/pdf";
  if (ascii.startsWith("OggS")) return "audio/ogg";
  if (ascii.startsWith("ID3") || hex.startsWith("fffb") || hex.startsWith("fff3") || hex.startsWith("fff2")) return "audio/mpeg";
  if (ascii.slice(4, 8) === "ftyp") {
    const brand = ascii.slice(8, 12);
    if (brand.startsWith("M4A")) return "audio/mp4";
    if (brand === "qt  ") return "video/quicktime";
    return "video/mp4";
  }
  if (hex.startsWith("1a45dfa3")) return "video/webm";
  if (hex.startsWith("504b0304")) return "application/zip";
  if (isPlainText(data)) return "text/plain";
  return "application/octet-stream";
}

function isPlainText(data: Buffer): boolean {
  const sample = data.subarray(0, 512);
  if (sample.length === 0) return false;
  for (const byte of sample) if (byte === 0 || (byte < 9 && byte !== 0)) return false;
  return true;
}

/** The spec's mediaType for a content type (image, audio, video, else document). */
export function mediaKindOf(mimeType: string): "image" | "audio" | "video" | "document" {
  if (mimeType.startsWith("image/")) return "image";
  if (mimeType.startsWith("audio/")) return "audio";
  if (mimeType.startsWith("video/")) return "video";
  return "document";
}

/** Types a browser may render inline; everything else is forced to download. */
export const INLINE_TYPES = new Set([
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "audio/ogg",
  "audio/mpeg",
  "audio/mp4",
  "audio/wav",
  "video/mp4",
  "video/webm",
  "video/quicktime",
  "application/pdf",
]);
