import type http from 'node:http';
import zlib from 'node:zlib';

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

/** undefined: not encoded; null: an encoding this server cannot read. */
function decoderFor(header: string | string[] | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined | null {
  const encoding = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return undefined;
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  return null;
}
