import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applicantsPageSchema } from '../../src/kyc/contract/applicants.ts';
import { ConfigError, type Environment } from '../../src/server/config/config.ts';
import { type RunningServer, startServer } from '../../src/server/composition/start-server.ts';
import { rawRequest } from './http.ts';
import { type StartedInProcess, scratchDir, startInProcess, startOptions } from './in-process.ts';

/**
 * What `npm start` does, run in this process (in-process.ts). What is about the process itself (the
 * commands, the exit codes, the signals) is in start.test.ts.
 */
const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop('SIGTERM')));
});

async function start(env: Environment = {}): Promise<StartedInProcess> {
  const started = await startInProcess(env);
  running.push(started.server);
  return started;
}

/** What main.ts prints when the start fails on its configuration (orExit: the message, no stack trace). */
async function refusal(env: Environment, printed: string[] = []): Promise<string> {
  const error = await startServer(startOptions(env, printed)).then(
    (server) => {
      running.push(server);
      return new Error(`started at ${server.url}`);
    },
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).message;
}

/** CONFIG_FILE with `content`. */
function configFile(content: unknown): string {
  const file = path.join(scratchDir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('npm start, in-process', () => {
  it('stops at start on a bad sandbox.data or users file, with the problem and no stack trace', async () => {
    writeFileSync(path.join(scratchDir, 'data.json'), '[{"status": 1}]');
    const data = await refusal({ CONFIG_FILE: configFile({ sandbox: { data: path.join(scratchDir, 'data.json') } }) });
    expect(data).toContain('is not a list of candidate records');
    expect(data).toContain('→ at [0].status');
    expect(data).not.toMatch(/^\s+at /m);

    writeFileSync(path.join(scratchDir, 'users.json'), '{"users":[{"username":"ana","passwordHash":"plain text!","role":"compliance"}]}');
    const users = await refusal({ CONFIG_FILE: configFile({ signIn: { mode: 'users', usersFile: path.join(scratchDir, 'users.json') } }) });
    expect(users).toContain('passwordHash');
    expect(users).not.toMatch(/^\s+at /m);
  });

  it('stops at start on a half-configured OpenID Connect sign-in, naming what is missing by its place in the file', async () => {
    const file = configFile({ signIn: { mode: 'oidc', issuer: 'https://login.example.org', clientId: 'candidate-lookup' } });
    const message = await refusal({ CONFIG_FILE: file });
    expect(message).toContain(`CONFIG_FILE ${file}: signIn.redirectUrl: is missing`);
    expect(message).not.toMatch(/^\s+at /m);
  });

  it('stops at start on a variable it no longer reads, naming its place in CONFIG_FILE', async () => {
    const message = await refusal({ SUMMARY_FIELDS: 'riskLevel', OIDC_ISSUER: 'https://login.example.org' });
    expect(message).toContain(
      'SUMMARY_FIELDS is no longer read: put it in CONFIG_FILE at environments[].summaryFields (or display.summaryFields for every environment)',
    );
    expect(message).toContain('OIDC_ISSUER is no longer read: put it in CONFIG_FILE at signIn: { "mode": "oidc", "issuer": "…" }');
    expect(message).not.toMatch(/^\s+at /m);
  });

  it('never prints credentials embedded in KYC_BASE_URL', async () => {
    const printed: string[] = [];
    // An old server would start and print its banner.
    const message = await refusal({ KYC_BASE_URL: 'http://ops:hunter2-secret@127.0.0.1:9', KYC_CLIENT_ID: 'c', KYC_API_KEY: 'k' }, printed);
    expect(`${printed.join('')}${message}`).not.toContain('hunter2');
    expect(message).toContain('KYC_BASE_URL must not contain a user name or password');
  });

  it('a fresh start on the sandbox crawls its queue at once: within seconds every waiting row is dated and ordered oldest first (issue 32)', async () => {
    const started = await startInProcess({}, { crawl: true });
    running.push(started.server);
    const waiting = async () => {
      const res = await rawRequest(started.port, '/api/applicants?status=waiting&limit=100');
      return applicantsPageSchema.parse(JSON.parse(res.body)).data;
    };
    // Polled, never timed: the crawl's pace is the sandbox's 100 requests a second.
    await expect.poll(async () => (await waiting()).index?.crawling, { timeout: 20_000, interval: 100 }).toBeUndefined();
    await expect
      .poll(
        async () => {
          const { index } = await waiting();
          return index !== undefined && index.of > 0 && index.dated === index.of;
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe(true);
    const rows = (await waiting()).records;
    expect(rows.map((row) => row.since)).toEqual(rows.map((row) => row.since).sort());
  });

  it('starts with Redis down: static files answer, lookups fail closed, and it still stops cleanly', async () => {
    const { server, port, output } = await start({ REDIS_URL: 'redis://:never-logged@127.0.0.1:9/0' });
    expect(output()).toContain('Shared state: sessions, sign-in locks and rate limits in Redis at redis://127.0.0.1:9/0');
    expect((await rawRequest(port, '/')).status).toBe(200);
    const lookup = await rawRequest(port, '/api/candidates/refId/cust_000482');
    expect(lookup.status).toBe(503);
    expect(JSON.parse(lookup.body).error.code).toBe('store_unavailable');
    running.splice(running.indexOf(server), 1);
    await server.stop('SIGTERM');
    expect(output()).toContain('is unreachable');
    expect(output()).not.toContain('never-logged');
  });

  it('logs JSON lines when stdout is not a terminal, answers /healthz and /readyz, and serves /metrics on METRICS_PORT only', async () => {
    const { server, port, output } = await start({ METRICS_PORT: '0' });
    const metricsUrl = new URL(/Metrics \(Prometheus\) at (http:\/\/[^\s"]+)/.exec(output())![1]!);

    expect((await rawRequest(port, '/healthz')).status).toBe(200);
    // Asked at once: while the start's free-space question is being answered, /readyz waits for it rather
    // than calling the log stuck (health.test.ts, "the start's race").
    const ready = await rawRequest(port, '/readyz');
    expect(ready.status, ready.body).toBe(200);
    expect(JSON.parse(ready.body).checks).toEqual({ auditLog: { ok: true }, upstreamHost: { ok: true } });
    const lookup = await rawRequest(port, '/api/candidates/refId/cust_000482');
    expect(lookup.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const metrics = await rawRequest(Number(metricsUrl.port), metricsUrl.pathname);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('candidate_lookup_lookups_total{code="ok",role="compliance",level="full"} 1');
    expect(metrics.body).toContain('candidate_lookup_process_cpu_seconds_total');
    expect(metrics.body).toMatch(/candidate_lookup_audit_free_bytes \d+/);
    expect((await rawRequest(port, '/metrics')).body).not.toContain('candidate_lookup_');

    running.splice(running.indexOf(server), 1);
    await server.stop('SIGTERM');
    // Every line of output is a JSON log line; the request line carries the same id as the header.
    const records = output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; reqId?: string });
    expect(records.find((line) => line.reqId === lookup.headers['x-request-id'])).toMatchObject({ msg: 'request', status: 200 });
  });
});
