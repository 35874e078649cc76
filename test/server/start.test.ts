import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type SpawnedServer, spawnServer } from '../../scripts/spawn-server.mjs';
import { STOP_DEADLINE_MS } from '../../src/server/composition/start-server.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { heavySvgPictures, picturesBody } from './hostile-upstream.ts';
import { rawRequest } from './http.ts';
import { startInProcess } from './in-process.ts';
import { getBytes } from './parts.ts';
import { noisePng } from './preview-pictures.ts';
import { isRunning, previewProcesses } from './preview-processes.ts';

/**
 * `npm start` and `npm run sandbox` as a user runs them: builds if needed, prints the URL, stops cleanly on a
 * signal, exits non-zero on a bad start. What the server does once started, with a given environment, is in
 * start-server.test.ts (in this process, much faster).
 */
const root = path.resolve(import.meta.dirname, '../..');
const started: SpawnedServer[] = [];
afterEach(() => {
  for (const server of started.splice(0)) server.child.kill('SIGKILL');
});

function start(env: Record<string, string>, entry: 'server' | 'sandbox' = 'server', args: string[] = []): SpawnedServer {
  const server = spawnServer(['scripts/built.mjs', entry, ...args], {
    cwd: root,
    env: {
      KYC_BASE_URL: '',
      KYC_CLIENT_ID: '',
      KYC_API_KEY: '',
      CONFIG_FILE: '',
      HOST: '127.0.0.1',
      PORT: '0',
      AUDIT_LOG: path.join(os.tmpdir(), `cl-start-audit-${process.pid}.jsonl`),
      ...env,
    },
  });
  started.push(server);
  return server;
}

/** Resolves once the server has printed `text`. */
async function printed(server: SpawnedServer, text: string): Promise<void> {
  while (!server.output().includes(text)) await new Promise((resolve) => server.child.stdout.once('data', resolve));
}

