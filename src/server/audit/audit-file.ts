import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { chainLines, readChainHead } from './audit-chain.ts';

/** How often the path is checked for rotation (the file moved away or replaced). */
const ROTATION_CHECK_MS = 1000;

/** The audit file as the log writes it: batches of lines, each chained to the one before it. */
export interface ChainedFile {
  /**
   * Appends the lines (serialized without `prev`), chained. On failure none of them stays in the file
   * and the file is closed; the next call opens it afresh. One call at a time: the caller waits for each.
   */
  append(bodies: string[]): Promise<void>;
  /** Closes the handle (the next append would open the file again). Not while an append is under way. */
  close(): Promise<void>;
}

/**
 * One open handle, followed across rotation (the path moved away or replaced). The head of the chain is
 * read from the file's last line when a non-empty file is opened; a new empty file (after rotation)
 * chains from the last line written to the rotated one, or starts a chain when that is not known.
 */
export function openChainedFile(file: string): ChainedFile {
  let handle: { file: FileHandle; inode: number; size: number } | undefined;
  let checkedAt = 0;
  // The hash of the last line on disk; undefined: not known (a new chain starts).
  let head: string | undefined;
  // A line cut short by a crash or a failed write: the next write starts on a fresh line.
  let afterPartialLine = false;

  async function currentHandle(): Promise<NonNullable<typeof handle>> {
    const now = Date.now();
    if (handle && now - checkedAt > ROTATION_CHECK_MS) {
      checkedAt = now;
      const onDisk = await stat(file).catch(() => undefined);
      if (!onDisk || onDisk.ino !== handle.inode) await closeHandle();
    }
    if (!handle) {
      await mkdir(path.dirname(path.resolve(file)), { recursive: true }).catch(() => {});
      // Read as well as append: the chain continues from the file's last line.
      const opened = await open(file, 'a+', 0o600);
      try {
        const { ino, size } = await opened.stat();
        const tail = await readChainHead(opened, size);
        if (tail) {
          head = tail.head;
          afterPartialLine = !tail.complete;
        }
        handle = { file: opened, inode: ino, size };
      } catch (error) {
        await opened.close().catch(() => {});
        throw error;
      }
      checkedAt = now;
    }
    return handle;
  }

  async function closeHandle(): Promise<void> {
    const old = handle;
    handle = undefined;
    await old?.file.close().catch(() => {});
  }

  /** Writes one batch as chained lines; on failure removes what part of it reached the file. */
  async function writeBatch(bodies: string[]): Promise<void> {
    const current = await currentHandle();
    const chained = chainLines(bodies, head);
    const text = (afterPartialLine ? '\n' : '') + chained.lines.map((line) => `${line}\n`).join('');
    try {
      await current.file.appendFile(text);
    } catch (error) {
      // Part of the batch may be on disk (a full disk): cut it off, so the chain stays whole.
      const cut = await current.file.truncate(current.size).then(
        () => true,
        () => false,
      );
      if (!cut) head = undefined; // read again from the file when it is reopened
      throw error;
    }
    current.size += Buffer.byteLength(text);
    head = chained.head;
    afterPartialLine = false;
  }

  return {
    append(bodies) {
      // After a failure, try afresh next time (the disk may have room again); a non-empty file's last
      // line is read again when it is reopened, so the chain continues from it.
      return writeBatch(bodies).catch(async (error: unknown) => {
        await closeHandle();
        throw error;
      });
    },
    close: closeHandle,
  };
}
