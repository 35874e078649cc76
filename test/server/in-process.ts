import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Environment } from '../../src/server/config/config.ts';
import { type RunningServer, type StartOptions, startServer } from '../../src/server/composition/start-server.ts';

/**
 * `npm start` in the test's process: main.ts's start with a given environment (nothing of the test's own),
 * port 0, an audit log of its own, and its output captured, not a terminal (so JSON lines).
 */
export interface StartedInProcess {
  server: RunningServer;
  port: number;
  output(): string;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-in-process-'));
const staticDir = path.join(dir, 'client');
mkdirSync(staticDir);
writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Candidate Lookup</title>');

/** A scratch folder for this file's configuration files. */
export const scratchDir = dir;

/**
 * `crawl`: the queue's crawler reads the service as `npm start`'s does; off unless asked, so that a test of
 * something else sees no request, log or audit line it did not cause.
 */
export function startOptions(env: Environment, printed: string[], crawl = false): StartOptions {
  return {
    env: { HOST: '127.0.0.1', PORT: '0', AUDIT_LOG: path.join(dir, `audit-${Math.random().toString(36).slice(2)}.jsonl`), ...env },
    cwd: dir,
    stdout: { isTTY: false, write: (text: string) => void printed.push(text) },
    staticDir,
    ...(crawl ? {} : { queueCrawl: { start: false } }),
  };
}

export async function startInProcess(env: Environment = {}, options: { crawl?: boolean } = {}): Promise<StartedInProcess> {
  const printed: string[] = [];
  const server = await startServer(startOptions(env, printed, options.crawl));
  return { server, port: Number(new URL(server.url).port), output: () => printed.join('') };
}
