/**
 * A token bucket per key (user, or client address in local mode): `perMinute` lookups a minute, with
 * bursts up to the same number. 0 turns it off.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes `cost` tokens at once (a batch reserves one per id), or none; returns the seconds to wait for
   * enough of them. A cost above the bucket's size can never be met: check `capacity` first.
   */
  take(key: string, cost = 1): { ok: true } | { ok: false; retryAfterSeconds: number } {
    if (this.perMinute <= 0) return { ok: true };
    const now = this.now();
    const perMs = this.perMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, updatedAt: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.updatedAt) * perMs);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 10_000) this.prune(now);
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return { ok: true };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((cost - bucket.tokens) / perMs / 1000)) };
  }

  /** The most tokens one take can ever get (Infinity when there is no limit). */
  get capacity(): number {
    return this.perMinute <= 0 ? Number.POSITIVE_INFINITY : this.perMinute;
  }

  private prune(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.updatedAt) * (this.perMinute / 60_000) >= this.perMinute) this.buckets.delete(key);
    }
  }
}
