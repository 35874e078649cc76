import { availableParallelism } from 'node:os';
import sharp from 'sharp';

/**
 * A large picture's preview for an answer in parts (multipart-answer.ts): downscaled to what the page
 * shows, turned upright by its EXIF orientation, re-encoded as JPEG without metadata. Decoding runs in
 * sharp's (libvips') thread pool, never on the event loop. The service's picture is not trusted: it is
 * refused past a pixel count (read from its header, before anything is decoded), given a time limit, and
 * any picture sharp cannot read simply gets no preview; its full bytes follow as they would anyway.
 */

export interface PreviewLimits {
  /** Pictures of at most this many bytes are sent whole only: a preview would save little. */
  thresholdBytes: number;
  /** The preview's long side, in pixels: the page's picture card at twice its CSS size. */
  longSide: number;
  /** Width × height past which a picture is not decoded at all. */
  maxInputPixels: number;
  /** Time for one picture; past it the picture gets no preview (and sharp stops working on it). */
  timeLimitMs: number;
}

export const PREVIEW_LIMITS: PreviewLimits = {
  thresholdBytes: 300 * 1024,
  longSide: 640,
  // 50 megapixels: above any ID scanner's or phone's main camera (8192 × 6144); a 6 MB JPEG is far below it.
  maxInputPixels: 50_000_000,
  timeLimitMs: 5000,
};

export type Preview = { ok: true; bytes: Buffer; width: number; height: number } | { ok: false; problem: string };

/** The preview of `bytes`, or why there is none. Never throws. */
export async function makePreview(bytes: Buffer, limits: PreviewLimits = PREVIEW_LIMITS): Promise<Preview> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeUp = new Promise<Preview>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, problem: 'time limit' }), limits.timeLimitMs);
  });
  try {
    return await Promise.race([reduce(bytes, limits), timeUp]);
  } finally {
    clearTimeout(timer);
  }
}

async function reduce(bytes: Buffer, limits: PreviewLimits): Promise<Preview> {
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: limits.maxInputPixels, failOn: 'error', autoOrient: true })
      .resize(limits.longSide, limits.longSide, { fit: 'inside', withoutEnlargement: true })
      // A transparent PNG on white, as the page's card shows it.
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 78 })
      // Whole seconds only: sharp's own limit stops the work; the timer above answers at the limit.
      .timeout({ seconds: Math.max(1, Math.ceil(limits.timeLimitMs / 1000)) })
      .toBuffer({ resolveWithObject: true });
    return { ok: true, bytes: data, width: info.width, height: info.height };
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : 'not decodable' };
  }
}

/**
 * At most `slots` lookups make previews at once in this process; the others wait their turn, in order.
 * A lookup's previews take one slot together, so one candidate's four pictures are reduced side by side
 * (sharp's pool decides how many threads) while a fifth lookup's wait.
 */
export class PreviewSlots {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly slots: number) {}

  get inUse(): number {
    return this.busy;
  }

  async take(): Promise<() => void> {
    if (this.busy < this.slots) this.busy++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next in line.
      if (next) next();
      else this.busy--;
    };
  }
}

/** Lookups making previews at once in a process, unless configured (limits.previewLookupsAtOnce). */
export const DEFAULT_PREVIEW_LOOKUPS = 4;

/**
 * Pictures being decoded at once in this process, whatever the number of lookups: one core less than the
 * machine has, and at most two of libuv's four threads, so that the file system (the audit line every
 * lookup writes first), zlib and crypto always find a thread free, and the event loop a core. On two
 * cores that is one: with two, /healthz's p99 while four lookups' previews were made was 70-90 ms, with
 * one 35-60 ms (docs/performance.md), the four lookups taking a tenth longer.
 */
export const previewJobs = new PreviewSlots(Math.max(1, Math.min(2, availableParallelism() - 1)));
