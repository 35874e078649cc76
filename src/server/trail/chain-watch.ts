import type { FileChain } from '../../kyc/contract/audit-search.ts';
import { ChainChecker, lineHash } from '../audit/audit-chain.ts';
import { type AuditFile, auditFilesOf, lineEndsAt, openToRead, readLinesForward } from './audit-files.ts';

/**
 * The audit page's chain state: this instance's files checked as `npm run audit:verify` checks them,
 * oldest first, each line linked to the one before. A file already checked is not read again while it
 * is unchanged; the current file, which grows, is checked on from where the last check ended (after
 * making sure the line there is still the one checked), and read whole again every `fullCheckMs`, so
 * that an edit in the part already checked is found too. A file that got shorter than when it was
 * last checked had lines cut from its end: that is said until the server restarts.
 */

export interface ChainWatch {
  check(): Promise<FileChain[]>;
}

export interface ChainWatchOptions {
  now?: () => number;
  /** How long a check of a file stands before the file is read whole again (default 10 minutes). */
  fullCheckMs?: number;
}

interface Checked {
  inode: number;
  size: number;
  mtimeMs: number;
  /** The chain's head before this file (the last line of the one before): a different one means check again. */
  headIn: string | undefined;
  /** The hash of its last line checked, and the line count, to go on from. */
  headOut: string | undefined;
  lines: number;
  chain: FileChain;
  fullAt: number;
}

const READ_BYTES = 4 * 1024 * 1024;

