import type { AuditRow, Searched } from '../../kyc/contract/audit-search.ts';
import { type AuditFile, auditFilesOf, linesBackward, openToRead, readLinesForward } from './audit-files.ts';
import { includesFolded, matches, neededText, type SearchFilter, userNeedle } from './audit-match.ts';
import { readLine } from './audit-row.ts';
import type { UnvouchedFrom } from './chain-watch.ts';
import { awaitsClosing, ClosingLines, mayClose } from './closing-lines.ts';

/**
 * The audit page without a database: this instance's files read from their end, newest line first,
 * each line passed over unless it holds the filter's text (audit-match.ts), then parsed and matched.
 * One request reads at most `maxLines` lines and for at most `maxMs`; then it answers what it found,
 * says how far back it got, and gives a cursor to read on from there.
 */

export interface FileBounds {
  /** Lines one request may read (a line passed over by its text counts). */
  maxLines: number;
  /** How long one request may read. */
  maxMs: number;
}

/** The default bounds (docs/security.md): about a second of reading on a small machine. */
export const FILE_BOUNDS: FileBounds = { maxLines: 2_000_000, maxMs: 2_000 };

/**
 * Lines are written in time order, give or take a lookup's length: once lines this much older than the
 * `from` of a filter are reached, the older ones are not read.
 */
const TIME_ORDER_SLACK_MS = 10 * 60_000;

/**
 * A page that starts at a cursor may hold a lookup whose closing line (closing-lines.ts) is newer than the
 * cursor: this much of the file after it is read for closing lines, once per page and only then. A closing
 * line follows its lookup's by the answer's length; one further on (a rotation between, or a busier log)
 * leaves the row saying what it held was not recorded.
 */
const CLOSING_LOOKAHEAD_BYTES = 1024 * 1024;

export interface FileSearch {
  rows: AuditRow[];
  next?: string;
  searched: Searched;
}

interface Cursor {
  inode: number;
  offset: number;
}

/**
 * `limit` rows of `instance`'s files, newest first, from where `cursor` says (the newest line when none);
 * with `unvouched` (the chain's break, chain-watch.ts), each row from that line on is marked; with `shown`
 * (the audit page's), a queue view's row lists the candidates it showed.
 */
export async function searchFiles(
  current: string,
  instance: string,
  filter: SearchFilter,
  page: { limit: number; cursor?: string; unvouched?: UnvouchedFrom; shown?: boolean },
  bounds: FileBounds = FILE_BOUNDS,
): Promise<FileSearch> {
  const files = await auditFilesOf(current);
  const from = startOf(files, page.cursor);
  const scan = new Scan(filter, page.limit, bounds, instance, page.shown === true);
  if (page.cursor && from.index < files.length) scan.after = { file: files[from.index]!, offset: from.end };
  const broken = page.unvouched && breakIn(files, page.unvouched);
  for (const [index, file] of files.entries()) {
    if (index < from.index) continue;
    // Files newer than the break's are after it whole; the break's own from its line on.
    const after = broken && (index < broken.index ? 0 : index === broken.index ? broken.offset : undefined);
    const stopped = await scan.file(file, index === from.index ? from.end : file.size, after);
    if (stopped) return scan.answer(stopped);
  }
  return scan.answer(undefined);
}

/** A cursor as it travels: opaque to the browser. */
export function fileCursor(cursor: Cursor): string {
  return `f.${cursor.inode}.${cursor.offset}`;
}

function readCursor(text: string | undefined): Cursor | undefined {
  const match = text === undefined ? null : /^f\.(\d{1,20})\.(\d{1,16})$/.exec(text);
  return match ? { inode: Number(match[1]), offset: Number(match[2]) } : undefined;
}

/** Where a page starts: the file the cursor names (followed by its inode, across rotation), or the newest line. */
function startOf(files: AuditFile[], text: string | undefined): { index: number; end: number } {
  const cursor = readCursor(text);
  if (!cursor) return { index: 0, end: files[0]?.size ?? 0 };
  const index = files.findIndex((file) => file.inode === cursor.inode);
  // Its file is gone (deleted after rotation): nothing older is left to read.
  if (index === -1) return { index: files.length, end: 0 };
  return { index, end: Math.min(cursor.offset, files[index]!.size) };
}

/** The break's file among these (newest first): a file no longer here leaves every file after it, as far as anyone can tell. */
function breakIn(files: AuditFile[], from: UnvouchedFrom): { index: number; offset: number } {
  const index = files.findIndex((file) => file.inode === from.inode);
  return index === -1 ? { index: files.length, offset: 0 } : { index, offset: from.offset };
}

/** A line's time without parsing it: the writer puts it near the start (`{"prev":…,"time":"…"`). */
function timeOfLine(line: Buffer): string | undefined {
  const match = /"time":"([0-9T:.+\-Z]{10,40})"/.exec(line.toString('latin1', 0, 120));
  return match && !Number.isNaN(Date.parse(match[1]!)) ? match[1] : undefined;
}

