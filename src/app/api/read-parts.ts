import {
  isPartOf,
  PART_NAME_HEADER,
  type PictureReference,
  pictureOfPreview,
  pictureReferenceSchema,
  recordPartName,
  statusPartName,
} from '../../kyc/contract/picture-parts.ts';
import { parseJsonKeepingNumbers } from '../../kyc/contract/number-text.ts';
import { isTooLargeToShow, type PictureSize, pictureSize, SIZE_HEAD_BYTES } from '../../kyc/contract/picture-size.ts';
import { SNIFF_BYTES, sniffImageType } from '../../kyc/contract/picture-type.ts';
import { ApiError, INTERRUPTED_MESSAGE } from './api-error.ts';
import { headOf, PartReader, PartsCutShort, type RawPart } from './part-reader.ts';
import type { PictureParts } from './picture-parts.ts';

/**
 * An answer in parts (picture-parts.ts in the contract), read as it streams (part-reader.ts): the first
 * part (the status level, or from a server without one the record) as soon as it is in, the record from
 * the next, then each preview and picture part the moment it completes, its Blob made from the network's
 * chunks as they came. Parts are told apart by their Content-ID, not by their order.
 */

/** The part an answer in parts opened with: its status level, or (from a server without one) its record. */
export interface PartsStart {
  boundary: string;
  first: { kind: 'status' | 'record'; envelope: unknown };
  /** The record part (the next one but previews and pictures, which never come before it); throws ApiError. */
  record: () => Promise<unknown>;
  /** Reads the preview and picture parts into `parts`, to the end of the answer. */
  rest: (parts: PictureParts) => Promise<void>;
  cancel: () => void;
}

/** Bytes of the whole answer received so far, reported as they come. */
export type OnBytes = (received: number) => void;

const kindOf = (part: RawPart, boundary: string): 'status' | 'record' | 'other' => {
  const name = part.headers[PART_NAME_HEADER];
  if (name === statusPartName(boundary)) return 'status';
  // A server of before the status part named no first part: it was the record.
  return name === undefined || name === recordPartName(boundary) ? 'record' : 'other';
};

export async function readFirstPart(response: Response, onBytes: OnBytes): Promise<PartsStart> {
  const boundary = /boundary="?([^";]{1,70})"?/.exec(response.headers.get('content-type') ?? '')?.[1];
  if (!boundary || !response.body) throw new ApiError('not_json', 'The server said it sent parts, but did not.');
  let received = 0;
  const reader = new PartReader(response.body.getReader(), boundary, (bytes) => {
    received += bytes;
    onBytes(received);
  });
  const next = async () => {
    try {
      return await reader.next();
    } catch (error) {
      reader.cancel();
      throw partsErrorOf(error);
    }
  };
  const first = await next();
  if (!first) throw unreadable('it has no parts');
  const kind = kindOf(first, boundary);
  if (kind === 'other') throw unreadable('a picture came before its record');
  const record = async () => {
    for (let part = await next(); part; part = await next()) {
      const found = kindOf(part, boundary);
      if (found === 'record') return firstPartValue(part);
      if (found === 'other') throw unreadable('a picture came before its record');
    }
    throw new ApiError('interrupted', 'The answer ended before its record. Try again.');
  };
  return {
    boundary,
    first: { kind, envelope: await firstPartValue(first) },
    record,
    rest: (parts) => readPictures(reader, parts),
    cancel: () => reader.cancel(),
  };
}

const unreadable = (what: string) => new ApiError('not_json', `The server's answer in parts could not be read (${what}).`);

function partsErrorOf(error: unknown): ApiError {
  if (error instanceof PartsCutShort) return new ApiError('interrupted', INTERRUPTED_MESSAGE);
  return unreadable(error instanceof Error ? error.message : 'its framing is wrong');
}

async function firstPartValue(part: RawPart): Promise<unknown> {
  const bytes = new Blob(part.chunks as BlobPart[]);
  let text: string;
  try {
    text =
      part.headers['content-encoding'] === 'gzip'
        ? await new Response(bytes.stream().pipeThrough(new DecompressionStream('gzip'))).text()
        : await bytes.text();
  } catch {
    throw unreadable('its first part does not unzip');
  }
  try {
    // The record's numbers as sent, as a whole answer's (fetch-candidate.ts).
    return parseJsonKeepingNumbers(text);
  } catch {
    throw new ApiError('not_json', 'The KYC service sent a response that is not JSON.', { detail: text.slice(0, 200) });
  }
}

