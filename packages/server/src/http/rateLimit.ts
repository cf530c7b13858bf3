import { AppError } from "./errors";

/**
 * Fixed-window counter per key, in process memory. Behind several processes each keeps its own count,
 * so the effective limit is per process; good enough against brute force, documented in docs/operations.md.
 */
export class RateLimiter {
  private hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Throws 429 ERR_TOO_MANY_ATTEMPTS when `key` is over its budget; does not count. */
  check(key: string, now = Date.now()): void {
    const entry = this.hits.get(key);
    if (entry && entry.resetAt > now && entry.count >= this.max) {
      throw new AppError("ERR_TOO_MANY_ATTEMPTS", 429, { retryAfter: Math.ceil((entry.resetAt - now) / 1000) });
    }
  }

  hit(key: string, now = Date.now()): void {
    const entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      this.hits.set(key, { count: 1, resetAt: now + this.windowMs });
      if (this.hits.size > 50_000) this.prune(now);
    } else entry.count++;
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private prune(now: number): void {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}
