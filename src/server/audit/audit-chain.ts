import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

/**
 * The audit log's hash chain. Each line's `prev` is the SHA-256 (hex) of the previous line's bytes,
 * without its line end; the first line of a chain says `"prev":"start"`. Editing, deleting or inserting
 * a line breaks the link after it. The chain is kept apart from how a line is serialized, so any
 * serializer composes with it: it only needs a JSON object on one line.
 */
export const CHAIN_START = 'start';

const HASH = /^[0-9a-f]{64}$/;

export function lineHash(line: string | Uint8Array): string {
  return createHash('sha256').update(line).digest('hex');
}

/** `{"prev":…,` followed by the rest of the serialized object: `prev` comes first, easy to read. */
export function withPrev(body: string, prev: string): string {
  if (!body.startsWith('{') || !body.endsWith('}')) throw new Error('an audit line must be one JSON object');
  return `{"prev":"${prev}"${body === '{}' ? '}' : `,${body.slice(1)}`}`;
}

/** Chains `bodies` after `head` (undefined: a new chain). Returns the lines and the new head. */
export function chainLines(bodies: readonly string[], head: string | undefined): { lines: string[]; head: string | undefined } {
  const lines: string[] = [];
  let prev = head;
  for (const body of bodies) {
    const line = withPrev(body, prev ?? CHAIN_START);
    lines.push(line);
    prev = lineHash(line);
  }
  return { lines, head: prev };
}

/**
 * What an open audit file ends with: the hash of its last line, whether that line is complete (a failed
 * write or a crash can leave part of a line), or nothing when the file is empty. Reads backwards from the
 * end in chunks, so a long log costs one small read.
 */
export async function readChainHead(handle: FileHandle, size: number): Promise<{ head: string; complete: boolean } | undefined> {
  if (size === 0) return undefined;
  const chunks: Buffer[] = [];
  let position = size;
  let start = -1;
  while (position > 0 && start === -1) {
    const length = Math.min(64 * 1024, position);
    position -= length;
    const chunk = Buffer.alloc(length);
    const { bytesRead } = await handle.read(chunk, 0, length, position);
    chunks.unshift(chunk.subarray(0, bytesRead));
    const tail = Buffer.concat(chunks);
    // The line end of the last line itself does not count: look before it.
    const searchEnd = tail.at(-1) === 0x0a ? tail.length - 2 : tail.length - 1;
    const newline = searchEnd >= 0 ? tail.lastIndexOf(0x0a, searchEnd) : -1;
    if (newline !== -1) start = position + newline + 1;
  }
  const all = Buffer.concat(chunks);
  const from = Math.max(0, start) - position;
  const complete = all.at(-1) === 0x0a;
  return { head: lineHash(all.subarray(from, complete ? all.length - 1 : all.length)), complete };
}

export interface ChainFile {
  name: string;
  content: Uint8Array;
}

export type ChainReport =
  | { ok: true; lines: number; notes: string[] }
  | {
      ok: false;
      lines: number;
      file: string;
      /** The first line that cannot be vouched for (1-based, in `file`), and its text. */
      line: number;
      reason: string;
      text: string;
      /** The later line of the same file that noticed the break, when it is not the line named (an edited line is noticed by the next). */
      noticedBy?: { line: number; text: string };
    };

export interface ChainOptions {
  /**
   * The first file continues a rotated file that is not given (the operator says so): its first line
   * may chain from a hash that cannot be checked. Otherwise it must start a chain, or the first lines
   * cut from a file would go unseen.
   */
  continuesEarlierFile?: boolean;
}

/**
 * Checks files given oldest first (audit.jsonl.2 audit.jsonl.1 audit.jsonl). The first line of the
 * first file must start a chain (unless `continuesEarlierFile`); the first line of each later file must
 * chain from the last line of the file before it, or start a new chain (the writer did not know the
 * rotated file's last hash, e.g. after a restart).
 */
export function verifyChain(files: readonly ChainFile[], options: ChainOptions = {}): ChainReport {
  const checker = new ChainChecker(options);
  for (const file of files) {
    checker.startFile(file.name);
    const lines = splitLines(Buffer.from(file.content));
    for (const [index, line] of lines.entries()) {
      const reason = checker.line(line.bytes, line.complete, index);
      if (reason) {
        // Within a file, the line before the one that noticed is the first that cannot be vouched for:
        // its text is the one quoted under its number, and the line that noticed is quoted apart.
        const untrusted = checker.brokenLine(index);
        const intact = checker.checked - (index + 1 - untrusted);
        const text = (lines[untrusted - 1] ?? line).bytes.toString('utf8');
        const noticedBy = untrusted === index + 1 ? {} : { noticedBy: { line: index + 1, text: line.bytes.toString('utf8') } };
        return { ok: false, lines: intact, file: file.name, line: untrusted, reason, text, ...noticedBy };
      }
    }
  }
  return { ok: true, lines: checker.checked, notes: checker.notes };
}

