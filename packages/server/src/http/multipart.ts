import { AppError } from "./errors";

/**
 * The multipart parser (busboy) reports a truncated or malformed body with plain errors and no status,
 * which used to become 500s (issue 11). They are the client's fault: 400 ERR_INVALID_UPLOAD.
 */
const MALFORMED = [
  /unexpected end of (multipart data|form|file)/i,
  /terminated early due to unexpected end of multipart data/i,
  /^multipart: boundary not found/i,
  /malformed/i,
  /^premature close$/i,
  /^aborted$/i,
];

/** Whether `err` is the parser refusing the body (as opposed to a fault in our own code). */
export function isMalformedMultipart(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (code === "ECONNRESET" || code === "ERR_STREAM_PREMATURE_CLOSE" || code === "FST_MP_PREMATURE_CLOSE") return true;
  return MALFORMED.some((pattern) => pattern.test(err.message));
}

/** Rethrows a parser error as the client error it is; anything else unchanged. */
export function asUploadError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const status = (err as { statusCode?: unknown }).statusCode;
  if (typeof status === "number" && status === 413) return new AppError("ERR_PAYLOAD_TOO_LARGE", 413);
  if (isMalformedMultipart(err)) return new AppError("ERR_INVALID_UPLOAD", 400);
  return err;
}
