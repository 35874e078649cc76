import { readFileSync } from 'node:fs';

/**
 * The preview processes (src/server/answer/preview-child.mjs) a process has started, read from /proc
 * (Linux): what the tests of issue 31 watch to see that a picture's work has really ended, and that no
 * preview process outlives the server.
 */

const read = (file: string) => {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return '';
  }
};

/** The pids of `parent`'s living child processes that run the preview program. */
export function previewProcesses(parent: number = process.pid): number[] {
  return read(`/proc/${parent}/task/${parent}/children`)
    .split(' ')
    .filter(Boolean)
    .map(Number)
    .filter((pid) => read(`/proc/${pid}/cmdline`).includes('preview-child') && isRunning(pid));
}

/** Whether the process exists and has not ended (a zombie, ended but not yet reaped, has). */
export function isRunning(pid: number): boolean {
  const stat = read(`/proc/${pid}/stat`);
  // "pid (name) state …": the name may hold spaces and parentheses, the state follows the last ")".
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return stat !== '' && state !== 'Z' && state !== 'X';
}
