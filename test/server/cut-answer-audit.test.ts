import http from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PARTS_ACCEPT } from '../../src/kyc/contract/picture-parts.ts';
import { AUDIT_PATHS } from '../../src/kyc/contract/audit-search.ts';
import type { AuditEntry } from '../../src/server/audit/audit.ts';
import { todaysLookers } from '../../src/kyc/view/activity.ts';
import { levelText } from '../../src/kyc/view/audit-labels.ts';
import { activity, as, fileLines, LEAD, lookUp, postJson, search } from './audit-trail-helpers.ts';
import { RECORD } from './hostile-upstream.ts';
import { APP_HEADERS, type RawResponse } from './http.ts';
import { type Instance, startInstance } from './instance.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { hasPostgres, type RunningPostgres, startPostgres } from './postgres-fixture.ts';
import { serviceAndApp } from './service-app.ts';

/**
 * Who looked at whom, as it ended: a full answer whose status line had left and that was then cut short
 * (the service stating an error after its record, its answer breaking off, the client leaving) used to
 * leave only its first line, a 200, in the trail. A second line of the same request now says it was cut,
 * and why (lookup/answer-end.ts).
 */

const audit = memoryAuditLog();
const { upstream, app } = await serviceAndApp((baseUrl) => ({
  upstream: { baseUrl, clientId: 'client_cut', apiKey: 'cut-key-5e81a7c3' },
  audit,
}));

/** A record larger than what arrives with the answer's start: its status line leaves before the end is read. */
const LARGE = JSON.stringify({ ...RECORD, identities: { passport: { type: 'base64', value: 'QUJD'.repeat(200_000) } } });
const LATE_ERROR = ',"status":"error","message":"Resource not Found","code":404}';

/** A 200 whose body comes in these pieces, 50 ms apart; `then` decides how it ends (by default, it ends). */
function answerInPieces(pieces: string[], then: (res: http.ServerResponse) => void = (res) => res.end()) {
  upstream.behave = async (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    for (const piece of pieces) {
      res.write(piece);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    then(res);
  };
}

/** The audit lines of the request that answered `res`, in the order written. */
const linesOf = (res: RawResponse) =>
  audit.lines.filter((line) => 'requestId' in line && line.requestId === res.headers['x-request-id']) as AuditEntry[];

/** What each line of that request says: status, code, level, why it was cut when it was, and a closing line's held. */
const outcomes = (res: RawResponse) =>
  linesOf(res).map((line) => `${line.status} ${line.code} ${line.level}${line.cut ? ` cut: ${line.cut}` : ''}${line.held ? ' held' : ''}`);

describe('a full answer cut short after its status line left', () => {
  it('attack: a plain answer whose service states an error after a large record is written as cut, with the error it stated, not as a lone 200', async () => {
    answerInPieces([`{"data":${LARGE}`, LATE_ERROR]);
    const res = await app.get('/api/candidates/refId/r', { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.cut).toBe(true);
    await expect.poll(() => outcomes(res)).toEqual(['200 null full', '404 not_found full cut: service_error']);
    const [first, cut] = linesOf(res);
    expect(cut).toMatchObject({ kind: 'refId', id: 'r', upstreamStatus: 200, user: first!.user });
  });

  it('the service breaking off mid-record: cut, as the answer it could not send whole (502 upstream_error)', async () => {
    answerInPieces([`{"data":${LARGE.slice(0, 400_000)}`], (res) => res.destroy());
    const res = await app.get('/api/candidates/refId/r', { accept: 'application/json' });
    expect(res.cut).toBe(true);
    await expect.poll(() => outcomes(res)).toEqual(['200 null full', '502 upstream_error full cut: answer_fault']);
  });

  it('the client going away mid-answer: cut, as cancelled by the client (499)', async () => {
    let release = () => {};
    answerInPieces([`{"data":${LARGE.slice(0, 400_000)}`], (res) => {
      release = () => res.end(`${LARGE.slice(400_000)}}`);
    });
    const requestId = await new Promise<string>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port: app.port, path: '/api/candidates/refId/r', headers: { ...APP_HEADERS, accept: 'application/json' } },
        (res) => {
          // Some of the record has arrived: the reader leaves.
          res.once('data', () => {
            resolve(String(res.headers['x-request-id']));
            req.destroy();
          });
        },
      );
      req.on('error', (error) => (error.message === 'socket hang up' ? undefined : reject(error)));
    });
    const mine = () => audit.lines.filter((line) => 'requestId' in line && line.requestId === requestId) as AuditEntry[];
    await expect
      .poll(() => mine().map((line) => `${line.status} ${line.code} ${line.cut ?? ''}`))
      .toEqual(['200 null ', '499 cancelled client_left']);
    release();
  });

  it('in parts: a status given again after a large record, once the status part has left, is written as cut (502 not_a_record)', async () => {
    answerInPieces([`{"status":"success","data":${LARGE}`, ',"status":"error"}']);
    const res = await app.get('/api/candidates/refId/r', { accept: PARTS_ACCEPT });
    expect(res.status).toBe(200);
    expect(res.cut).toBe(true);
    await expect.poll(() => outcomes(res)).toEqual(['200 null full', '502 not_a_record full cut: answer_fault']);
  });

  it('an answer that arrives whole, plain or in parts, closes with the line of what it held, never a cut line', async () => {
    answerInPieces([`{"status":"success","data":${LARGE}`, '}']);
    const answers: RawResponse[] = [];
    for (const accept of ['application/json', PARTS_ACCEPT, 'application/json']) {
      answers.push(await app.get('/api/candidates/refId/r', { accept }));
    }
    // Each answer's close came before the next lookup's line (the one after it marks where a cut line would be);
    // its closing line was written before its end left (lookup/full-answer.ts), so it is there at once.
    for (const res of answers) expect(res.cut).toBe(false);
    const closed = ['200 null full', '200 null full held'];
    expect(answers.slice(0, 2).map(outcomes)).toEqual([closed, closed]);
  });
});

