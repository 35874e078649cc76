import { spawn, spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type SpawnedServer, spawnServer } from '../../scripts/spawn-server.mjs';
import { claimAuditFile, claimFileOf, STALE_MS } from '../../src/server/audit/audit-claim.ts';
import { createApiFromConfig } from '../../src/server/composition/api.ts';
import { ConfigError, parseConfig } from '../../src/server/config/config.ts';
import { auditFilesOf } from '../../src/server/trail/audit-files.ts';
import { rawRequest } from './http.ts';

/**
 * Two servers started from one working directory both wrote the default audit file and broke each other's
 * hash chain: every row after the first break showed "not vouched for" on the audit page. The first to
 * start now claims the file (a claim file beside it), and the second refuses to start.
 */
const root = path.resolve(import.meta.dirname, '../..');
const started: SpawnedServer[] = [];
afterEach(() => {
  for (const server of started.splice(0)) server.child.kill('SIGKILL');
});

/** `npm start` as a user runs it (the built server, the embedded sandbox) on the given audit file. */
function start(auditLog: string): SpawnedServer {
  const server = spawnServer(['scripts/built.mjs', 'server'], {
    cwd: root,
    env: { KYC_BASE_URL: '', KYC_CLIENT_ID: '', KYC_API_KEY: '', CONFIG_FILE: '', HOST: '127.0.0.1', PORT: '0', AUDIT_LOG: auditLog },
  });
  started.push(server);
  return server;
}

/** The server's exit code, or "listening" if it started. */
function outcome(server: SpawnedServer): Promise<number | null | 'listening'> {
  return Promise.race([server.exited, server.url.then(() => 'listening' as const)]);
}

async function lookupStatus(server: SpawnedServer): Promise<number> {
  return (await rawRequest(Number(new URL(await server.url).port), '/api/candidates/refId/cust_000482')).status;
}

function verify(auditLog: string) {
  return spawnSync(process.execPath, ['scripts/built.mjs', 'audit-verify', auditLog], { cwd: root, encoding: 'utf8' });
}

const freshAuditLog = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-claim-')), 'audit.jsonl');

describe('two server processes on one AUDIT_LOG', () => {
  it('the second refuses to start, naming the file, the first process and the fix; the first keeps serving; after a SIGKILL a new one starts', async () => {
    const auditLog = freshAuditLog();
    const first = start(auditLog);
    await first.url;
    const second = start(auditLog);
    expect(await outcome(second)).toBe(1);
    const said = second.output();
    expect(said).toContain(`AUDIT_LOG=${auditLog} is in use`);
    expect(said).toContain(`pid ${first.child.pid} on host ${os.hostname()}`);
    expect(said).toContain('Give each instance its own AUDIT_LOG');
    expect(said).toContain(claimFileOf(auditLog));

    // The first serves on, and the file reads as ever while it is held.
    expect(await lookupStatus(first)).toBe(200);
    expect(verify(auditLog).stdout).toContain('chain intact');
    // The claim file is no audit file: the audit page's list of files does not take it for a rotated one.
    expect((await auditFilesOf(auditLog)).map((file) => file.name)).toEqual(['audit.jsonl']);

    // A crash leaves the claim behind; its pid no longer runs, so it does not block the restart.
    first.child.kill('SIGKILL');
    await first.exited;
    expect(existsSync(claimFileOf(auditLog))).toBe(true);
    const restarted = start(auditLog);
    expect(await outcome(restarted)).toBe('listening');
    expect(await lookupStatus(restarted)).toBe(200);
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
    // A clean stop removes the claim; the chain is whole across the three starts.
    expect(existsSync(claimFileOf(auditLog))).toBe(false);
    const checked = verify(auditLog);
    expect(checked.stdout).toContain('chain intact');
    expect(checked.status).toBe(0);
  }, 120_000);
});

describe('two server processes on one audit file under two names (a hard link)', () => {
  it("attack: the second, given a hard link of the first one's audit file, refuses to start; the first keeps serving", async () => {
    const auditLog = freshAuditLog();
    const first = start(auditLog);
    await first.url;
    const otherName = freshAuditLog();
    linkSync(auditLog, otherName);
    const second = start(otherName);
    expect(await outcome(second)).toBe(1);
    const said = second.output();
    expect(said).toContain(`AUDIT_LOG=${otherName} has 2 names (hard links)`);
    expect(said).toContain(`find / -xdev -samefile ${otherName}`);
    expect(said).toContain('give each instance its own AUDIT_LOG');
    expect(await lookupStatus(first)).toBe(200);
    expect(verify(auditLog).stdout).toContain('chain intact');
  }, 120_000);
});

/** Starts the API on an audit file whose claim file holds `claim` (modified `ageMs` ago): its ConfigError's message, or the claim it made. */
function startOver(claim: Record<string, unknown>, ageMs = 0): { refused?: string; claim?: string } {
  const auditLog = freshAuditLog();
  const file = claimFileOf(auditLog);
  writeFileSync(file, JSON.stringify(claim));
  const at = new Date(Date.now() - ageMs);
  utimesSync(file, at, at);
  const config = parseConfig({ AUDIT_LOG: auditLog, KYC_BASE_URL: 'http://127.0.0.1:9', KYC_CLIENT_ID: 'c', KYC_API_KEY: 'k' });
  try {
    const api = createApiFromConfig(config, { environments: [], banner: [], close: async () => {} });
    const made = readFileSync(file, 'utf8');
    void api.close();
    return { claim: made };
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return { refused: (error as Error).message };
  }
}

