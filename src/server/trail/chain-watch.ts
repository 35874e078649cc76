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
  /** Checks as `check` does, and says where this instance's lines stop being vouched for (none: nowhere). */
  unvouchedFrom(): Promise<UnvouchedFrom | undefined>;
}

/**
 * The first line the chain does not vouch for, by its place: the file (by inode) and where the line starts
 * in it. Every line from there on, in that file and in the newer files, is after the break, whatever
 * time it says (an edited line may say any).
 */
export interface UnvouchedFrom {
  inode: number;
  offset: number;
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
  /** The first line the chain does not vouch for: where it starts in this file, or the last line of the file before. */
  unvouchedAt?: number | 'previous';
  /** Where the last line checked starts, and the line before it: a break in the next file may name them. */
  lastStart?: number;
  beforeLast?: Vouched;
}

const READ_BYTES = 4 * 1024 * 1024;

export function createChainWatch(current: string, options: ChainWatchOptions = {}): ChainWatch {
  const now = options.now ?? Date.now;
  const fullCheckMs = options.fullCheckMs ?? 10 * 60_000;
  const checked = new Map<number, Checked>();
  // Files seen to get shorter: by inode, what was said.
  const cut = new Map<number, string>();
  let running: Promise<FileChain[]> | undefined;
  let from: UnvouchedFrom | undefined;

  async function checkAll(): Promise<FileChain[]> {
    const files = (await auditFilesOf(current)).reverse();
    const out: FileChain[] = [];
    const done: Checked[] = [];
    let head: string | undefined;
    let found: UnvouchedFrom | undefined;
    for (const [index, file] of files.entries()) {
      const before = checked.get(file.inode);
      if (before && file.size < before.size) {
        cut.set(
          file.inode,
          `the file is ${before.size - file.size} bytes shorter than when it was checked at ${before.chain.checkedAt}: lines were cut from its end`,
        );
      }
      const result = await checkFile(file, head, before, index === 0 && files.length > 1, { now, fullCheckMs });
      checked.set(file.inode, result);
      head = result.headOut;
      const shortened = cut.get(file.inode);
      const chain = shortened
        ? { ...result.chain, intact: false, broken: { line: result.lines + 1, reason: shortened, ...cutAfter(result) } }
        : withLastVouched(result, done);
      // The oldest break is the one that counts: nothing links the lines after it to the trail before.
      if (!found && !chain.intact)
        found = placeOf(shortened && result.chain.intact ? { ...result, unvouchedAt: result.size } : result, done.at(-1));
      out.push(chain);
      done.push(result);
    }
    from = found;
    for (const inode of checked.keys()) if (!files.some((file) => file.inode === inode)) checked.delete(inode);
    return out.reverse();
  }

  function check(): Promise<FileChain[]> {
    // One check at a time: a page opened twice waits for the one under way.
    running ??= checkAll().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    check,
    async unvouchedFrom() {
      await check();
      return from;
    },
  };
}

/** One file's check, or the last one while it stands (`clock`: the watch's `now` and `fullCheckMs`). */
async function checkFile(
  file: AuditFile,
  headIn: string | undefined,
  before: Checked | undefined,
  continues: boolean,
  clock: { now: () => number; fullCheckMs: number },
): Promise<Checked> {
  const { now, fullCheckMs } = clock;
  const fresh = before && before.headIn === headIn && now() - before.fullAt < fullCheckMs;
  if (fresh && before.size === file.size && before.mtimeMs === file.mtimeMs) return before;
  const goOn = fresh && before.chain.intact && file.size > before.size && (await stillEndsWith(file, before));
  const checker = new ChainChecker({ continuesEarlierFile: continues });
  checker.head = goOn ? before.headOut : headIn;
  checker.checked = goOn ? before.lines : 0;
  checker.startFile(file.name);
  const { unvouchedAt, lastStart, beforeLast, ...chain } = await readChain(
    file,
    checker,
    goOn ? before.size : 0,
    goOn ? carried(before) : undefined,
  );
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
    ...(unvouchedAt === undefined ? {} : { unvouchedAt }),
    ...(lastStart === undefined ? {} : { lastStart }),
    ...(beforeLast ? { beforeLast } : {}),
  };
}

/** Where the lines a break leaves unvouched begin, in `result`'s file or (its first line noticed) at the last line of `previous`. */
function placeOf(result: Checked, previous: Checked | undefined): UnvouchedFrom {
  if (result.unvouchedAt === 'previous' && previous?.lastStart !== undefined) return { inode: previous.inode, offset: previous.lastStart };
  // Not known where: the whole file, as the page cannot tell which of its lines are safe.
  return { inode: result.inode, offset: typeof result.unvouchedAt === 'number' ? result.unvouchedAt : 0 };
}

/**
 * A file whose first line does not chain from the last line of the file before: that last line is the
 * first not vouched for, so the last one vouched for is the line before it (in that file, or at the end
 * of the one before it when that file had one line).
 */
function withLastVouched(result: Checked, done: Checked[]): FileChain {
  const { chain } = result;
  if (result.unvouchedAt !== 'previous' || !chain.broken || chain.broken.lastVouched) return chain;
  const previous = done.at(-1);
  const beforeThat = done.at(-2);
  const lastVouched =
    previous?.beforeLast ?? (previous?.lines === 1 && beforeThat && beforeThat.chain.intact ? lastLineOf(beforeThat) : undefined);
  return lastVouched ? { ...chain, broken: { ...chain.broken, lastVouched } } : chain;
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

/** What a check that goes on after `before`'s last line knows of the lines before `start`. */
interface Carried {
  last: Vouched | undefined;
  lastStart: number | undefined;
  beforeLast: Vouched | undefined;
}

function carried(before: Checked): Carried {
  return { last: lastLineOf(before), lastStart: before.lastStart, beforeLast: before.beforeLast };
}

type ChainRead = Pick<FileChain, 'intact' | 'broken' | 'lastLineAt'> & Pick<Checked, 'unvouchedAt' | 'lastStart' | 'beforeLast'>;

/** A file cut at its end: what is left is vouched for up to its last line (or as far as its own break says). */
function cutAfter(result: Checked): { lastVouched?: Vouched } {
  const lastVouched = result.chain.intact ? lastLineOf(result) : result.chain.broken?.lastVouched;
  return lastVouched ? { lastVouched } : {};
}

/**
 * Reads the file from `start`, line by line through the checker: where it breaks (and the last line
 * before it that the chain vouches for: `known` is what was checked before `start`), its last line's
 * time, and where its lines stand (the first not vouched for, the last line's start and the one before it).
 */
async function readChain(file: AuditFile, checker: ChainChecker, start: number, known: Carried | undefined): Promise<ChainRead> {
  const handle = await openToRead(file.path);
  if (!handle) return { intact: true };
  const first = checker.checked;
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
        const reason = checker.line(line.bytes, true, index);
        if (reason) {
          const named = checker.brokenLine(index);
          // The line named is this one, the one before it (edited), or the last line of the file before.
          const at = checker.untrusted?.inPreviousFile ? 'previous' : named === index ? lastStart : line.start;
          return broken(named, reason, at);
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
