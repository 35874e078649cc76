import type http from 'node:http';
import zlib from 'node:zlib';
import type { ArchivingKey, EnvironmentInfo } from '../kyc/contract/api.ts';
import { ARCHIVES_ON_EXTRACT_SETTING, archivesOnExtract } from '../kyc/contract/archiving.ts';
import { type ArchivingFindings, findingName, findingsInStore } from './archiving-findings.ts';
import { type Failure, STORE_UNAVAILABLE } from './http-reply.ts';
import { createMemoryStore, StoreUnavailableError } from './state/store.ts';

/**
 * "Archive after extract" (a key setting of the service): every full-level lookup with such a key makes
 * the service delete the candidate's identity data seconds later. Nothing tells in advance; the first full
 * answer does, by a `willArchiveAtDate` close to the lookup. From then on full lookups are refused (409),
 * unless the operator accepts it. The finding is kept where every instance and the next start read it
 * (archiving-findings.ts), per environment and key.
 */
export interface ArchivingGuard {
  /** A full-level lookup may go ahead: undefined; or why not (the finding, or a finding that cannot be read). */
  refusal(): Promise<Failure | undefined>;
  /** A full-level answer arrived for a lookup made at `lookupAtMs`, carrying this willArchiveAtDate (if any). */
  observe(willArchiveAtDate: unknown, lookupAtMs: number): Promise<void>;
  /** For /api/meta: undefined until detected (or while the finding cannot be read). */
  state(): Promise<ArchivingKey | undefined>;
}

export interface ArchivingGuardOptions {
  accept: boolean;
  warn: (line: string) => void;
  /** The environment whose key this is: its name keys the finding, its label is named in the warnings. */
  environment?: Pick<EnvironmentInfo, 'name' | 'label'>;
  /** Its full key, of which only a fingerprint is kept (default: none, for tests). */
  apiKey?: string;
  /** Where findings are kept (default: in this process only). */
  findings?: ArchivingFindings;
  now?: () => number;
}

export function createArchivingGuard(options: ArchivingGuardOptions): ArchivingGuard {
  const now = options.now ?? Date.now;
  const findings = options.findings ?? findingsInStore(createMemoryStore(), () => 'this process only');
  const name = findingName(options.environment?.name ?? 'default', options.apiKey ?? '');
  const of = options.environment ? ` of ${options.environment.label}` : '';
  // Found here and not yet recorded (or the store refused it): refused here all the same, meanwhile.
  let pending: string | undefined;
  let recording: Promise<boolean> | undefined;
  // This process has said so in its log (once, whether it found it or read it).
  let told = false;
  const recordPending = (): Promise<boolean> => {
    recording ??= findings.record(name, pending!).then(
      (stored) => {
        pending = undefined;
        recording = undefined;
        return stored;
      },
      (error: unknown) => {
        recording = undefined;
        throw error;
      },
    );
    return recording;
  };
  const read = async (): Promise<string | undefined> => {
    if (pending === undefined) return findings.read(name);
    void recordPending().catch(() => {});
    return pending;
  };
  const tell = (line: string) => {
    told = true;
    options.warn(line);
  };
  return {
    async refusal() {
      let detectedAt: string | undefined;
      try {
        detectedAt = await read();
      } catch (error) {
        return unreadable(error);
      }
      if (detectedAt === undefined) return undefined;
      if (!told) tell(recalledWarning(of, detectedAt, findings.describe(name), options.accept));
      return options.accept ? undefined : refusalOf();
    },
    async observe(willArchiveAtDate, lookupAtMs) {
      const at = archivesOnExtract(willArchiveAtDate, lookupAtMs);
      if (!at || pending !== undefined) return;
      pending = new Date(now()).toISOString();
      let stored: boolean;
      try {
        stored = await recordPending();
      } catch (error) {
        return tell(
          `${detectedWarning(of, at, lookupAtMs, options.accept)} It could not be recorded (${describeError(error)}): this instance refuses meanwhile, and tries again.`,
        );
      }
      // Another lookup or instance found it first, and said so.
      if (stored) tell(`${detectedWarning(of, at, lookupAtMs, options.accept)} Kept in ${findings.describe(name)}.`);
    },
    async state() {
      const detectedAt = await read().catch(() => undefined);
      return detectedAt === undefined ? undefined : { detectedAt, accepted: options.accept };
    },
  };
}

function refusalOf(): Failure {
  return {
    status: 409,
    code: 'archiving_key',
    message: `This server's KYC API key archives identity data after each full lookup ("archive after extract"): the service deletes a candidate's identity data seconds after it is looked up. To keep candidates' data, full lookups are refused. An administrator must configure a key without "archive after extract", or set ${ARCHIVES_ON_EXTRACT_SETTING}=accept to look anyway.`,
  };
}

/** Whether the key was found to archive cannot be read: a full lookup does not go ahead blind. */
function unreadable(error: unknown): Failure {
  if (error instanceof StoreUnavailableError) return STORE_UNAVAILABLE;
  return {
    status: 503,
    code: 'store_unavailable',
    message:
      'Candidate Lookup cannot read its record of whether this API key deletes identity data, so full lookups are refused for now. An administrator must check the directory of AUDIT_LOG.',
    headers: { 'Retry-After': '5' },
  };
}

function detectedWarning(of: string, at: Date, lookupAtMs: number, accept: boolean): string {
  const seconds = Math.round((at.getTime() - lookupAtMs) / 1000);
  return (
    `WARNING: the KYC API key${of} archives identity data after each full lookup ("archive after extract"): a full answer ` +
    `scheduled the candidate's identity data for deletion ${seconds} s after the lookup. ` +
    (accept
      ? `${ARCHIVES_ON_EXTRACT_SETTING}=accept is set: full lookups go on, and each one deletes what it shows.`
      : `Full lookups are refused from now on (409 archiving_key); use a key without "archive after extract", or set ${ARCHIVES_ON_EXTRACT_SETTING}=accept.`)
  );
}

function recalledWarning(of: string, detectedAt: string, where: string, accept: boolean): string {
  return (
    `WARNING: the KYC API key${of} archives identity data after each full lookup ("archive after extract"): found at ${detectedAt}, ` +
    `kept in ${where}. ` +
    (accept
      ? `${ARCHIVES_ON_EXTRACT_SETTING}=accept is set: full lookups go on, and each one deletes what it shows.`
      : `Full lookups are refused (409 archiving_key); replace the key with one without "archive after extract" (a new key starts clean), or set ${ARCHIVES_ON_EXTRACT_SETTING}=accept.`)
  );
}

function describeError(error: unknown): string {
  if (error instanceof StoreUnavailableError) return 'Redis cannot be reached';
  return (error as NodeJS.ErrnoException).code ?? 'an error';
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
