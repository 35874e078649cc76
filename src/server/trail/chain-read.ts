import type { FileChain } from '../../kyc/contract/audit-status.ts';
import { type ChainChecker, lineHash } from '../audit/audit-chain.ts';
import { type AuditFile, openToRead, readLinesForward } from './audit-files.ts';

/** A file's lines read through the chain's checker, for chain-watch.ts: where the chain breaks, and where its lines stand. */

const READ_BYTES = 4 * 1024 * 1024;

/** The last line the chain vouches for before a break: rows after it are marked on the page. */
export type Vouched = { time: string; hash: string };

function vouched(bytes: Buffer | undefined): Vouched | undefined {
  const time = bytes && timeOf(bytes).lastLineAt;
  return bytes && time ? { time, hash: lineHash(bytes) } : undefined;
}

/** What a check that goes on after `before`'s last line knows of the lines before `start`. */
export interface Carried {
  last: Vouched | undefined;
  lastStart: number | undefined;
  beforeLast: Vouched | undefined;
}

/** What a check read: the chain's state, and where the file's lines stand (as chain-watch.ts keeps them). */
export interface ChainRead extends Pick<FileChain, 'intact' | 'broken' | 'lastLineAt'> {
  /** The first line the chain does not vouch for: where it starts in this file, or the last line of the file before. */
  unvouchedAt?: number | 'previous';
  /** Where the last line checked starts, and the line before it: a break in the next file may name them. */
  lastStart?: number;
  beforeLast?: Vouched;
  /** Broken: the line that noticed the break, by where it ends and its hash. */
  noticedBy?: { end: number; hash: string };
}

/**
 * Reads the file from `start`, line by line through the checker: where it breaks (and the last line
 * before it that the chain vouches for: `known` is what was checked before `start`), its last line's
 * time, and where its lines stand (the first not vouched for, the last line's start and the one before it).
 * `onHashed` is told how many bytes of lines went through the checker.
 */
export async function readChain(
  file: AuditFile,
  checker: ChainChecker,
  start: number,
  known: Carried | undefined,
  onHashed: (bytes: number) => void,
): Promise<ChainRead> {
  const handle = await openToRead(file.path);
  if (!handle) return { intact: true };
  const first = checker.checked;
  let hashed = 0;
  let index = first;
  let last: Buffer | undefined;
  let beforeLast: Buffer | undefined;
  let lastStart = known?.lastStart;
  // The 0-based line `at`, when it is one of the last two read (or one of the two before `start`).
  const lineAt = (at: number) =>
    vouched(at === index - 1 ? last : at === index - 2 ? beforeLast : undefined) ??
    (at === first - 1 ? known?.last : at === first - 2 ? known?.beforeLast : undefined);
  const broken = (line: number, reason: string, unvouchedAt: number | 'previous' | undefined): ChainRead => {
    const lastVouched = lineAt(line - 2);
    return {
      intact: false,
      broken: { line, reason, ...(lastVouched ? { lastVouched } : {}) },
      ...(unvouchedAt === undefined ? {} : { unvouchedAt }),
    };
  };
  try {
    let position = start;
    while (position < file.size) {
      const lines = await readLinesForward(handle, position, file.size, READ_BYTES);
      if (lines.length === 0) break;
      for (const line of lines) {
        hashed += line.end - line.start;
        const reason = checker.line(line.bytes, true, index);
        if (reason) {
          const named = checker.brokenLine(index);
          // The line named is this one, the one before it (edited), or the last line of the file before.
          const at = checker.untrusted?.inPreviousFile ? 'previous' : named === index ? lastStart : line.start;
          return { ...broken(named, reason, at), noticedBy: { end: line.end, hash: lineHash(line.bytes) } };
        }
        index += 1;
        beforeLast = last;
        last = line.bytes;
        lastStart = line.start;
      }
      position = lines.at(-1)!.end;
    }
    // A last line without its line end: a write under way in the current file, a cut one in a rotated file.
    if (position < file.size && !file.current) {
      return broken(index + 1, 'the line is incomplete (no line end): a write failed or the file was cut', position);
    }
    const before = lineAt(index - 2);
    return {
      intact: true,
      ...(last ? timeOf(last) : {}),
      ...(lastStart === undefined ? {} : { lastStart }),
      ...(before ? { beforeLast: before } : {}),
    };
  } finally {
    onHashed(hashed);
    await handle.close();
  }
}

function timeOf(line: Buffer): { lastLineAt?: string } {
  const match = /"time":"([^"]{10,40})"/.exec(line.toString('latin1', 0, 200));
  return match && !Number.isNaN(Date.parse(match[1]!)) ? { lastLineAt: match[1]! } : {};
}
