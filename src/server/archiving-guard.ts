import type http from 'node:http';
import zlib from 'node:zlib';
import type { ArchivingKey } from '../kyc/contract/api.ts';
import { ARCHIVES_ON_EXTRACT_SETTING, archivesOnExtract } from '../kyc/contract/archiving.ts';
import type { Failure } from './http-reply.ts';

/**
 * "Archive after extract" (a key setting of the service): every full-level lookup with such a key makes
 * the service delete the candidate's identity data seconds later. Nothing tells in advance; the first full
 * answer does, by a `willArchiveAtDate` close to the lookup. From then on full lookups are refused (409),
 * unless the operator accepts it. Held in memory, per upstream target.
 */
export interface ArchivingGuard {
  /** A full-level lookup may go ahead: undefined; or why not. */
  refusal(): Failure | undefined;
  /** A full-level answer arrived for a lookup made at `lookupAtMs`, carrying this willArchiveAtDate (if any). */
  observe(willArchiveAtDate: unknown, lookupAtMs: number): void;
  /** For /api/meta: undefined until detected. */
  state(): ArchivingKey | undefined;
}

export function createArchivingGuard(options: {
  accept: boolean;
  warn: (line: string) => void;
  /** The environment whose key this is, named in the warning when there are several. */
  environment?: string;
  now?: () => number;
}): ArchivingGuard {
  const now = options.now ?? Date.now;
  let detected: ArchivingKey | undefined;
  return {
    refusal() {
      if (!detected || options.accept) return undefined;
      return {
        status: 409,
        code: 'archiving_key',
        message: `This server's KYC API key archives identity data after each full lookup ("archive after extract"): the service deletes a candidate's identity data seconds after it is looked up. To keep candidates' data, full lookups are refused. An administrator must configure a key without "archive after extract", or set ${ARCHIVES_ON_EXTRACT_SETTING}=accept to look anyway.`,
      };
    },
    observe(willArchiveAtDate, lookupAtMs) {
      if (detected) return;
      const at = archivesOnExtract(willArchiveAtDate, lookupAtMs);
      if (!at) return;
      detected = { detectedAt: new Date(now()).toISOString(), accepted: options.accept };
      const seconds = Math.round((at.getTime() - lookupAtMs) / 1000);
      options.warn(
        `WARNING: the KYC API key${options.environment ? ` of ${options.environment}` : ''} archives identity data after each full lookup ("archive after extract"): a full answer ` +
          `scheduled the candidate's identity data for deletion ${seconds} s after the lookup. ` +
          (options.accept
            ? `${ARCHIVES_ON_EXTRACT_SETTING}=accept is set: full lookups go on, and each one deletes what it shows.`
            : `Full lookups are refused from now on (409 archiving_key); use a key without "archive after extract", or set ${ARCHIVES_ON_EXTRACT_SETTING}=accept.`),
      );
    },
    state: () => detected,
  };
}

const KEY = '"willArchiveAtDate"';
const KEY_BYTES = Buffer.from(KEY, 'latin1');
const FIELD = /"willArchiveAtDate"\s*:\s*"([^"\\]{1,64})"/;
/** Enough of the previous chunk to complete a key and value cut in two. */
const CARRY = 128;

/**
 * Watches a streamed full record for `"willArchiveAtDate":"…"` as it passes, without holding the body
 * (a full record weighs megabytes); `onFound` is called once, as soon as it is seen. A compressed body is
 * inflated alongside, for the scan only; one in an encoding Node cannot read is not scanned.
 */
export function watchWillArchiveAt(upstreamRes: http.IncomingMessage, onFound: (value: string) => void): void {
  let carry: Buffer = Buffer.alloc(0);
  let found = false;
  const scan = (chunk: Buffer) => {
    if (found) return;
    // The bytes are searched as they are; only a chunk that holds the key is read as text (latin1 maps
    // bytes one to one: the ASCII key and an ISO date read the same, whatever surrounds them).
    const seam = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, KEY_BYTES.length)]) : carry;
    const match =
      seam.includes(KEY_BYTES) || chunk.includes(KEY_BYTES) ? FIELD.exec(carry.toString('latin1') + chunk.toString('latin1')) : null;
    if (!match) {
      carry = Buffer.from(chunk.length >= CARRY ? chunk.subarray(chunk.length - CARRY) : Buffer.concat([carry, chunk]).subarray(-CARRY));
      return;
    }
    found = true;
    onFound(match[1]!);
  };
  const decoder = decoderFor(upstreamRes.headers['content-encoding']);
  if (decoder === null) return;
  if (!decoder) return void upstreamRes.on('data', scan);
  decoder.on('data', scan);
  decoder.on('error', () => {});
  upstreamRes.on('data', (chunk: Buffer) => {
    if (!found) decoder.write(chunk);
  });
  upstreamRes.once('end', () => decoder.end());
  upstreamRes.once('close', () => {
    if (!upstreamRes.complete) decoder.destroy();
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
