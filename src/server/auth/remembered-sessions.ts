/**
 * Which user each session token last resolved to on this instance, for a few minutes: read only while the
 * shared store cannot be asked, and only for a print (export-route.ts), whose paper exists whatever the
 * answer, so that its audit line still names who printed. Keyed by the token's hash (as the store is),
 * never the token; it holds what the session said (the user, the role), never candidate data.
 *
 * An entry is made only by a session the store answered as valid, and ends `windowMs` after that answer, or
 * when the session itself would (its maximum age, its idle time), whichever comes first; a sign-out on this
 * instance, or the store answering that the session is gone, takes it out at once. A forged or unknown
 * token finds nothing. At most `max` entries, the one seen longest ago going first.
 */

export interface RememberedOptions {
  windowMs: number;
  max: number;
  now: () => number;
}

interface Entry<T> {
  value: T;
  until: number;
}

export class RememberedSessions<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly options: RememberedOptions) {}

  /** `key` resolved to `value` just now; the session itself ends at `endsAt`. */
  remember(key: string, value: T, endsAt: number): void {
    const until = Math.min(this.options.now() + this.options.windowMs, endsAt);
    this.entries.delete(key);
    if (until <= this.options.now()) return;
    this.entries.set(key, { value, until });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.options.max) break;
      this.entries.delete(oldest);
    }
  }

  /** What `key` last resolved to, if that was within the window and the session has not ended since. */
  recall(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.options.now() < entry.until) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}
