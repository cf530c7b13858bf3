import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { ACCESS_TOKEN_TTL_SECONDS, type AccessClaims } from "@balcao/shared";
import { AppError } from "../../http/errors";

const ISSUER = "balcao";
const AUDIENCE = "balcao-api";

/** How many verified access tokens a process remembers (~0.5 KB each): the sessions active at once. */
const VERIFIED_TOKENS_MAX = 2000;

export class TokenService {
  private readonly accessKey: Uint8Array;
  /**
   * Access tokens already verified, by their exact text: the signature of the same bytes cannot become valid
   * or invalid later, so each token's is checked once (jose's WebCrypto HMAC costs ~0.15 ms per request); its
   * expiry is checked every time, and revocation is the session row's, read per request by the caller.
   */
  private readonly verified = new Map<string, Readonly<AccessClaims & { exp: number }>>();

  constructor(
    accessSecret: string,
    private readonly refreshSecret: string,
  ) {
    this.accessKey = new TextEncoder().encode(accessSecret);
  }

  signAccess(claims: AccessClaims): Promise<string> {
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(String(claims.id))
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
      .sign(this.accessKey);
  }

  /**
   * 403 ERR_TOKEN_EXPIRED when only the expiry failed (the client refreshes); 401 for anything else,
   * including a token without `exp` (it would never expire) — `exp` is returned in seconds.
   */
  async verifyAccess(token: string): Promise<AccessClaims & { exp: number }> {
    const known = this.verified.get(token);
    if (known) {
      // jose's rule: expired once `exp` is not after the current second.
      if (known.exp > Math.floor(Date.now() / 1000)) return known;
      this.verified.delete(token);
      throw new AppError("ERR_TOKEN_EXPIRED", 403);
    }
    const claims = await this.verifySignature(token);
    if (this.verified.size >= VERIFIED_TOKENS_MAX) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, claims);
    return claims;
  }

  private async verifySignature(token: string): Promise<Readonly<AccessClaims & { exp: number }>> {
    try {
      const { payload } = await jwtVerify(token, this.accessKey, {
        algorithms: ["HS256"],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ["exp", "iat", "sub"],
      });
      const { id, companyId, profile, sid } = payload as Record<string, unknown>;
      if (typeof id !== "number" || typeof companyId !== "number" || typeof sid !== "string" || typeof profile !== "string")
        throw new AppError("ERR_SESSION_EXPIRED", 401);
      return Object.freeze({ id, companyId, profile, sid, super: payload.super === true, exp: payload.exp! });
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new AppError("ERR_TOKEN_EXPIRED", 403);
      throw new AppError("ERR_SESSION_EXPIRED", 401);
    }
  }

  /** A new opaque refresh token for session `sid`: `<sid>.<random>`; only its HMAC is stored. */
  newRefreshToken(sid: string = randomUUID()): { sid: string; token: string; hash: string } {
    const token = `${sid}.${randomBytes(32).toString("base64url")}`;
    return { sid, token, hash: this.hashRefresh(token) };
  }

  hashRefresh(token: string): string {
    return createHmac("sha256", this.refreshSecret).update(token).digest("base64url");
  }

  static sessionIdOf(token: string): string | null {
    const sid = token.split(".")[0] ?? "";
    return /^[0-9a-f-]{36}$/.test(sid) ? sid : null;
  }

  static sameHash(a: string | null | undefined, b: string): boolean {
    if (!a || a.length !== b.length) return false;
    return timingSafeEqual(Buffer.from(a), Buffer.from(b));
  }
}