class Scan {
  readonly rows: AuditRow[] = [];
  private lines = 0;
  private readonly started = performance.now();
  private readonly needed: Buffer[];
  private readonly user: Buffer | undefined;
  private readonly fromMs: number | undefined;
  /** The oldest line read: how far back the search got. */
  private oldest: Buffer | undefined;
  private next: Cursor | undefined;
  private readonly closings = new ClosingLines();
  /** Where a page that starts at a cursor starts: the lines after it are read for closing lines when needed. */
  after: { file: AuditFile; offset: number } | undefined;

  constructor(
    private readonly filter: SearchFilter,
    private readonly limit: number,
    private readonly bounds: FileBounds,
    private readonly instance: string,
    private readonly withShown: boolean,
  ) {
    this.needed = neededText(filter).map((text) => Buffer.from(text, 'latin1'));
    this.user = userNeedle(filter);
    this.fromMs = filter.from === undefined ? undefined : Date.parse(filter.from) - TIME_ORDER_SLACK_MS;
  }

  /** Reads one file back from `end`, marking the rows that start at `unvouchedFrom` or later; says why it stopped, or undefined when it read the whole file. */
  async file(file: AuditFile, end: number, unvouchedFrom?: number): Promise<'full' | 'lines' | 'time' | 'older' | undefined> {
    const handle = await openToRead(file.path);
    if (!handle) return undefined;
    try {
      for await (const line of linesBackward(handle, end)) {
        const stop = this.bounded();
        if (stop) {
          // The lines read since the last row did not match: the next request goes on from this one.
          this.next = { inode: file.inode, offset: line.end };
          return stop;
        }
        this.lines += 1;
        this.oldest = line.bytes;
        if (this.fromMs !== undefined) {
          const time = timeOfLine(line.bytes);
          if (time !== undefined && Date.parse(time) < this.fromMs) return 'older';
        }
        // A request's closing line is read onto its lookup's row, never a row itself (closing-lines.ts).
        if (mayClose(line.bytes)) {
          const closing = readLine(line.bytes, this.instance).row;
          this.closings.note(closing);
          if (closing.action === 'held') continue;
        }
        // Searched in the bytes: no string is made of a line passed over.
        if (!this.needed.every((needed) => line.bytes.includes(needed))) continue;
        if (this.user && !includesFolded(line.bytes, this.user)) continue;
        const { row, shown, candidates } = readLine(line.bytes, this.instance);
        if (!matches(row, this.filter, shown)) continue;
        if (this.rows.length === this.limit) return 'full';
        if (awaitsClosing(row) && !this.closings.has(row)) await this.lookAhead();
        const closed = this.closings.onto(row);
        const listed = this.withShown && candidates.length > 0 ? { ...closed, shown: candidates } : closed;
        this.rows.push(unvouchedFrom !== undefined && line.start >= unvouchedFrom ? { ...listed, unvouched: true } : listed);
        this.next = { inode: file.inode, offset: line.start };
      }
      return undefined;
    } finally {
      await handle.close();
    }
  }

  /** The closing lines just after the page's cursor, read once (CLOSING_LOOKAHEAD_BYTES). */
  private async lookAhead(): Promise<void> {
    const after = this.after;
    this.after = undefined;
    if (!after) return;
    const handle = await openToRead(after.file.path);
    if (!handle) return;
    try {
      const size = Math.min(after.file.size, after.offset + CLOSING_LOOKAHEAD_BYTES);
      const lines = await readLinesForward(handle, after.offset, size, CLOSING_LOOKAHEAD_BYTES);
      // Newest first, as the backward read meets them.
      for (const line of lines.reverse()) if (mayClose(line.bytes)) this.closings.note(readLine(line.bytes, this.instance).row);
    } finally {
      await handle.close();
    }
  }

  /**
   * A bound reached: checked every 256 lines, the clock being the dearer question. Never before the first
   * line, so that every request gets further back than the one before it.
   */
  private bounded(): 'lines' | 'time' | undefined {
    if (this.lines === 0) return undefined;
    if (this.lines >= this.bounds.maxLines) return 'lines';
    if (this.lines % 256 === 0 && performance.now() - this.started > this.bounds.maxMs) return 'time';
    return undefined;
  }

  answer(stopped: 'full' | 'lines' | 'time' | 'older' | undefined): FileSearch {
    const bound = stopped === 'lines' || stopped === 'time' ? stopped : undefined;
    // A full page, or a bound reached: more may follow, from where this one ended.
    const more = stopped === 'full' || bound !== undefined;
    const reachedBack = this.oldest && timeOfLine(this.oldest);
    return {
      rows: this.rows,
      ...(more && this.next ? { next: fileCursor(this.next) } : {}),
      searched: {
        lines: this.lines,
        complete: bound === undefined,
        ...(reachedBack ? { reachedBack } : {}),
        ...(bound ? { stoppedBy: bound } : {}),
      },
    };
  }
}
