import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { SECRET_VARIABLES } from './config-schema.ts';
import type { Environment } from './environment-variables.ts';

/** A secret file holds one secret (a key, a password, a URL): anything larger is the wrong file. */
export const SECRET_FILE_MAX_BYTES = 64 * 1024;

/** What a path is when it is not a regular file, said in a message. */
function notRegular(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** How much a file read at start may hold, and what to say of one that holds more. */
export interface FileBound {
  bytes: number;
  /** `larger than 64 KiB; a secret file holds one secret` */
  tooLarge: string;
}

const SECRET_BOUND: FileBound = { bytes: SECRET_FILE_MAX_BYTES, tooLarge: 'larger than 64 KiB; a secret file holds one secret' };

/**
 * A file read at start, named by `setting` in every problem, with its path (when there is a file
 * there), never its content. Only a
 * regular file is read: a FIFO waits for a writer that never comes, /dev/zero never ends, and a
 * directory or a device is a wrong path. The path is looked at before it is opened (opening a FIFO or a
 * device may block or act), the file opened is looked at again (it may have been replaced in between;
 * O_NONBLOCK keeps that open from waiting), and at most one byte past the bound is read, so a file that
 * grows while it is read is refused too.
 */
export function readBoundedFile(file: string, setting: string, bound: FileBound): string | { problem: string } {
  const refused = (stats: Stats) => {
    const kind = notRegular(stats);
    if (kind) return `${setting} must name a regular file: ${file} is ${kind}`;
    return stats.size > bound.bytes ? `${setting}: the file ${file} is ${bound.tooLarge}` : undefined;
  };
  let fd: number | undefined;
  try {
    const before = refused(statSync(file));
    if (before) return { problem: before };
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const opened = refused(fstatSync(fd));
    if (opened) return { problem: opened };
    const buffer = Buffer.alloc(bound.bytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > bound.bytes) return { problem: `${setting}: the file ${file} is ${bound.tooLarge}` };
    return buffer.toString('utf8', 0, length);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'an unexpected error';
    // A path that leads nowhere may be the secret itself, pasted where its file's path goes: not repeated.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG')
      return { problem: `${setting}: no file at the path it names (${code})` };
    return { problem: `${setting}: cannot read ${file}: ${code}` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A secret's file: its content without the line break an editor or `echo` leaves at the end. */
export function readSecretFile(file: string, setting: string): string | { problem: string } {
  const text = readBoundedFile(file, setting, SECRET_BOUND);
  return typeof text === 'string' ? text.replace(/\r?\n$/, '') : text;
}

/**
 * The environment with each secret's NAME_FILE read into NAME. Both set is a mistake said at start (which
 * one would win is a guess); a file that cannot be read is named, its content never.
 */
export function withSecretFiles(env: Environment): { env: Environment; problems: string[] } {
  const out: Environment = { ...env };
  const problems: string[] = [];
  for (const name of SECRET_VARIABLES) {
    const file = env[`${name}_FILE`]?.trim();
    if (!file) continue;
    if (env[name]?.trim()) {
      problems.push(`${name} and ${name}_FILE are both set: give the secret one way.`);
      continue;
    }
    const value = readSecretFile(file, `${name}_FILE`);
    if (typeof value === 'string') out[name] = value;
    else problems.push(value.problem);
  }
  return { env: out, problems };
}
