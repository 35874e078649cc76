import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { ConfigFile } from '../../src/server/config/file-schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { as, gatewayInstance, lookUp } from './audit-trail-helpers.ts';
import type { Instance } from './instance.ts';
import { hasPostgres, type RunningPostgres, startPostgres } from './postgres-fixture.ts';
import { pageOf } from './queue-fixture.ts';

/**
 * What the tests of the audit table share (audit-cut, audit-export, audit-stopped, audit-connections,
 * audit-table, queue-view-audit), and those of a queue view in the audit trail besides: the sample
 * candidates, user-7781 among them with a potential match, the compliance users who look it up and view
 * its tab, and a sandbox and PostgreSQL for the whole file; or the sandbox alone, for the tests of the
 * audit log in files (audit-page, export-file, batch-export).
 */

export const candidates = await sampleCandidates({ now: new Date(), pictures: false });
export const screened = candidates.find((candidate) => candidate.record.refId === 'user-7781')!.record;
export const ANA = as('ana', 'compliance');
export const DAVE = as('dave', 'compliance');

/**
 * Instances of the production composition behind the gateway on `sandbox()`: each, and whatever a test adds
 * to `closing`, closed after the test that started it.
 */
function instancesOn(sandbox: () => RunningSandbox) {
  const closing: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(closing.splice(0).map((started) => started.close()));
  });
  async function instance(env: Record<string, string> = {}, file: ConfigFile = {}): Promise<Instance> {
    const started = await gatewayInstance(sandbox(), env, file);
    closing.push(started);
    return started;
  }
  return { instance, closing };
}

/**
 * The sandbox of `candidates` and, where its binaries are, a PostgreSQL, started before the calling file's
 * first test and stopped after its last. `instance` starts the production composition on the sandbox;
 * it, and whatever a test adds to `closing`, is closed after that test.
 */
export function sandboxAndPostgres() {
  let sandbox: RunningSandbox;
  let postgres: RunningPostgres | undefined;
  beforeAll(async () => {
    [sandbox, postgres] = await Promise.all([startSandbox({ candidates }), hasPostgres ? startPostgres() : undefined]);
  }, 60_000);
  afterAll(async () => {
    await postgres?.destroy();
    await sandbox.close();
  });
  /** A database of its own on the PostgreSQL (in a test run only where there is one). */
  const database = () => postgres!.database();
  /** The PostgreSQL itself, for a test that stops and starts it (only where there is one). */
  const server = () => postgres!;
  return { ...instancesOn(() => sandbox), database, server, sandbox: () => sandbox };
}

/**
 * The sandbox of `candidates` alone, for the tests of the audit log in files (audit-page, export-file,
 * batch-export): started before the calling file's first test and stopped after its last; `instance` and
 * `closing` as sandboxAndPostgres's.
 */
export function sandboxOnly() {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ candidates });
  });
  afterAll(() => sandbox.close());
  return { ...instancesOn(() => sandbox), sandbox: () => sandbox };
}

export const blockedTab = (app: Instance, headers: Record<string, string>) =>
  app.request('/api/applicants?status=blocked&skip=0&limit=50', { headers });

/** Ana's lookup tells the queue index user-7781's potential match, waited for on her own view of the blocked tab. */
export async function anaScreensUser7781(app: Instance): Promise<void> {
  expect((await lookUp(app, 'user-7781', ANA)).status).toBe(200);
  await expect
    .poll(async () => pageOf(await blockedTab(app, ANA)).records.find((row) => row.refId === 'user-7781'))
    .toMatchObject({ certificate: 'potential_match' });
}