describe('a claim left by a process that is gone does not block a start; one whose process may run does', () => {
  const here = { host: os.hostname(), since: '2026-11-30T10:00:00.000Z', token: 'theirs' };

  it('another host (another container on a shared volume): refused while it is refreshed, taken once it is stale', () => {
    const elsewhere = { ...here, host: 'app1-container', pid: 1 };
    expect(startOver(elsewhere).refused).toContain('pid 1 on host app1-container, since 2026-11-30T10:00:00.000Z');
    expect(JSON.parse(startOver(elsewhere, STALE_MS + 5000).claim ?? '{}')).toMatchObject({ pid: process.pid, host: os.hostname() });
  });

  it('this host: a pid that no longer runs, and our own pid (a restarted container is pid 1 again), are taken at once', () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    expect(JSON.parse(startOver({ ...here, pid: gone }).claim ?? '{}').pid).toBe(process.pid);
    expect(JSON.parse(startOver({ ...here, pid: process.pid, token: 'an earlier process' }).claim ?? '{}').token).not.toBe(
      'an earlier process',
    );
  });

  it.skipIf(!existsSync('/proc/self/stat'))(
    'this host: a running pid is refused, unless it now belongs to a process started at another time',
    () => {
      const parent = readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
      const startTicks = parent.slice(parent.lastIndexOf(')') + 2).split(' ')[19];
      expect(startOver({ ...here, pid: process.ppid, startTicks }).refused).toContain(`pid ${process.ppid} on host ${os.hostname()}`);
      expect(JSON.parse(startOver({ ...here, pid: process.ppid, startTicks: '1' }).claim ?? '{}').pid).toBe(process.pid);
    },
  );
});

describe('a claim whose process was killed and not yet reaped (a zombie)', () => {
  /** The state of a process, the 3rd field of /proc/<pid>/stat (after the command name's last ')'). */
  const stateOf = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  };

  it.skipIf(!existsSync('/proc/self/stat'))(
    'is taken at once: a restart within about a second of a SIGKILL was refused, as kill(pid, 0) still answers for it',
    async () => {
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      const pid = child.pid!;
      await new Promise((resolve) => child.once('spawn', resolve));
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const claim = {
        pid,
        host: os.hostname(),
        since: '2026-11-30T10:00:00.000Z',
        token: 'killed',
        startTicks: stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19],
      };
      child.kill('SIGKILL');
      // Not reaped while this test does not return to the event loop (Node reaps its children there): the
      // process stays a zombie, as one whose parent (npm, a shell) has not waited for it yet.
      while (stateOf(pid) !== 'Z') {
        /* the kernel ends it in a moment */
      }
      const taken = startOver(claim);
      expect(stateOf(pid)).toBe('Z');
      expect(taken.refused).toBeUndefined();
      expect(JSON.parse(taken.claim ?? '{}').pid).toBe(process.pid);
    },
  );
});

describe('a held claim', () => {
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('is refreshed while its instance runs, so that another host never finds it stale; taken by another, that is said once and theirs is kept', async () => {
    const lost: string[] = [];
    const claim = claimAuditFile(freshAuditLog(), (message) => lost.push(message), 20);
    if (!('file' in claim)) throw new Error('not claimed');
    const old = new Date(Date.now() - STALE_MS - 5000);
    utimesSync(claim.file, old, old);
    await until(() => statSync(claim.file).mtimeMs > old.getTime() + STALE_MS);

    const theirs = JSON.stringify({ pid: 1, host: 'app2-container', since: '2026-11-30T10:00:00.000Z', token: 'theirs' });
    writeFileSync(claim.file, theirs);
    await until(() => lost.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lost).toEqual([expect.stringContaining('is now another instance\'s: {"pid":1,"host":"app2-container"')]);
    expect(lost[0]).toContain('Give each instance its own AUDIT_LOG');
    await claim.release();
    expect(readFileSync(claim.file, 'utf8')).toBe(theirs);
  });
});

describe('an audit file in a directory the server may not write', () => {
  it('starts without a claim, saying the one-writer check is off, where it died of EACCES before (the whole-diff review)', () => {
    const auditLog = freshAuditLog();
    // As a directory owned by another user answers (a test run as root is never refused a write itself).
    const refusedWrite = () => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    };
    const claim = claimAuditFile(auditLog, () => {}, 20, refusedWrite);
    expect(claim).toEqual({ unclaimed: expect.stringContaining(`AUDIT_LOG=${auditLog}: the claim file ${claimFileOf(auditLog)}`) });
    expect('unclaimed' in claim && claim.unclaimed).toContain('Give each instance its own AUDIT_LOG');
    expect(existsSync(claimFileOf(auditLog))).toBe(false);
    // Another error is no permission to work around: it stops the start as before.
    const otherError = () => {
      throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
    };
    expect(() => claimAuditFile(auditLog, () => {}, 20, otherError)).toThrow('EIO');
  });
});