/** The production composition in front of the same service, its audit in files, or in PostgreSQL as well. */
const instances: Instance[] = [];
let postgres: RunningPostgres | undefined;
afterEach(async () => {
  await Promise.all(instances.splice(0).map((instance) => instance.close()));
});
afterAll(() => postgres?.destroy());

async function instanceOf(env: Record<string, string> = {}): Promise<Instance> {
  const started = await startInstance(
    { KYC_BASE_URL: upstream.url, KYC_CLIENT_ID: 'client_cut', KYC_API_KEY: 'cut-key-5e81a7c3', ...env },
    { file: { signIn: { mode: 'proxy', userHeader: 'X-User', roleHeader: 'X-Role', trustedProxies: ['127.0.0.1/32'] } } },
  );
  instances.push(started);
  return started;
}

const ANA = as('ana', 'compliance');

/** A lookup by ana whose answer the service cuts with an error after its record, then what the trail says of it. */
async function cutLookupIn(at: Instance) {
  answerInPieces([`{"data":${LARGE}`, LATE_ERROR]);
  const res = await lookUp(at, 'r', ANA);
  expect(res.cut).toBe(true);
  // Written once the connection closes: read from the file until it is there (a search each time would spend the lead's searches).
  await expect.poll(() => fileLines(at.auditLog).filter((line) => line.cut).length).toBe(1);
  const { rows, source } = await search(at, { refId: 'r' });
  return { rows, source, requestId: res.headers['x-request-id'] };
}

describe('the cut answer on the audit page', () => {
  it("a lead reads the lookup and, after it, that its answer was cut short and why, in words; the candidate's Activity lists it", async () => {
    const at = await instanceOf();
    const { rows, requestId } = await cutLookupIn(at);
    expect(rows.map((row) => [row.action, row.status, row.code, row.requestId])).toEqual([
      ['cut', 404, 'not_found', requestId],
      ['lookup', 200, null, requestId],
    ]);
    expect(rows[0]).toMatchObject({ user: 'ana', kind: 'refId', id: 'r', level: 'full' });
    // The lookup's own row says it was cut short, and claims nothing of what it held (closing-lines.ts).
    expect(rows[1]).toMatchObject({ heldCut: true });
    expect(rows[1]!.held).toBeUndefined();
    expect(levelText(rows[1]!)).toBe('Full key; cut short: what it held is not known');
    expect(rows[0]!.detail).toBe(
      'the answer began (OK), then the KYC service reported an error after part of the record: the answer was cut short, so it never arrived whole',
    );
    const seen = await activity(at, { refId: 'r' }, ANA);
    expect(seen.rows.map((row) => row.action)).toEqual(['cut', 'lookup']);
  });

  it.skipIf(!hasPostgres)(
    'the PostgreSQL table and the CSV export keep the cut line as the files have it',
    async () => {
      postgres ??= await startPostgres();
      const at = await instanceOf({ DATABASE_URL: await postgres.database() });
      const { rows, source, requestId } = await cutLookupIn(at);
      expect(source.kind).toBe('database');
      expect(rows.map((row) => [row.action, row.status, row.code])).toEqual([
        ['cut', 404, 'not_found'],
        ['lookup', 200, null],
      ]);
      expect(rows[1]).toMatchObject({ heldCut: true });
      const csv = await postJson(at, AUDIT_PATHS.export, { action: 'cut' }, LEAD);
      expect(csv.status).toBe(200);
      expect(csv.body).toContain(`,cut,default,refId,r,full,404,not_found,127.0.0.1,${requestId},`);
    },
    60_000,
  );
});

/**
 * "Looked at today": a lookup whose answer was cut short after it began is not counted as a look at the
 * candidate as though its answer arrived (its 200 line was: "Looked at today by ana"), nor left out: it is
 * said apart, from the cut line of its request, as either store gives the Activity its rows.
 */
async function todayAfterACutAndAWholeLookup(at: Instance) {
  await cutLookupIn(at);
  answerInPieces([`{"status":"success","data":${JSON.stringify(RECORD)}`, '}']);
  const whole = await lookUp(at, 'r', as('ben', 'compliance'));
  expect([whole.status, whole.cut]).toEqual([200, false]);
  const seen = await activity(at, { refId: 'r' }, LEAD);
  expect(seen.rows.map((row) => [row.user, row.action])).toEqual([
    ['ben', 'lookup'],
    ['ana', 'cut'],
    ['ana', 'lookup'],
  ]);
  const today = todaysLookers(seen.rows, 'lena', new Date(), 'utc');
  return { today, source: seen.source.kind };
}

describe("the Activity's today line", () => {
  it('attack on the trail: a lookup cut short is said apart, not counted as having looked (files)', async () => {
    const { today, source } = await todayAfterACutAndAWholeLookup(await instanceOf());
    expect(source).toBe('files');
    // Before: others ana and ben, as though ana's answer had arrived.
    expect(today.others.map((other) => other.user)).toEqual(['ben']);
    expect(today.cutShort).toEqual(['ana']);
  });

  it.skipIf(!hasPostgres)(
    'attack on the trail: a lookup cut short is said apart, not counted as having looked (PostgreSQL)',
    async () => {
      postgres ??= await startPostgres();
      const { today, source } = await todayAfterACutAndAWholeLookup(await instanceOf({ DATABASE_URL: await postgres.database() }));
      expect(source).toBe('database');
      expect(today.others.map((other) => other.user)).toEqual(['ben']);
      expect(today.cutShort).toEqual(['ana']);
    },
    60_000,
  );
});