/**
 * The envelope's picture references taken out: each `identities.<name>.value` that is a reference to a
 * part of this answer becomes "" in the record (its picture comes in its part), and is listed here.
 */
export function takeReferences(envelope: unknown, boundary: string): Map<string, PictureReference> {
  const references = new Map<string, PictureReference>();
  const identities = (envelope as { data?: { identities?: unknown } } | null)?.data?.identities;
  if (!identities || typeof identities !== 'object') return references;
  for (const [name, attribute] of Object.entries(identities as Record<string, { value?: unknown } | null>)) {
    const reference = pictureReferenceSchema.safeParse(attribute?.value);
    if (!reference.success || !isPartOf(reference.data, boundary)) continue;
    references.set(name, reference.data);
    attribute!.value = '';
  }
  return references;
}

/** Updates of a picture's progress at most this often: a smooth count on a slow link, few renders on a fast one. */
const PROGRESS_EVERY_MS = 100;

async function readPictures(reader: PartReader, parts: PictureParts): Promise<void> {
  const progress = setInterval(() => {
    // Only a picture's own part counts toward its progress: a preview is not the picture.
    const name = reader.partName === undefined ? undefined : parts.nameOf(reader.partName);
    const state = name === undefined ? undefined : parts.get(name);
    if (state?.state !== 'loading') return;
    const bytes = Math.min(state.size, reader.bodyBytes);
    if (bytes !== state.received) parts.update(name!, { ...state, received: bytes });
  }, PROGRESS_EVERY_MS);
  try {
    for (let next = await reader.next(); next; next = await reader.next()) {
      const partName = String(next.headers[PART_NAME_HEADER]);
      const previewOf = pictureOfPreview(partName);
      const name = parts.nameOf(previewOf ?? partName);
      if (name !== undefined) (previewOf ? showPreview : complete)(parts, name, next);
    }
    parts.failRest('The answer ended before this picture arrived. Use Refresh to fetch the candidate again.');
  } catch (error) {
    reader.cancel();
    parts.failRest(
      error instanceof PartsCutShort
        ? 'The connection broke before this picture arrived. Use Refresh to fetch the candidate again.'
        : 'The answer could not be read from here on, so this picture is missing. Use Refresh to fetch the candidate again.',
    );
  } finally {
    clearInterval(progress);
  }
}

/**
 * A preview, shown until its picture is in; like the picture, only ever as a Blob when it is a raster
 * image, and only for a picture that is one: a file of another type is never shown, not even reduced.
 */
function showPreview(parts: PictureParts, name: string, part: RawPart): void {
  const state = parts.get(name)!;
  const type = sniffImageType(headOf(part, SNIFF_BYTES));
  if (state.state !== 'loading' || !type.raster || !state.type.raster) return;
  // The server's previews are 640 px; one that says otherwise is not one, and is not decoded either.
  const pixels = sizeOf(part);
  if (pixels && isTooLargeToShow(pixels)) return;
  parts.update(name, { ...state, preview: new Blob(part.chunks as BlobPart[], { type: type.mime }) });
}

function complete(parts: PictureParts, name: string, part: RawPart): void {
  const state = parts.get(name)!;
  if (state.state !== 'loading') return;
  if (part.size !== state.size) {
    parts.update(name, { state: 'failed', size: state.size, type: state.type, problem: 'This picture arrived incomplete.' });
    return;
  }
  // The type is sniffed again from the bytes themselves: only a raster image is ever given a Blob to show;
  // anything else is kept as octets, to be saved as a file and opened elsewhere if the reviewer wants to.
  const type = sniffImageType(headOf(part, SNIFF_BYTES));
  const bytes = type.raster
    ? { blob: new Blob(part.chunks as BlobPart[], { type: type.mime }), pixels: sizeOf(part) }
    : { file: new Blob(part.chunks as BlobPart[], { type: 'application/octet-stream' }) };
  parts.update(name, { state: 'ready', size: state.size, type, ...bytes });
}

/** The picture's width and height from its header: its first bytes, or all of them for a JPEG whose header is further on. */
function sizeOf(part: RawPart): PictureSize | undefined {
  const size = pictureSize(headOf(part, SIZE_HEAD_BYTES));
  return size ?? (part.size > SIZE_HEAD_BYTES ? pictureSize(headOf(part, part.size)) : undefined);
}
