import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../../src/server/config/config.ts';
import { as, GATEWAY, search } from './audit-trail-helpers.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { type Instance, startInstance } from './instance.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE, type RunningPostgres, startPostgres } from './postgres-fixture.ts';

/**
 * A lookup refused because the service (or a cache or gateway in front of it) answered with another
 * candidate's record names that candidate only as its `answeredId`: a lead searching the trail for who
 * was shown, or refused, candidate X must find the refusal where X's record came back, over the files as
 * over the table, and read in its row why a line of another id came up.
 */

const SAM = as('sam', 'support');
const REFUSED = 'Refused: the KYC service answered with the record of refId cust-b when asked for refId cust-a; nothing of it sent';

let postgres: RunningPostgres | undefined;
const cleanups: Array<() => Promise<void>> = [];
beforeAll(async () => {
  if (hasPostgres) postgres = await startPostgres();
}, 60_000);
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
afterAll(async () => {
  await postgres?.destroy();
});

/** An instance whose service answers every lookup with cust-b's record, and one such lookup of cust-a refused. */
async function refusedLookup(env: Environment = {}): Promise<Instance> {
  const upstream = await startFakeUpstream();
  upstream.behave = (_req, res) => {
    const body = JSON.stringify({ status: 'success', data: { refId: 'cust-b', status: 'approved', isArchived: false } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const at = await startInstance(
    { KYC_BASE_URL: upstream.url, KYC_CLIENT_ID: 'c', KYC_API_KEY: 'full', KYC_API_KEY_STATUS: 'status', ...env },
    { file: GATEWAY },
  );
  cleanups.push(at.close, upstream.close);
  const res = await at.request('/api/candidates/refId/cust-a', { headers: SAM });
  expect(res.status).toBe(502);
  expect(JSON.parse(res.body).error).toMatchObject({ code: 'other_candidate', answeredId: 'cust-b' });
  return at;
}

async function expectFoundByEitherId(at: Instance, source: 'files' | 'database') {
  const refusal = expect.objectContaining({ kind: 'refId', id: 'cust-a', code: 'other_candidate', detail: REFUSED });
  // Before: only by cust-a, the id asked; the search by cust-b found nothing.
  const byAnswered = await search(at, { refId: 'cust-b' });
  expect(byAnswered.source.kind).toBe(source);
  expect(byAnswered.rows).toEqual([refusal]);
  expect((await search(at, { refId: 'cust-a' })).rows).toEqual([refusal]);
  // Neither id of another kind, nor another candidate, finds it.
  expect((await search(at, { recordId: 'cust-b' })).rows).toEqual([]);
  expect((await search(at, { refId: 'cust-c' })).rows).toEqual([]);
}

describe("a search by the candidate whose record came back to someone else's lookup", () => {
  it('finds the refusal over the files (no database), labelled with both ids', async () => {
    await expectFoundByEitherId(await refusedLookup(), 'files');
  });

  it.skipIf(!hasPostgres)(
    `finds the refusal over the table in PostgreSQL, labelled with both ids${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`,
    async () => {
      const url = await postgres!.database();
      const at = await refusedLookup({ DATABASE_URL: url, AUDIT_INSTANCE: 'app1' });
      await expect.poll(async () => (await search(at, { refId: 'cust-a' })).source.kind, { timeout: 10_000 }).toBe('database');
      await expectFoundByEitherId(at, 'database');
    },
    60_000,
  );
});
