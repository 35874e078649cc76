import { availableParallelism } from 'node:os';
import { LARGEST_SHOWN_PIXELS } from '../../kyc/contract/picture-size.ts';
import { SNIFF_BYTES, sniffImageType } from '../../kyc/contract/picture-type.ts';
import { type Preview, PreviewPool, type PreviewTurn } from './preview-pool.ts';

/**
 * A large picture's preview for an answer in parts (multipart-answer.ts): downscaled to what the page
 * shows, turned upright by its EXIF orientation, re-encoded as JPEG without metadata. The service's
 * picture is not trusted. Its type is read from its first bytes before anything else, and only JPEG, PNG
 * and WebP (what identity documents are photographed and scanned as) are ever decoded: an SVG is a
 * program whose rendering no time limit interrupts, and TIFF, PDF and the rest are formats whose decoders
 * sharp and libvips advise against for untrusted input. Those are named on the page and offered as a
 * download, never decoded. What is decoded is decoded in a preview process (preview-pool.ts), refused
 * past a pixel count read from its header, and killed at its time limit; any picture that gets no preview
 * simply has its full bytes follow as they would anyway.
 */

export interface PreviewLimits {
  /** Pictures of at most this many bytes are sent whole only: a preview would save little. */
  thresholdBytes: number;
  /** The preview's long side, in pixels: the page's picture card at twice its CSS size. */
  longSide: number;
  /** Width × height past which a picture is not decoded at all. */
  maxInputPixels: number;
  /** Time for one picture; past it the picture gets no preview, and its process is killed. */
  timeLimitMs: number;
  /**
   * Time an answer waits for its previews, together, once its record part is written; past it the
   * pictures follow without those not yet made, and those not yet begun are not made (parts-writer.ts).
   */
  waitMs: number;
}

export const PREVIEW_LIMITS: PreviewLimits = {
  thresholdBytes: 300 * 1024,
  longSide: 640,
  // 50 megapixels: above any ID scanner's or phone's main camera (8160 × 6120); a 6 MB JPEG is far below it.
  // The page shows no picture above it either (picture-size.ts): one past it gets no preview, and no <img>.
  maxInputPixels: LARGEST_SHOWN_PIXELS,
  timeLimitMs: 5000,
  // One picture's time limit: a lookup alone has its previews well within it (0.2 s each, 0.3 s more to start
  // a process), and while every lookup slot is taken its pictures follow within it all the same.
  waitMs: 5000,
};

/** The types ever decoded for a preview, by the MIME type sniffed from their bytes (picture-type.ts). */
export const DECODED_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** Whether bytes of this sniffed MIME type are ever decoded for a preview. */
export const isDecoded = (mime: string) => DECODED_TYPES.has(mime);

/**
 * Pictures being decoded at once in this process, whatever the number of lookups: one core less than the
 * machine has, and at most two. On two cores that is one: with two, /healthz's p99 while four lookups'
 * previews were made was 70-90 ms, with one 35-60 ms (docs/performance.md), the four lookups taking a
 * tenth longer. They run in processes of their own, so they never take a thread of this one's.
 */
export const previewPool = new PreviewPool(Math.max(1, Math.min(2, availableParallelism() - 1)));

/** The preview of `bytes`, or why there is none; made by `pool`, in `turn`'s line when one is named. Never throws. */
export async function makePreview(
  bytes: Buffer,
  limits: PreviewLimits = PREVIEW_LIMITS,
  pool: PreviewPool = previewPool,
  turn?: PreviewTurn,
): Promise<Preview> {
  const type = sniffImageType(bytes.subarray(0, SNIFF_BYTES));
  if (!isDecoded(type.mime))
    return { ok: false, problem: `not decoded: a file of ${type.label === 'unknown' ? 'an unknown type' : `type ${type.label}`}` };
  return pool.run({ bytes, longSide: limits.longSide, maxInputPixels: limits.maxInputPixels, timeLimitMs: limits.timeLimitMs }, turn);
}
