import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_PATHS, type AuditRow } from '../../src/kyc/contract/audit-search.ts';
import { PARTS_ACCEPT } from '../../src/kyc/contract/picture-parts.ts';
import { levelText } from '../../src/kyc/view/audit-labels.ts';
import { todaysLookers } from '../../src/kyc/view/activity.ts';
import { runAuditVerify } from '../../src/server/audit/audit-verify.ts';
import { type SandboxCandidate, sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { activity, as, csvRecords, fileLines, gatewayInstance, lookUp, postJson, search } from './audit-trail-helpers.ts';
import type { Instance } from './instance.ts';
import { hasPostgres, type RunningPostgres, startPostgres } from './postgres-fixture.ts';

/**
 * Compliance review: "did ana see the passport picture?" A full lookup's line is written before the first
 * byte, so it cannot say what the record held; its request closes with a line that does, written once the
 * answer was read and passed on whole and before its end reaches the browser (lookup/full-answer.ts). The
 * audit page, the Activity and the CSV read it onto the lookup's one row (trail/closing-lines.ts).
 */

const candidates = await sampleCandidates({ now: new Date(), pictures: true });
const byRef = (refId: string) => candidates.find((candidate) => candidate.record.refId === refId)!.record;
const amelie = candidates[0]!.record;
const ARCHIVED = 'legacy-2019-0031';
const ANA = as('ana', 'compliance');

/** What the sandbox record holds, as the closing line should count it (the record itself, not the answer). */
function heldBy(record: SandboxCandidate['record'], pictures: boolean) {
  const identities = Object.entries(record.identities ?? {}).filter(([, value]) => pictures || value.type !== 'base64');
  const names = identities.filter(([, value]) => value.type === 'base64').map(([name]) => name);
  return {
    identities: identities.length,
    pictures: names.length,
    pictureNames: names,
    certificates: Object.keys(record.certs ?? {}).length,
  };
}

/** Amelie's record as a service that writes `certs` as JSON text sends it: the page reads it (map-text.ts). */
const CERTS_AS_TEXT = 'certs-as-text-1';
const certsAsText: SandboxCandidate = {
  summary: 'certs sent as JSON text',
  listOnly: true,
  record: { ...amelie, refId: CERTS_AS_TEXT, recordId: 'c0ffee00c0ffee00c0ffee01', certs: JSON.stringify(amelie.certs) as never },
};

let sandbox: RunningSandbox;
let postgres: RunningPostgres | undefined;
const instances: Instance[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ candidates: [...candidates, certsAsText] });
});
afterEach(async () => {
  await Promise.all(instances.splice(0).map((instance) => instance.close()));
});
afterAll(async () => {
  await sandbox.close();
  await postgres?.destroy();
});

async function instance(env: Record<string, string> = {}): Promise<Instance> {
  const started = await gatewayInstance(sandbox, env);
  instances.push(started);
  return started;
}

/** The closing line of the request that answered `requestId`, read from the file at once: no wait, no poll. */
const closingLine = (at: Instance, requestId: unknown) =>
  fileLines(at.auditLog).find((line) => line.requestId === requestId && line.held !== undefined);

async function lookupsOf(at: Instance, refId: string): Promise<AuditRow[]> {
  return (await search(at, { refId, action: 'lookup' })).rows;
}

