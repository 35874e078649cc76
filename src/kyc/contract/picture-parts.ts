import { z } from './zod.ts';

/**
 * A lookup answered in parts (`Accept: multipart/mixed`, the format of GraphQL's incremental delivery),
 * each part named by its Content-ID, in this order: the status level (the envelope with only the
 * status-level fields, so the page's header and timeline need not wait for the rest), the record as JSON
 * with each picture's base64 value replaced by a reference to a later part, a downscaled preview of each
 * large picture, then each picture whole as one binary part. A reader must not depend on that order: it
 * names each part by its Content-ID. A client that does not ask gets the plain JSON answer.
 */

export const PARTS_MEDIA_TYPE = 'multipart/mixed';

/** What the browser sends: parts, or plain JSON from a server (or a proxy) that does not offer them. */
export const PARTS_ACCEPT = `${PARTS_MEDIA_TYPE}, application/json;q=0.9`;

/**
 * Pictures the page shows at first, and adds with each "Show more" (picture-gallery.tsx): a record has a
 * handful, but the service may send thousands. The server makes previews of at most this many pictures of
 * one answer (parts-writer.ts): the others' full parts follow as a small picture's do.
 */
export const PICTURES_AT_ONCE = 24;

/** The part header naming a picture part: the reference's `part`, never the attribute's name (no data in headers). */
export const PART_NAME_HEADER = 'content-id';

/** A picture's place in the first part: `identities.<name>.value` is this instead of the base64 text. */
export const pictureReferenceSchema = z.strictObject({
  /** The part's name (see partName). */
  part: z.string(),
  /** Sniffed from the bytes by the server; the part itself is `application/octet-stream` unless a raster image. */
  type: z.string(),
  /** The picture's size in bytes (decoded). */
  size: z.int().check(z.nonnegative()),
});
export type PictureReference = z.infer<typeof pictureReferenceSchema>;

/**
 * `picture-1@<boundary>`, `picture-2@<boundary>`, … in the order the parts follow. The boundary is random
 * for each answer and named only in its Content-Type, so an object the service itself put in a record
 * can never pass for a reference.
 */
export function partName(index: number, boundary: string): string {
  return `picture-${index + 1}@${boundary}`;
}

export function isPartOf(reference: PictureReference, boundary: string): boolean {
  return /^picture-\d+@/.test(reference.part) && reference.part.endsWith(`@${boundary}`);
}

/** The status-level part's name: the envelope with only the status-level fields. */
export function statusPartName(boundary: string): string {
  return `status@${boundary}`;
}

/** The record part's name: the whole envelope, pictures as references. */
export function recordPartName(boundary: string): string {
  return `record@${boundary}`;
}

/**
 * `preview-1@<boundary>`, …: the preview of the picture of the same number (partName), downscaled to
 * what the page shows; a picture may have none (small, or not decodable), and its part follows anyway.
 */
export function previewPartName(index: number, boundary: string): string {
  return `preview-${index + 1}@${boundary}`;
}

/** The part name of the picture a preview part stands for (undefined for any other name). */
export function pictureOfPreview(preview: string): string | undefined {
  const match = /^preview-(\d+)@(.+)$/.exec(preview);
  return match ? `picture-${match[1]}@${match[2]}` : undefined;
}