/**
 * The chain's rule one line at a time, for files read whole (verifyChain) or in pieces (the audit page's
 * chain state). `line` says why a line breaks the chain, or nothing when it links.
 */
export class ChainChecker {
  /** The hash of the last line checked; undefined before the first. */
  head: string | undefined;
  checked = 0;
  /**
   * After a line broke the chain: the first line that cannot be vouched for (1-based, in its file). A line
   * whose `prev` is not the hash of the line before it says that line was edited (or lines after it were
   * removed or added): that one is where the trail stops being trustworthy, not the line that noticed.
   */
  untrusted: { line: number; inPreviousFile: boolean } | undefined;
  readonly notes: string[] = [];
  private fileName = '';
  private previousName: string | undefined;
  private linesInFile = 0;

  constructor(private readonly options: ChainOptions = {}) {}

  private linesInFilePrevious = 0;

  /** The line of this file to name after the line at `index` broke the chain: the first that cannot be vouched for. */
  brokenLine(index: number): number {
    return this.untrusted && !this.untrusted.inPreviousFile ? this.untrusted.line : index + 1;
  }

  startFile(name: string): void {
    if (this.linesInFile > 0) {
      this.previousName = this.fileName;
      this.linesInFilePrevious = this.linesInFile;
    }
    this.fileName = name;
    this.linesInFile = 0;
  }

  /** The line at `index` (0-based) of the current file. */
  line(bytes: Buffer, complete: boolean, index: number): string | undefined {
    const number = index + 1;
    if (!complete) return 'the line is incomplete (no line end): a write failed or the file was cut';
    const prev = prevOf(bytes);
    if (prev === undefined) return 'not an audit line with "prev" (a JSON object whose "prev" is a hash or "start")';
    if (prev === CHAIN_START) {
      if (index > 0) return 'starts a new chain in the middle of a file: the lines before it were cut off or it was inserted';
      if (this.previousName !== undefined)
        this.notes.push(`${this.fileName} starts a new chain (the last hash of ${this.previousName} was not known to the writer)`);
    } else if (this.head === undefined) {
      if (!this.options.continuesEarlierFile) return CUT_START;
      this.notes.push(
        `${this.fileName}:${number} continues an earlier file that was not given (${CONTINUES_FLAG}): lines cut from its start cannot be seen`,
      );
    } else if (prev !== this.head) {
      this.untrusted = index > 0 ? { line: number - 1, inPreviousFile: false } : { line: this.linesInFilePrevious, inPreviousFile: true };
      return index > 0
        ? `line ${number - 1} was edited, or lines after it were deleted or inserted (the "prev" of line ${number} is not its hash)`
        : `"prev" is not the hash of the last line of ${this.previousName}: a line was edited, deleted or inserted at the end of that file, or a file is missing or out of order`;
    }
    this.head = lineHash(bytes);
    this.checked += 1;
    this.linesInFile += 1;
    return undefined;
  }
}

/** How the operator says that the first file continues a rotated one that is gone (`npm run audit:verify`). */
export const CONTINUES_FLAG = '--continues-earlier-file';

const CUT_START =
  'the first line does not start a chain ("prev" is not "start"): lines were cut from the start of the file, or it ' +
  `continues a rotated file that was not given. Give the rotated files too, oldest first; if they are gone, say so with ${CONTINUES_FLAG}`;

function splitLines(content: Buffer): { bytes: Buffer; complete: boolean }[] {
  const lines: { bytes: Buffer; complete: boolean }[] = [];
  let start = 0;
  while (start < content.length) {
    const end = content.indexOf(0x0a, start);
    if (end === -1) {
      lines.push({ bytes: content.subarray(start), complete: false });
      break;
    }
    lines.push({ bytes: content.subarray(start, end), complete: true });
    start = end + 1;
  }
  return lines;
}

function prevOf(bytes: Buffer): string | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const prev = (value as { prev?: unknown }).prev;
    return typeof prev === 'string' && (prev === CHAIN_START || HASH.test(prev)) ? prev : undefined;
  } catch {
    return undefined;
  }
}
