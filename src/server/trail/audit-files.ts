import { type FileHandle, open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { lineHash } from '../audit/audit-chain.ts';

/**
 * This instance's audit files: the current one (AUDIT_LOG) and its rotated predecessors beside it, by
 * the names logrotate gives them (`audit.jsonl.1`, `audit.jsonl.2`, `audit.jsonl-20261122`). Compressed
 * ones (`.gz`, …) are not read: they are the operator's archive.
 */

export interface AuditFile {
  path: string;
  /** Its name in the directory. */
  name: string;
  /** Followed across renames: a cursor or a position names the file by it. */
  inode: number;
  size: number;
  mtimeMs: number;
  current: boolean;
}

const COMPRESSED = /\.(gz|bz2|xz|zst|lz4|z|zip)$/i;

/** The current file first, then the rotated ones, newest first (by when each was last written). */
export async function auditFilesOf(current: string): Promise<AuditFile[]> {
  const dir = path.dirname(path.resolve(current));
  const base = path.basename(current);
  const names = await readdir(dir).catch(() => [] as string[]);
  const rotated = names.filter((name) => (name.startsWith(`${base}.`) || name.startsWith(`${base}-`)) && !COMPRESSED.test(name));
  const files: AuditFile[] = [];
  for (const name of [base, ...rotated]) {
    const found = await stat(path.join(dir, name)).catch(() => undefined);
    if (!found?.isFile()) continue;
    files.push({ path: path.join(dir, name), name, inode: found.ino, size: found.size, mtimeMs: found.mtimeMs, current: name === base });
  }
  return files.sort((a, b) => Number(b.current) - Number(a.current) || b.mtimeMs - a.mtimeMs || b.name.localeCompare(a.name));
}

/** A complete line (without its line end), as its bytes (the chain hashes them), and where it starts in its file. */
export interface FileLine {
  bytes: Buffer;
  start: number;
  /** Where the next line starts: after its line end. */
  end: number;
}

const CHUNK = 256 * 1024;

/**
 * The complete lines that end before `end`, last first. A last line without its line end (a write under
 * way, or a file cut) is not one. Read in chunks from the end: a page of the newest lines costs a read or two.
 */
export async function* linesBackward(handle: FileHandle, end: number): AsyncGenerator<FileLine> {
  let position = end;
  // The bytes from `position` up to the line end last seen, not yet split into lines.
  let rest = Buffer.alloc(0);
  // Until a line end is seen, the bytes read are a last line without one: not a line.
  let seenLineEnd = false;
  while (position > 0) {
    const length = Math.min(CHUNK, position);
    position -= length;
    const chunk = Buffer.alloc(length);
    const { bytesRead } = await handle.read(chunk, 0, length, position);
    const buffer = Buffer.concat([chunk.subarray(0, bytesRead), rest]);
    let lineEnd = buffer.length;
    if (!seenLineEnd) {
      lineEnd = buffer.lastIndexOf(0x0a);
      if (lineEnd === -1) {
        rest = buffer;
        continue;
      }
      seenLineEnd = true;
    }
    // buffer[lineEnd] is a line end: the line before it starts after the newline before that.
    for (let newline = lastNewline(buffer, lineEnd); newline !== -1; newline = lastNewline(buffer, lineEnd)) {
      yield { bytes: buffer.subarray(newline + 1, lineEnd), start: position + newline + 1, end: position + lineEnd + 1 };
      lineEnd = newline;
    }
    rest = buffer.subarray(0, lineEnd);
  }
  // The file's first line, followed by a line end.
  if (seenLineEnd) yield { bytes: rest, start: 0, end: rest.length + 1 };
}

/** The last newline before `before` (-1: none); Buffer's own lastIndexOf reads a negative offset from the end. */
function lastNewline(buffer: Buffer, before: number): number {
  return before > 0 ? buffer.lastIndexOf(0x0a, before - 1) : -1;
}

/**
 * The complete lines from `start` on, first first, at most `maxBytes` of them at a time (a line longer
 * than that is read whole). Stops at a last line without its line end.
 */
export async function readLinesForward(handle: FileHandle, start: number, size: number, maxBytes: number): Promise<FileLine[]> {
  const lines: FileLine[] = [];
  let position = start;
  let carry = Buffer.alloc(0);
  while (position < size) {
    const length = Math.min(CHUNK, size - position);
    const chunk = Buffer.alloc(length);
    const { bytesRead } = await handle.read(chunk, 0, length, position);
    if (bytesRead === 0) break;
    const buffer = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
    const bufferStart = position - carry.length;
    position += bytesRead;
    let lineStart = 0;
    for (let newline = buffer.indexOf(0x0a); newline !== -1; newline = buffer.indexOf(0x0a, lineStart)) {
      lines.push({ bytes: buffer.subarray(lineStart, newline), start: bufferStart + lineStart, end: bufferStart + newline + 1 });
      lineStart = newline + 1;
    }
    carry = buffer.subarray(lineStart);
    if (lines.length > 0 && position - start >= maxBytes) break;
  }
  return lines;
}

/** Opens a file to read; undefined when it is gone (rotated away and deleted meanwhile). */
export async function openToRead(file: string): Promise<FileHandle | undefined> {
  return open(file, 'r').catch(() => undefined);
}

/**
 * Whether the complete line that ends at `offset` in `file` is still the one whose hash is `hash`: only
 * then is the file read on from there (not rotated, cut or rewritten since that line was read).
 */
export async function lineEndsAt(file: string, offset: number, hash: string): Promise<boolean> {
  const handle = await openToRead(file);
  if (!handle) return false;
  try {
    for await (const line of linesBackward(handle, offset)) return line.end === offset && lineHash(line.bytes) === hash;
    return false;
  } finally {
    await handle.close();
  }
}
