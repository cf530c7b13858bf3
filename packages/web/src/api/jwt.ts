import type { AccessClaims } from "@balcao/shared";

/** Reads a JWT's payload without verifying it (the server verifies; the client only needs `sid`). */
export function decodeJwtPayload(token: string | null | undefined): Partial<AccessClaims> | null {
  const part = token?.split(".")[1];
  if (!part) return null;
  try {
    const base64 = part
      .replace(/-/g, "+")
      .replace(/_/g, "/")
      .padEnd(Math.ceil(part.length / 4) * 4, "=");
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as Partial<AccessClaims>;
  } catch {
    return null;
  }
}
