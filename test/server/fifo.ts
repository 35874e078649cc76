import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';

export interface BlockedFifo {
  file: string;
  /** Reads the pipe empty and returns what was read: a write blocked on it can then go on. */
  drain(): string;
  /** Drains it and lets go of it (once). */
  close(): void;
}

/**
 * A FIFO in `dir` whose buffer is already full, held open here: the server's next write to it blocks in
 * libuv's thread pool, as on a hung network mount.
 */
export function blockedFifo(dir: string): BlockedFifo {
  const file = path.join(dir, 'audit.fifo');
  execFileSync('mkfifo', [file]);
  const fd = openSync(file, constants.O_RDWR | constants.O_NONBLOCK);
  const filler = Buffer.from(`${'x'.repeat(4095)}\n`);
  for (;;) {
    try {
      writeSync(fd, filler);
    } catch {
      break; // EAGAIN: the pipe is full
    }
  }
  let closed = false;
  const drain = () => {
    const chunks: Buffer[] = [];
    const buffer = Buffer.alloc(65536);
    for (;;) {
      try {
        const n = readSync(fd, buffer);
        if (n === 0) break;
        chunks.push(Buffer.from(buffer.subarray(0, n)));
      } catch {
        break; // EAGAIN: empty for now
      }
    }
    return Buffer.concat(chunks).toString('latin1');
  };
  return {
    file,
    drain,
    close() {
      if (closed) return;
      closed = true;
      drain();
      closeSync(fd);
    },
  };
}
