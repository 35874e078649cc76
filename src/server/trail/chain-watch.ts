import type { FileChain } from '../../kyc/contract/audit-status.ts';
import { ChainChecker } from '../audit/audit-chain.ts';
import { type AuditFile, auditFilesOf, lineEndsAt } from './audit-files.ts';
import { type Carried, type ChainRead, readChain, type Vouched } from './chain-read.ts';

/**
 * The audit page's chain state: this instance's files checked as `npm run audit:verify` checks them,
 * oldest first, each line linked to the one before. A file already checked is not read again while it
 * is unchanged; the current file, which grows, is checked on from where the last check ended (after
 * making sure the line there is still the one checked), and read whole again every `fullCheckMs`, so
 * that an edit in the part already checked is found too. A broken file is not read again while the line
 * that noticed its break is still there: its oldest break cannot move when lines are added after it (read
 * from the start each time, a file broken near its end cost each search a second of hashing). A file that
 * got shorter than when it was last checked had lines cut from its end: that is said until the server restarts.
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
  /** Told the bytes of lines each file's check hashed (a test counts what a search costs). */
  onHashed?: (bytes: number) => void;
}

/** A file as last checked; where its lines stand, as the read found them (chain-read.ts). */
interface Checked extends Pick<ChainRead, 'unvouchedAt' | 'lastStart' | 'beforeLast' | 'noticedBy'> {
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

export function createChainWatch(current: string, options: ChainWatchOptions = {}): ChainWatch {
  const now = options.now ?? Date.now;
  const fullCheckMs = options.fullCheckMs ?? 10 * 60_000;
  const onHashed = options.onHashed ?? (() => {});
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
      const result = namedNow(await checkFile(file, head, before, index === 0 && files.length > 1, { now, fullCheckMs, onHashed }), file);
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

/** One file's check, or the last one while it stands (`watch`: the watch's `now`, `fullCheckMs` and `onHashed`). */
async function checkFile(
  file: AuditFile,
  headIn: string | undefined,
  before: Checked | undefined,
  continues: boolean,
  watch: Required<ChainWatchOptions>,
): Promise<Checked> {
  const { now, fullCheckMs } = watch;
  const fresh = before && before.headIn === headIn && now() - before.fullAt < fullCheckMs;
  if (fresh && before.size === file.size && before.mtimeMs === file.mtimeMs) return before;
  if (fresh && (await breakStands(file, before))) {
    // Nothing was hashed: the chain keeps the time it was last checked.
    return { ...before, size: file.size, mtimeMs: file.mtimeMs };
  }
  const goOn = fresh && before.chain.intact && file.size > before.size && (await stillEndsWith(file, before));
  const checker = new ChainChecker({ continuesEarlierFile: continues });
  checker.head = goOn ? before.headOut : headIn;
  checker.checked = goOn ? before.lines : 0;
  checker.startFile(file.name);
  const { unvouchedAt, lastStart, beforeLast, noticedBy, ...chain } = await readChain(
    file,
    checker,
    goOn ? before.size : 0,
    goOn ? carried(before) : undefined,
    watch.onHashed,
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
    ...(noticedBy ? { noticedBy } : {}),
  };
}

/**
 * A check under the file's name now: one kept by its inode may have been made under the current file's name,
 * before a rotation renamed it (`audit.jsonl` to `audit.jsonl.1`): the page listed two `audit.jsonl`.
 */
function namedNow(result: Checked, file: AuditFile): Checked {
  return result.chain.file === file.name ? result : { ...result, chain: { ...result.chain, file: file.name } };
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

/** The last line of a file as last checked, when it was intact: a check that goes on from there may break right after it. */
function lastLineOf(before: Checked): Vouched | undefined {
  return before.chain.intact && before.chain.lastLineAt && before.headOut
    ? { time: before.chain.lastLineAt, hash: before.headOut }
    : undefined;
}

function carried(before: Checked): Carried {
  return { last: lastLineOf(before), lastStart: before.lastStart, beforeLast: before.beforeLast };
}

/** A file cut at its end: what is left is vouched for up to its last line (or as far as its own break says). */
function cutAfter(result: Checked): { lastVouched?: Vouched } {
  const lastVouched = result.chain.intact ? lastLineOf(result) : result.chain.broken?.lastVouched;
  return lastVouched ? { lastVouched } : {};
}

/**
 * Whether a broken file's last check stands as it is: the line that noticed its break is still there,
 * unchanged, where it was (the file was not rotated, cut or rewritten up to it). Lines added after it
 * change nothing: the oldest break is the one that counts, and everything after it is unvouched anyway.
 */
async function breakStands(file: AuditFile, before: Checked): Promise<boolean> {
  const seen = before.noticedBy;
  // Only a file that grew, as an intact one goes on only after growing: a file rewritten at the same size
  // (an edit that kept a line's length) is read again, whatever line noticed the break (the review).
  if (!seen || file.size <= before.size || file.name !== before.chain.file) return false;
  return lineEndsAt(file.path, seen.end, seen.hash);
}

/** Whether the line that ended the last check is still there, unchanged: then the check goes on after it. */
async function stillEndsWith(file: AuditFile, before: Checked): Promise<boolean> {
  if (before.headOut === undefined) return before.size === 0;
  return lineEndsAt(file.path, before.size, before.headOut);
}