export function createChainWatch(current: string, options: ChainWatchOptions = {}): ChainWatch {
  const now = options.now ?? Date.now;
  const fullCheckMs = options.fullCheckMs ?? 10 * 60_000;
  const checked = new Map<number, Checked>();
  // Files seen to get shorter: by inode, what was said.
  const cut = new Map<number, string>();
  let running: Promise<FileChain[]> | undefined;

  async function checkAll(): Promise<FileChain[]> {
    const files = (await auditFilesOf(current)).reverse();
    const out: FileChain[] = [];
    let head: string | undefined;
    for (const [index, file] of files.entries()) {
      const before = checked.get(file.inode);
      if (before && file.size < before.size) {
        cut.set(
          file.inode,
          `the file is ${before.size - file.size} bytes shorter than when it was checked at ${before.chain.checkedAt}: lines were cut from its end`,
        );
      }
      const result = await checkFile(file, head, before, index === 0 && files.length > 1);
      checked.set(file.inode, result);
      head = result.headOut;
      const shortened = cut.get(file.inode);
      out.push(
        shortened
          ? { ...result.chain, intact: false, broken: { line: result.lines + 1, reason: shortened, ...cutAfter(result) } }
          : result.chain,
      );
    }
    for (const inode of checked.keys()) if (!files.some((file) => file.inode === inode)) checked.delete(inode);
    return out.reverse();
  }

  async function checkFile(file: AuditFile, headIn: string | undefined, before: Checked | undefined, continues: boolean): Promise<Checked> {
    const fresh = before && before.headIn === headIn && now() - before.fullAt < fullCheckMs;
    if (fresh && before.size === file.size && before.mtimeMs === file.mtimeMs) return before;
    const goOn = fresh && before.chain.intact && file.size > before.size && (await stillEndsWith(file, before));
    const checker = new ChainChecker({ continuesEarlierFile: continues });
    checker.head = goOn ? before.headOut : headIn;
    checker.checked = goOn ? before.lines : 0;
    checker.startFile(file.name);
    const chain = await readChain(file, checker, goOn ? before.size : 0, goOn ? lastLineOf(before) : undefined);
    const notes = [...(goOn ? (before.chain.notes ?? []) : []), ...checker.notes];
    return {
      inode: file.inode,
      size: file.size,
      mtimeMs: file.mtimeMs,
      headIn,
      headOut: checker.head,
      lines: checker.checked,
      chain: {
        file: file.name,
        ...chain,
        // Broken: the lines before the first one that cannot be vouched for.
        lines: chain.broken ? chain.broken.line - 1 : checker.checked,
        ...(notes.length > 0 ? { notes } : {}),
        ...(chain.lastLineAt ? {} : goOn && before.chain.lastLineAt ? { lastLineAt: before.chain.lastLineAt } : {}),
        checkedAt: new Date(now()).toISOString(),
      },
      fullAt: goOn ? before.fullAt : now(),
    };
  }

  return {
    check() {
      // One check at a time: a page opened twice waits for the one under way.
      running ??= checkAll().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}

/** The last line the chain vouches for before a break: rows after it are marked on the page. */
type Vouched = { time: string; hash: string };

function vouched(bytes: Buffer | undefined): Vouched | undefined {
  const time = bytes && timeOf(bytes).lastLineAt;
  return bytes && time ? { time, hash: lineHash(bytes) } : undefined;
}

/** The last line of a file as last checked, when it was intact: a check that goes on from there may break right after it. */
function lastLineOf(before: Checked): Vouched | undefined {
  return before.chain.intact && before.chain.lastLineAt && before.headOut
    ? { time: before.chain.lastLineAt, hash: before.headOut }
    : undefined;
}

/** A file cut at its end: what is left is vouched for up to its last line (or as far as its own break says). */
function cutAfter(result: Checked): { lastVouched?: Vouched } {
  const lastVouched = result.chain.intact ? lastLineOf(result) : result.chain.broken?.lastVouched;
  return lastVouched ? { lastVouched } : {};
}

/**
 * Reads the file from `start`, line by line through the checker: where it breaks (and the last line
 * before it that the chain vouches for: `known` is the line before `start`), and its last line's time.
 */
async function readChain(
  file: AuditFile,
  checker: ChainChecker,
  start: number,
  known: Vouched | undefined,
): Promise<Pick<FileChain, 'intact' | 'broken' | 'lastLineAt'>> {
  const handle = await openToRead(file.path);
  if (!handle) return { intact: true };
  const first = checker.checked;
  let index = first;
  let last: Buffer | undefined;
  let beforeLast: Buffer | undefined;
  // The 0-based line `at`, when it is one of the last two read (or the one before `start`).
  const lineAt = (at: number) =>
    vouched(at === index - 1 ? last : at === index - 2 ? beforeLast : undefined) ?? (at === first - 1 ? known : undefined);
  const broken = (line: number, reason: string) => {
    const lastVouched = lineAt(line - 2);
    return { intact: false, broken: { line, reason, ...(lastVouched ? { lastVouched } : {}) } };
  };
  try {
    let position = start;
    while (position < file.size) {
      const lines = await readLinesForward(handle, position, file.size, READ_BYTES);
      if (lines.length === 0) break;
      for (const line of lines) {
        const reason = checker.line(line.bytes, true, index);
        if (reason) return broken(checker.brokenLine(index), reason);
        index += 1;
        beforeLast = last;
        last = line.bytes;
      }
      position = lines.at(-1)!.end;
    }
    // A last line without its line end: a write under way in the current file, a cut one in a rotated file.
    if (position < file.size && !file.current) {
      return broken(index + 1, 'the line is incomplete (no line end): a write failed or the file was cut');
    }
    return { intact: true, ...(last ? timeOf(last) : {}) };
  } finally {
    await handle.close();
  }
}

/** Whether the line that ended the last check is still there, unchanged: then the check goes on after it. */
async function stillEndsWith(file: AuditFile, before: Checked): Promise<boolean> {
  if (before.headOut === undefined) return before.size === 0;
  return lineEndsAt(file.path, before.size, before.headOut);
}

function timeOf(line: Buffer): { lastLineAt?: string } {
  const match = /"time":"([^"]{10,40})"/.exec(line.toString('latin1', 0, 200));
  return match && !Number.isNaN(Date.parse(match[1]!)) ? { lastLineAt: match[1]! } : {};
}
