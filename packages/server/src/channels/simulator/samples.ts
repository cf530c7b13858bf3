/**
 * Small built-in files the simulator sends when a test or a person injects media without bytes.
 * Each starts with the real magic bytes of its type, so content sniffing sees what it claims to be.
 * They are placeholders (a 1×1 image, a one-page PDF, headers of an Ogg/Opus and an MP4 file), not
 * playable recordings: send real bytes through `data` (base64) for that.
 */

const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

const PDF = `%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >> endobj
trailer << /Root 1 0 R >>
%%EOF
`;

function oggOpusHeader(): Buffer {
  const opusHead = Buffer.concat([
    Buffer.from("OpusHead", "ascii"),
    Buffer.from([1, 1]), // version, channels (mono)
    Buffer.from([0x38, 0x01]), // pre-skip 312
    Buffer.from([0x80, 0xbb, 0x00, 0x00]), // 48000 Hz
    Buffer.from([0, 0, 0]), // output gain, mapping family
  ]);
  const header = Buffer.alloc(27);
  header.write("OggS", 0, "ascii");
  header[5] = 0x02; // beginning of stream
  header.writeUInt32LE(0x42414c43, 14); // stream serial
  header[26] = 1; // one segment
  return Buffer.concat([header, Buffer.from([opusHead.length]), opusHead]);
}

function mp4Header(): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write("ftypisom", 4, "ascii");
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write("isomiso2", 16, "ascii");
  return ftyp;
}

export type SampleKind = "image" | "audio" | "video" | "document";

export function sampleFile(kind: SampleKind): { data: Buffer; mimeType: string; fileName: string } {
  switch (kind) {
    case "image":
      return { data: Buffer.from(PNG_1X1, "base64"), mimeType: "image/png", fileName: "foto.png" };
    case "audio":
      return { data: oggOpusHeader(), mimeType: "audio/ogg; codecs=opus", fileName: "audio.ogg" };
    case "video":
      return { data: mp4Header(), mimeType: "video/mp4", fileName: "video.mp4" };
    case "document":
      return { data: Buffer.from(PDF, "ascii"), mimeType: "application/pdf", fileName: "documento.pdf" };
  }
}