describe('what a full answer held, in the audit trail', () => {
  it('with the key without pictures: the row says no pictures, one row per lookup, its closing line already written when the answer ended', async () => {
    const at = await instance({ KYC_API_KEY: SANDBOX_KEYS.identity });
    const res = await lookUp(at, amelie.refId!, ANA);
    expect(res.status).toBe(200);
    const expected = heldBy(amelie, false);
    expect(expected.identities).toBeGreaterThan(0);
    expect(closingLine(at, res.headers['x-request-id'])).toMatchObject({ status: 200, level: 'full', held: expected });
    const rows = (await search(at, { refId: amelie.refId })).rows;
    expect(rows.map((row) => [row.action, row.level, row.status])).toEqual([['lookup', 'full', 200]]);
    expect(rows[0]!.held).toEqual(expected);
    expect(levelText(rows[0]!)).toMatch(/^Full key; held: \d+ identity attributes, no pictures, (\d+ certificates?|no certificates)$/);
  });

  it('with the full key, plain and in parts: the pictures by name, counted once per lookup on the page, in the Activity and the CSV', async () => {
    const at = await instance();
    expect((await lookUp(at, amelie.refId!, ANA)).status).toBe(200);
    const parts = await at.request(`/api/candidates/refId/${amelie.refId}`, { headers: { ...ANA, accept: PARTS_ACCEPT } });
    expect(parts.status).toBe(200);
    expect(parts.headers['content-type']).toMatch(/^multipart\//);
    expect(closingLine(at, parts.headers['x-request-id'])).toBeDefined();
    const expected = heldBy(amelie, true);
    expect(expected.pictureNames.length).toBeGreaterThan(0);
    const rows = await lookupsOf(at, amelie.refId!);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.held).toEqual(expected);
    expect(levelText(rows[0]!)).toContain(`${expected.pictures} pictures (${expected.pictureNames.join(', ')})`);
    // The candidate's Activity: each lookup once, and its sentence unchanged.
    const seen = await activity(at, { refId: amelie.refId! }, as('lena', 'lead'));
    expect(seen.rows.map((row) => [row.user, row.action])).toEqual([
      ['ana', 'lookup'],
      ['ana', 'lookup'],
    ]);
    expect(todaysLookers(seen.rows, 'lena', new Date(), 'utc').others.map((other) => other.user)).toEqual(['ana']);
    const csv = await postJson(at, AUDIT_PATHS.export, { refId: amelie.refId, action: 'lookup' });
    const records = csvRecords(csv.body);
    expect(records.map((record) => record.held)).toEqual([levelText(rows[0]!).slice('Full key; '.length), levelText(rows[1]!).slice(10)]);
    // The closing lines chain as every line does: audit:verify finds the chain intact.
    const out: string[] = [];
    expect(
      runAuditVerify(
        [at.auditLog],
        (line) => out.push(line),
        (line) => out.push(line),
      ),
    ).toBe(0);
    expect(out.at(-1)).toMatch(/lines, chain intact$/);
  });

  it('an archived candidate: "archived: no identity data", never a picture', async () => {
    const at = await instance();
    expect((await lookUp(at, ARCHIVED, ANA)).status).toBe(200);
    const [row, ...more] = await lookupsOf(at, ARCHIVED);
    expect(more).toEqual([]);
    expect(row!.held).toMatchObject({
      identities: 0,
      pictures: 0,
      archived: true,
      certificates: heldBy(byRef(ARCHIVED), true).certificates,
    });
    expect(levelText(row!)).toMatch(/^Full key; archived: no identity data, /);
  });

  it('certificates sent as JSON text: the row says they were, not counted, never "no certificates" (the page shows them)', async () => {
    const at = await instance();
    expect(Object.keys(amelie.certs ?? {}).length).toBeGreaterThan(0);
    const res = await lookUp(at, CERTS_AS_TEXT, ANA);
    expect(res.status).toBe(200);
    const [row, ...more] = await lookupsOf(at, CERTS_AS_TEXT);
    expect(more).toEqual([]);
    expect(row!.held).toEqual({ ...heldBy(amelie, true), certificates: 0, certificatesAsText: true });
    expect(levelText(row!)).toMatch(/, certificates sent as text, not counted$/);
    expect(levelText(row!)).not.toContain('no certificates');
  });

  it('attack on the trail: a closing line never stands as a row of its own, whatever the filter', async () => {
    const at = await instance();
    expect((await lookUp(at, amelie.refId!, ANA)).status).toBe(200);
    for (const query of [{}, { user: 'ana' }, { level: 'full' as const }, { action: 'held' as const }, { refId: amelie.refId }]) {
      const rows = (await search(at, query)).rows.filter((row) => row.user === 'ana');
      expect(rows.map((row) => row.action)).toEqual(query.action === 'held' ? [] : ['lookup']);
    }
  });

  it.skipIf(!hasPostgres)(
    'the PostgreSQL table reads the closing line onto the lookup row as the files do',
    async () => {
      postgres ??= await startPostgres();
      const at = await instance({ DATABASE_URL: await postgres.database(), AUDIT_INSTANCE: 'app1', KYC_API_KEY: SANDBOX_KEYS.identity });
      expect((await lookUp(at, amelie.refId!, ANA)).status).toBe(200);
      expect((await lookUp(at, ARCHIVED, ANA)).status).toBe(200);
      const answer = await search(at, { user: 'ana' });
      expect(answer.source.kind).toBe('database');
      expect(answer.rows.map((row) => [row.id, row.action, row.held?.pictures, row.held?.archived ?? false])).toEqual([
        [ARCHIVED, 'lookup', 0, true],
        [amelie.refId, 'lookup', 0, false],
      ]);
      expect(answer.rows[1]!.held).toEqual(heldBy(amelie, false));
    },
    60_000,
  );
});
