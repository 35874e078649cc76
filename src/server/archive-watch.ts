import type http from 'node:http';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import type { UpstreamBody } from './upstream-body.ts';

/**
 * What a full-level answer's body showed of `willArchiveAtDate`: its value; `null` when the body was read
 * to its end without it; `undefined` when it was not read to its end (cut, or an encoding Node cannot read).
 */
export type Scan = string | null | undefined;

const KEY = '"willArchiveAtDate"';
const KEY_BYTES = Buffer.from(KEY, 'latin1');
const FIELD = /"willArchiveAtDate"\s*:\s*"([^"\\]{1,64})"/;
/** Enough of the previous chunk to complete a key and value cut in two. */
const CARRY = 128;

/**
 * Watches a streamed full record for `"willArchiveAtDate":"…"` as it passes, without holding the body
 * (a full record weighs megabytes); `onDone` is called once: as soon as it is seen, or when the body ends
 * or breaks off without it. A compressed body is inflated alongside, for the scan only.
 */
export function watchWillArchiveAt(upstreamRes: http.IncomingMessage, onDone: (scan: Scan) => void): void {
  let carry: Buffer = Buffer.alloc(0);
  let done = false;
  const finish = (scan: Scan) => {
    if (done) return;
    done = true;
    onDone(scan);
  };
  const scan = (chunk: Buffer) => {
    if (done) return;
    // The bytes are searched as they are; only a chunk that holds the key is read as text (latin1 maps
    // bytes one to one: the ASCII key and an ISO date read the same, whatever surrounds them).
    const seam = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, KEY_BYTES.length)]) : carry;
    const match =
      seam.includes(KEY_BYTES) || chunk.includes(KEY_BYTES) ? FIELD.exec(carry.toString('latin1') + chunk.toString('latin1')) : null;
    if (!match) {
      carry = Buffer.from(chunk.length >= CARRY ? chunk.subarray(chunk.length - CARRY) : Buffer.concat([carry, chunk]).subarray(-CARRY));
      return;
    }
    finish(match[1]!);
  };
  const decoder = decoderFor(upstreamRes.headers['content-encoding']);
  if (decoder === null) return void finish(undefined);
  // Without the field only once every byte passed the scan: a body left unread is not known to lack it.
  let ended = false;
  upstreamRes.once('end', () => {
    ended = true;
    if (decoder) decoder.end();
    else finish(null);
  });
  upstreamRes.once('close', () => {
    if (ended) return;
    decoder?.destroy();
    finish(undefined);
  });
  if (!decoder) return void upstreamRes.on('data', scan);
  decoder.on('data', scan);
  decoder.once('end', () => finish(null));
  decoder.on('error', () => finish(undefined));
  upstreamRes.on('data', (chunk: Buffer) => {
    if (!done) decoder.write(chunk);
  });
}

/**
 * A full-level answer is read to its end for `willArchiveAtDate`, whoever else stops reading it: the
 * service scheduled the deletion when it answered, read or not. The answer's readers get a copy (returned)
 * that they may destroy (a refused answer), and that ends when the browser leaves (`until`); the service's
 * body is then read on and dropped until the field is seen or the body ends, never past `maxBytes`, and
 * no longer than the service's idle timeout allows (upstream-client.ts). `onDone` as watchWillArchiveAt's.
 */
export function readToTheEnd(
  source: http.IncomingMessage,
  options: { maxBytes: number; until?: http.ServerResponse; onDone: (scan: Scan) => void },
): UpstreamBody {
  const copy = Object.assign(new PassThrough(), { headers: source.headers, statusCode: source.statusCode, complete: false });
  // Its readers listen when they care; a copy nobody reads any more must not throw.
  copy.on('error', () => {});
  let known = false;
  let received = 0;
  watchWillArchiveAt(source, (scan) => {
    known = true;
    if (copy.destroyed) source.destroy();
    options.onDone(scan);
  });
  source.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (!copy.destroyed) {
      if (!copy.write(chunk)) source.pause();
    } else if (received > options.maxBytes) source.destroy();
  });
  copy.on('drain', () => source.resume());
  source.once('end', () => {
    copy.complete = true;
    copy.end();
  });
  source.once('close', () => {
    if (!copy.complete) copy.destroy(new Error('the response of the KYC service broke off'));
  });
  // Nobody reads the copy any more: the body is read on (and dropped) until the field is known.
  copy.once('close', () => {
    if (known || received > options.maxBytes) source.destroy();
    else source.resume();
  });
  const until = options.until;
  if (until) {
    const leave = () => {
      if (!until.writableFinished) copy.destroy(new Error('the browser went away'));
    };
    if (until.closed) leave();
    else until.once('close', leave);
  }
  return copy;
}

/** undefined: not encoded; null: an encoding this server cannot read. */
function decoderFor(header: string | string[] | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined | null {
  const encoding = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return undefined;
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  return null;
}
