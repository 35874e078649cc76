import { meros, type Part } from 'meros/browser';
import { isPartOf, PART_NAME_HEADER, type PictureReference, pictureReferenceSchema } from '../../kyc/contract/picture-parts.ts';
import { SNIFF_BYTES, sniffImageType } from '../../kyc/contract/picture-type.ts';
import { LookupError } from './lookup-error.ts';
import type { PictureParts } from './picture-parts.ts';

/**
 * An answer in parts (picture-parts.ts in the contract), read with meros as it streams: the first part
 * as soon as it is in, then each picture part the moment it completes.
 *
 * meros reads parts as UTF-8 text, which would mangle a picture's bytes; so each byte is handed to it as
 * the character of the same code (Latin-1, written as UTF-8), and turned back into the byte here.
 * Boundaries and headers are ASCII, so meros finds them as it would in the bytes.
 */

/** Each byte as the UTF-8 of the character of its code: 0x00-0x7f as themselves, the others in two bytes. */
function widen(bytes: Uint8Array): Uint8Array {
  let high = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) high++;
  if (high === 0) return bytes;
  const out = new Uint8Array(bytes.length + high);
  let j = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte < 0x80) out[j++] = byte;
    else {
      out[j++] = 0xc0 | (byte >> 6);
      out[j++] = 0x80 | (byte & 0x3f);
    }
  }
  return out;
}

/** Bytes handed to meros at once: fewer, larger pieces (it searches what it holds again for each one). */
const COALESCE_BYTES = 1024 * 1024;
/** …or after this long, so that a slow link's bytes are not held back (each part completes in time). */
const COALESCE_MS = 30;
/** The first bytes go through at once: the record's part is among them. */
const PASS_FIRST_BYTES = 256 * 1024;

/**
 * Between the network and meros: counts the bytes as they arrive (`onBytes`), gathers them into larger
 * pieces, and widens each byte into the character meros will read it as.
 */
function bridge(onBytes: (n: number) => void): TransformStream<Uint8Array, Uint8Array> {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let output: TransformStreamDefaultController<Uint8Array> | undefined;
  const release = () => {
    clearTimeout(timer);
    timer = undefined;
    if (heldBytes === 0 || !output) return;
    const joined = held.length === 1 ? held[0]! : new Uint8Array(heldBytes);
    if (held.length > 1) {
      let at = 0;
      for (const chunk of held) {
        joined.set(chunk, at);
        at += chunk.byteLength;
      }
    }
    held = [];
    heldBytes = 0;
    output.enqueue(widen(joined));
  };
  return new TransformStream({
    transform(chunk, controller) {
      output = controller;
      onBytes(chunk.byteLength);
      total += chunk.byteLength;
      held.push(chunk);
      heldBytes += chunk.byteLength;
      if (total <= PASS_FIRST_BYTES || heldBytes >= COALESCE_BYTES) release();
      else timer ??= setTimeout(release, COALESCE_MS);
    },
    flush() {
      release();
    },
  });
}

/** A part's text from meros back into the bytes it came from. */
export function bytesOf(text: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

export interface PartsRead {
  /** The first part: the envelope, with each picture's value a reference (not yet checked). */
  envelope: unknown;
  boundary: string;
  /** Reads the picture parts into `parts`, to the end of the answer. */
  rest: (parts: PictureParts) => Promise<void>;
}

/** Bytes of the whole answer received so far, reported as they come. */
export type OnBytes = (received: number) => void;

export async function readFirstPart(response: Response, onBytes: OnBytes): Promise<PartsRead> {
  const contentType = response.headers.get('content-type') ?? '';
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1] ?? '-';
  let received = 0;
  const counted = response.body!.pipeThrough(
    bridge((n) => {
      received += n;
      onBytes(received);
    }),
  );
  const read = await meros<unknown>(new Response(counted, { headers: { 'content-type': contentType } }));
  if (!(Symbol.asyncIterator in read)) throw new LookupError('not_json', 'The server said it sent parts, but did not.');
  const iterator = read[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw incomplete();
  const envelope = await firstPartValue(first.value);
  return {
    envelope,
    boundary,
    rest: (parts) => readPictures(iterator, parts, () => received),
  };
}

const incomplete = () => new LookupError('interrupted', 'The connection broke while the response was downloading. Try again.');

async function firstPartValue(part: Part<unknown, string>): Promise<unknown> {
  if (part.json) return part.body;
  // Not parsed by meros: gzipped (its bytes are not JSON), or not JSON at all.
  let text = new TextDecoder().decode(bytesOf(String(part.body)));
  if (part.headers['content-encoding'] === 'gzip') {
    const unzipped = new Blob([bytesOf(String(part.body))]).stream().pipeThrough(new DecompressionStream('gzip'));
    text = await new Response(unzipped).text();
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new LookupError('not_json', 'The KYC service sent a response that is not JSON.', { detail: text.slice(0, 200) });
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

async function readPictures(iterator: AsyncIterator<Part<unknown, string>>, parts: PictureParts, received: () => number): Promise<void> {
  const order = parts.names();
  let done = 0;
  let partStart = received();
  const progress = setInterval(() => {
    const name = order[done];
    const state = name === undefined ? undefined : parts.get(name);
    if (state?.state !== 'loading') return;
    const bytes = Math.min(state.size, Math.max(0, received() - partStart));
    if (bytes !== state.received) parts.update(name!, { ...state, received: bytes });
  }, PROGRESS_EVERY_MS);
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const name = parts.nameOf(String(next.value.headers[PART_NAME_HEADER]));
      if (name !== undefined) complete(parts, name, next.value);
      done++;
      partStart = received();
    }
    parts.failRest('The answer ended before this picture arrived. Use Refresh to fetch the candidate again.');
  } catch {
    parts.failRest('The connection broke before this picture arrived. Use Refresh to fetch the candidate again.');
  } finally {
    clearInterval(progress);
  }
}

function complete(parts: PictureParts, name: string, part: Part<unknown, string>): void {
  const state = parts.get(name)!;
  const bytes = bytesOf(String(part.body));
  if (bytes.length !== state.size) {
    parts.update(name, { state: 'failed', size: state.size, type: state.type, problem: 'This picture arrived incomplete.' });
    return;
  }
  // The type is sniffed again from the bytes themselves: only a raster image is ever given a Blob to show.
  const type = sniffImageType(bytes.subarray(0, SNIFF_BYTES));
  parts.update(name, { state: 'ready', size: state.size, type, ...(type.raster ? { blob: new Blob([bytes], { type: type.mime }) } : {}) });
}
