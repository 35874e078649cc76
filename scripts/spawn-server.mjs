// @ts-check
// Starts a Node server as a child process and waits for the URL it prints: the bench, the load test and
// the tests that start `npm start` all do it this way.
import { spawn } from 'node:child_process';

/**
 * What the project's servers print once they listen: "… running at http://…/" (inside a JSON log line),
 * "… running at:" and the address on a line of its own (at a terminal), or "… upstream at http://…".
 */
export const LISTENING = /(?:running|upstream) at:?\s+(http:\/\/[^\s"]+?)\/?(?:["\s]|$)/;

const OUTPUT_KEPT = 1024 * 1024;

/**
 * @typedef {object} SpawnedServer
 * @property {import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, import('node:stream').Readable>} child
 * @property {Promise<string>} url its URL, without a trailing slash; rejects, with what it printed, if it exits first
 * @property {Promise<number | null>} exited its exit code
 * @property {() => string} output everything it printed so far, stdout and stderr
 * @property {() => void} stop SIGTERM, unless it has already exited
 */

/**
 * @param {string[]} args the Node arguments: a script and its own arguments
 * @param {{ env?: NodeJS.ProcessEnv; cwd?: string; echoStderr?: boolean; pattern?: RegExp }} [options]
 *   `env` replaces the environment (PATH is kept); `echoStderr` passes the child's stderr on to ours.
 * @returns {SpawnedServer}
 */
export function spawnServer(args, options = {}) {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A server under load logs a line per request: only the most recent output is kept.
  let output = '';
  /** @param {Buffer} chunk */
  const keep = (chunk) => {
    output = (output + chunk).slice(-OUTPUT_KEPT);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', (chunk) => {
    keep(chunk);
    if (options.echoStderr) process.stderr.write(chunk);
  });
  /** @type {Promise<number | null>} */
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  /** @type {Promise<string>} */
  const url = new Promise((resolve, reject) => {
    const pattern = options.pattern ?? LISTENING;
    child.stdout.on('data', () => {
      const match = pattern.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`${args.join(' ')} exited (${code}) before it listened:\n${output}`)));
  });
  url.catch(() => {}); // a caller that expects the exit reads `exited` instead
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  return { child, url, exited, output: () => output, stop };
}