/** The list operation's answer with no candidates. */
function emptyList(res: http.ServerResponse): void {
  const text = JSON.stringify({ status: 'success', data: { records: [], total: 0 } });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

describe('npm start', () => {
  it('prints the URL, says it is on the sandbox, and serves a sample candidate', async () => {
    // As at a terminal: the banner as a box of text and the address on a line of its own, no JSON.
    const server = start({ LOG_FORMAT: 'pretty' });
    const url = new URL(await server.url);
    const lines = server.output().split('\n');
    expect(lines.filter((line) => /^ {2}\*.*\*$/.test(line)).some((line) => line.includes('SANDBOX MODE'))).toBe(true);
    expect(lines).toContain(`      ${url}`);
    expect(server.output()).not.toContain('{"level"');
    const res = await rawRequest(Number(url.port), '/api/candidates/refId/cust_000482');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).data.refId).toBe('cust_000482');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('stops at start on a bad configuration, naming the variable', async () => {
    const server = start({ PORT: 'eighty' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('PORT must be a whole number');
  }, 60_000);

  it('lets an in-flight lookup finish on SIGTERM, then exits', async () => {
    const upstream = await startFakeUpstream();
    let arrived = (_answer: http.ServerResponse) => {};
    const reachedUpstream = new Promise<http.ServerResponse>((resolve) => {
      arrived = resolve;
    });
    // The queue's crawler reads the service's list from the start (issue 32): an empty one; the lookup is held.
    upstream.behave = (req, res) => (req.url!.includes('/applicants') ? emptyList(res) : arrived(res));
    const server = start({ KYC_BASE_URL: upstream.url, KYC_CLIENT_ID: 'c', KYC_API_KEY: 'key-never-logged' });
    const url = new URL(await server.url);
    const inFlight = rawRequest(Number(url.port), '/api/candidates/refId/slow');
    const held = await reachedUpstream; // the lookup is in flight: the service has it and has not answered
    server.child.kill('SIGTERM');
    // The service answers once the server has begun to stop, not before.
    await printed(server, 'SIGTERM received');
    held.writeHead(200, { 'content-type': 'application/json' });
    held.end('{"status":"success","data":{"late":true}}');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.body).toContain('"late":true');
    expect(await server.exited).toBe(0);
    const request = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === 'request');
    expect(request).toMatchObject({ level: 'info', method: 'GET', route: '/api/candidates/refId/:id', status: 200 });
    expect(server.output()).not.toContain('key-never-logged');
    expect(server.output()).not.toContain('slow');
    await upstream.close();
  }, 60_000);

  it('SIGTERM exits within the grace period while a preview runs, a record of heavy SVGs is open and its service never ends it', async () => {
    // Two SVGs that would each take a thread for minutes if decoded, and a large PNG that is (in a preview process).
    const { passport, selfie } = heavySvgPictures();
    const body = picturesBody({ national_id: await noisePng(1800, 1800), passport: passport!, selfie: selfie! }, 'heavy');
    const upstream = await startFakeUpstream();
    upstream.behave = (req, res) => {
      // The queue's crawler reads the service's list from the start (issue 32): an empty one.
      if (req.url!.includes('/applicants')) return emptyList(res);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      // Everything but the record's last bytes: the lookup stays in flight.
      res.write(body.subarray(0, -16));
    };
    const server = start({ KYC_BASE_URL: upstream.url, KYC_CLIENT_ID: 'c', KYC_API_KEY: 'key-never-logged' });
    const url = new URL(await server.url);
    const inFlight = getBytes(Number(url.port), '/api/candidates/refId/heavy');
    const seen = new Set<number>();
    await expect
      .poll(
        () => {
          for (const pid of previewProcesses(server.child.pid)) seen.add(pid);
          return seen.size;
        },
        { timeout: 30_000, interval: 10 },
      )
      .toBeGreaterThan(0);
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    console.log(
      `SIGTERM with a preview running: exited after ${Math.round(performance.now() - signalled)} ms (deadline ${STOP_DEADLINE_MS} ms)`,
    );
    // The lookup the service never finished was cut at the end of the drain, and no preview process outlived the server.
    expect((await inFlight).cut).toBe(true);
    expect([...seen].filter(isRunning)).toEqual([]);
    await upstream.close();
  }, 90_000);

  it('writes a chained audit log that `npm run audit:verify` finds intact, and catches an edit', async () => {
    const auditLog = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-start-')), 'audit.jsonl');
    // The server that writes it runs in this process: the command under test is the one that reads it.
    const { server, port } = await startInProcess({ AUDIT_LOG: auditLog });
    for (const id of ['cust_000482', 'no-such-candidate', 'cust_000482']) await rawRequest(port, `/api/candidates/refId/${id}`);
    await server.stop('SIGTERM');

    const verify = () => spawnSync('npm', ['run', 'audit:verify', '--', auditLog], { cwd: root, encoding: 'utf8' });
    const intact = verify();
    // Each found lookup's line and its closing line (what its answer held), and the refused one's line.
    expect(intact.stdout).toContain('5 lines, chain intact');
    expect(intact.status).toBe(0);

    writeFileSync(auditLog, readFileSync(auditLog, 'utf8').replace('no-such-candidate', 'another-candidate'));
    const edited = verify();
    expect(edited.status).toBe(1);
    // The edited third line is named, the first that cannot be vouched for (the fourth's prev noticed it).
    expect(edited.stderr).toContain(`${auditLog}:3: chain broken`);
  }, 60_000);

  it('npm run sandbox with HOST=0.0.0.0 still serves this machine only: its keys are documented', async () => {
    const open = start({ HOST: '0.0.0.0' }, 'sandbox', ['--port', '0']);
    const url = new URL(await open.url);
    expect(url.hostname).toBe('127.0.0.1');
    await printed(open, 'HOST=0.0.0.0 applies to the app, not the sandbox');
    await printed(open, 'candidates:');
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((nic) => nic && nic.family === 'IPv4' && !nic.internal)?.address;
    if (external) {
      await expect(
        new Promise((resolve, reject) => net.connect(Number(url.port), external).once('connect', resolve).once('error', reject)),
      ).rejects.toThrow(/ECONNREFUSED/);
    }
    open.child.kill('SIGTERM');
    expect(await open.exited).toBe(0);

    const chosen = start({}, 'sandbox', ['--host', '::1', '--port', '0']);
    expect(new URL(await chosen.url).hostname).toBe('[::1]');
    chosen.child.kill('SIGTERM');
    expect(await chosen.exited).toBe(0);
  }, 60_000);
});
