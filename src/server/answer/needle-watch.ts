import type { NeedleSet } from './needle-set.ts';

/**
 * The key searched for in an answer's raw bytes, as they pass (answer-guard.ts) or are read (key-watch.ts):
 * an upstream, or a wrong KYC_BASE_URL such as an echo service, that reflects the Authorization header
 * would otherwise hand the key to the browser.
 */

/** Keys shorter than this are not searched for: they would match ordinary text, and no issued key is this short. */
export const MIN_SEARCHED_KEY_LENGTH = 8;

/** The byte strings that give a key away: as sent, and as a JSON string would escape it. */
export function keyNeedles(keys: readonly (string | undefined)[]): Buffer[] {
  const forms = new Set<string>();
  for (const key of keys) {
    if (!key || key.length < MIN_SEARCHED_KEY_LENGTH) continue;
    const escaped = JSON.stringify(key).slice(1, -1);
    for (const form of [key, escaped, escaped.replaceAll('/', '\\/')]) forms.add(form);
  }
  return [...forms].map((form) => Buffer.from(form));
}

/**
 * Finds any needle in a stream of chunks, also one split across chunks: each chunk is searched with the
 * last (longest needle - 1) bytes before it. What may be passed on is its reader's to tell: every byte but
 * those last ones of what was searched (key-watch.ts, `clearThrough`), so that not even part of a key is
 * passed on ahead of the check.
 */
export class NeedleWatch {
  /** The last bytes searched, as many as a needle that the next chunk ends may have started in. */
  private held: Buffer = Buffer.alloc(0);
  private readonly keep: number;

  constructor(private readonly needles: NeedleSet) {
    this.keep = Math.max(0, needles.longest - 1);
  }

  /**
   * Whether a needle stands in what has been pushed so far, seen with this chunk. `read`: this read of the
   * chunk, whose copy into WebAssembly another scan may share (byte-scan.ts).
   */
  push(chunk: Buffer, read?: object): boolean {
    if (this.needles.size === 0) return false;
    if (chunk.length < this.keep) {
      const window = Buffer.concat([this.held, chunk]);
      this.held = window.subarray(Math.max(0, window.length - this.keep));
      return this.needles.in(window);
    }
    // Across the seam (what was held and the start of this chunk), then the chunk itself: no copy of it.
    const seam = Buffer.concat([this.held, chunk.subarray(0, this.keep)]);
    this.held = Buffer.from(chunk.subarray(chunk.length - this.keep));
    return this.needles.in(seam) || this.needles.in(chunk, read);
  }
}
