import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ASKED_ID_HOLD_BYTES } from '../../src/server/answer/answer-guard.ts';
import type { AuditLine } from '../../src/server/audit/audit.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { as, fileLines, gatewayInstance, postJson, searchAll } from './audit-trail-helpers.ts';
import { type Behaviour, startFakeUpstream } from './fake-upstream.ts';
import { rawRequest, requestWithBody, startTestApp, testEnvironment } from './http.ts';
import type { Instance } from './instance.ts';
import { answersAsked, lookedUp } from './looked-up.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { PARTS_ACCEPT } from '../../src/kyc/contract/picture-parts.ts';
import { getBytes } from './parts.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';
import { cleanupsAfterEach, proxyAccess } from './user-lookups.ts';
import { withClockAhead } from './clock.ts';
import type { TestLimits } from './settings.ts';

/**
 * An export (`POST /api/export`: a summary, reply or certificate copied, a page printed) is accepted only
 * for a candidate its user was answered a lookup of lately (opened-candidates.ts): else its audit line
 * would show a hand-off of someone never opened, and anyone signed in could plant such lines about any id.
 */

const cleanups = cleanupsAfterEach();
const SAM = as('sam', 'support');
const ANA = as('ana', 'compliance');
const NOT_LOOKED_UP = {
  code: 'not_looked_up',
  message: "This page's lookup is too old to record a copy: press Refresh, then copy again.",
};

async function appAnswering(behave: Behaviour = answersAsked, limits: TestLimits = {}) {
  const upstream = await startFakeUpstream();
  upstream.behave = behave;
  const audit = memoryAuditLog();
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
    audit,
    access: proxyAccess(),
    settings: { limits },
  });
  cleanups.push(app.close, upstream.close);
  const exportOf = (body: Record<string, unknown>, headers: Record<string, string>, path = '/api/export') =>
    requestWithBody(app.port, path, JSON.stringify(body), { headers });
  return { app, upstream, audit, exportOf };
}

const answerOf = (res: { status: number; body: string }) => (res.status === 200 ? 200 : [res.status, JSON.parse(res.body).error]);
const mentions = (lines: AuditLine[], id: string) => lines.filter((line) => JSON.stringify(line).includes(id));

describe('an export of a candidate the user opened', () => {
  it('attack: a copy of a candidate never looked up is refused and plants no line', async () => {
    const { app, upstream, audit, exportOf } = await appAnswering();
    // Ana looked user-7781 up; Sam did not, nor did anyone look up user-9999 or user-7781 by recordId.
    await lookedUp(app.port, { kind: 'refId', id: 'user-7781' }, ANA);
    const planted = [
      [{ what: 'summary', kind: 'refId', id: 'user-9999' }, ANA],
      [{ what: 'summary', kind: 'refId', id: 'user-7781' }, SAM],
      [{ what: 'reply', kind: 'refId', id: 'user-7781', template: 'approved' }, SAM],
      [{ what: 'certificate', kind: 'refId', id: 'user-9999', slug: 'onfido-service-cert' }, ANA],
      [{ what: 'summary', kind: 'recordId', id: 'user-7781' }, ANA],
    ] as const;
    for (const [body, headers] of planted)
      expect(answerOf(await exportOf(body, headers)), JSON.stringify(body)).toEqual([409, NOT_LOOKED_UP]);
    // Each refusal is audited as one, naming what was refused but no id: no line says anyone handed off user-9999.
    const refusals = audit.lines.filter((line) => line.kind === 'export');
    expect(refusals).toEqual(
      planted.map(([body, headers]) =>
        expect.objectContaining({ user: headers['x-user'], status: 409, code: 'not_looked_up', what: body.what }),
      ),
    );
    for (const line of refusals) expect(line).not.toHaveProperty('id');
    expect(mentions(audit.lines, 'user-9999')).toEqual([]);
    // The lookup's line and its closing line (what its answer held), no more.
    expect(mentions(audit.lines, 'user-7781')).toEqual([
      expect.objectContaining({ kind: 'refId', user: 'ana', status: 200, heldLine: true }),
      expect.objectContaining({ kind: 'refId', user: 'ana', status: 200, held: expect.any(Object) }),
    ]);
    expect(upstream.seen).toHaveLength(1);
  });

  it('a lookup then an export succeeds: in full, in parts, at status level, as a batch row, in the environment and by the kind it was found by', async () => {
    const { app, audit, exportOf } = await appAnswering((req, res) => {
      // A 24-hex id the service knows by recordId only: the batch's row tries it as one, and says it was found so.
      if (req.url?.endsWith('/refId/65f1c2a9e4b0d3a1f0c9c101')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return void res.end('{"status":"error","message":"Not found"}');
      }
      answersAsked(req, res);
    });
    await lookedUp(app.port, { kind: 'refId', id: 'plain' }, ANA);
    await lookedUp(app.port, { kind: 'refId', id: 'in parts' }, { ...ANA, accept: PARTS_ACCEPT });
    await lookedUp(app.port, { kind: 'recordId', id: 'status level' }, SAM);
    const batch = JSON.stringify({ kind: 'refId', ids: ['row', '65f1c2a9e4b0d3a1f0c9c101'] });
    const rows = await requestWithBody(app.port, '/api/batch', batch, { headers: SAM });
    expect(rows.body).toContain('"foundBy":"recordId"');
    expect(answerOf(await exportOf({ what: 'summary', kind: 'refId', id: 'plain' }, ANA))).toBe(200);
    expect(answerOf(await exportOf({ what: 'print', kind: 'refId', id: 'in parts' }, ANA))).toBe(200);
    expect(answerOf(await exportOf({ what: 'reply', kind: 'recordId', id: 'status level', template: 'approved' }, SAM))).toBe(200);
    expect(answerOf(await exportOf({ what: 'summary', kind: 'refId', id: 'row' }, SAM))).toBe(200);
    // The candidate page of that row is /candidates/recordId/…: its export names the same pair.
    expect(answerOf(await exportOf({ what: 'summary', kind: 'recordId', id: '65f1c2a9e4b0d3a1f0c9c101' }, SAM))).toBe(200);
    expect(answerOf(await exportOf({ what: 'summary', kind: 'refId', id: '65f1c2a9e4b0d3a1f0c9c101' }, SAM))).toEqual([409, NOT_LOOKED_UP]);
    expect(audit.lines.filter((line) => line.kind === 'export' && !('status' in line))).toHaveLength(5);
  });

  it("the page's own status check alone opens nothing: the trail does not show it as a lookup", async () => {
    const { app, exportOf } = await appAnswering();
    expect((await rawRequest(app.port, '/api/status/refId/checked', { headers: ANA })).status).toBe(200);
    expect(answerOf(await exportOf({ what: 'summary', kind: 'refId', id: 'checked' }, ANA))).toEqual([409, NOT_LOOKED_UP]);
  });

  it("an answer refused as another candidate's record opens nothing, whatever its form, nor one cut as another's after its line", async () => {
    const other = JSON.stringify({ status: 'success', data: { status: 'approved', refId: 'cust-b', isArchived: false } });
    const { app, exportOf } = await appAnswering((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(other);
    });
    for (const headers of [{ ...ANA, accept: 'application/json' }, ANA, SAM]) {
      expect((await getBytes(app.port, '/api/candidates/refId/cust-a', headers)).status).toBe(502);
    }
    const batch = await requestWithBody(app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids: ['cust-a'] }), { headers: SAM });
    expect(batch.body).toContain('"code":"other_candidate"');
    for (const headers of [ANA, SAM]) {
      expect(answerOf(await exportOf({ what: 'summary', kind: 'refId', id: 'cust-a' }, headers))).toEqual([409, NOT_LOOKED_UP]);
    }
  });

  it("an answer cut as another candidate's after its 200 line forgets the candidate it had opened", async () => {
    const asked = '65f1c2a9e4b0d3a1f0c9c101';
    const filler = `"identities":{"passport":{"type":"base64","value":"${'QUJD'.repeat(ASKED_ID_HOLD_BYTES)}"}}`;
    const late = `{"status":"success","data":{"status":"approved","refId":"cust-a",${filler},"recordId":"65f1c2a9e4b0d3a1f0c9ffff"}}`;
    let body = JSON.stringify({ status: 'success', data: { status: 'approved', refId: 'cust-a', recordId: asked, isArchived: false } });
    const { app, audit, exportOf } = await appAnswering((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    const plain = { ...ANA, accept: 'application/json' };
    await lookedUp(app.port, { kind: 'recordId', id: asked }, plain);
    expect(answerOf(await exportOf({ what: 'summary', kind: 'recordId', id: asked }, ANA))).toBe(200);
    body = late;
    expect((await getBytes(app.port, `/api/candidates/recordId/${asked}`, plain)).cut).toBe(true);
    await expect.poll(() => audit.lines.some((line) => 'cut' in line && line.code === 'other_candidate')).toBe(true);
    await expect
      .poll(async () => answerOf(await exportOf({ what: 'summary', kind: 'recordId', id: asked }, ANA)))
      .toEqual([409, NOT_LOOKED_UP]);
  });

  it('is kept per environment: a lookup in one opens nothing in another', async () => {
    const upstream = await startFakeUpstream();
    upstream.behave = answersAsked;
    const target = { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' };
    const app = await startTestApp({
      environments: ['prod', 'test'].map((name) => testEnvironment(target, { name })),
      access: proxyAccess(),
    });
    cleanups.push(app.close, upstream.close);
    await lookedUp(app.port, { kind: 'refId', id: 'user-7781' }, ANA, 'test');
    const exported = (name: string) =>
      requestWithBody(app.port, `/api/e/${name}/export`, JSON.stringify({ what: 'summary', kind: 'refId', id: 'user-7781' }), {
        headers: ANA,
      });
    expect(answerOf(await exported('test'))).toBe(200);
    expect(answerOf(await exported('prod'))).toEqual([409, NOT_LOOKED_UP]);
  });
});

describe('the time a lookup opens its candidate for (limits.exportAfterLookupMinutes)', () => {
  const MINUTE = 60_000;
  const summary = { what: 'summary', kind: 'refId', id: 'user-7781' };

  it('is kept that long after the lookup, then a copy is refused; a lookup again starts it again', async () => {
    const { app, exportOf } = await appAnswering(answersAsked, { exportAfterLookupMinutes: 1 });
    await lookedUp(app.port, { kind: 'refId', id: 'user-7781' }, ANA);
    expect(answerOf(await withClockAhead(MINUTE - 1000, () => exportOf(summary, ANA)))).toBe(200);
    expect(answerOf(await withClockAhead(MINUTE + 1000, () => exportOf(summary, ANA)))).toEqual([409, NOT_LOOKED_UP]);
    await withClockAhead(MINUTE + 1000, async () => {
      await lookedUp(app.port, { kind: 'refId', id: 'user-7781' }, ANA);
      expect(answerOf(await exportOf(summary, ANA))).toBe(200);
    });
  });

  it('attack: a print after the opened entry expired still leaves a line naming the candidate', async () => {
    const { app, audit, exportOf } = await appAnswering(answersAsked, { exportAfterLookupMinutes: 1 });
    await lookedUp(app.port, { kind: 'refId', id: 'user-7781' }, ANA);
    // The page was left open past the time kept: the browser's print dialog does not wait for the line,
    // so the paper exists whatever the answer, and the trail must still say whose data was printed.
    const print = { what: 'print', kind: 'refId', id: 'user-7781', masked: true };
    const printed = await withClockAhead(MINUTE + 1000, () => exportOf(print, ANA));
    expect([printed.status, JSON.parse(printed.body)]).toEqual([200, { status: 'success', notLookedUp: true }]);
    // A copy, which the page can stop, is still refused then, its line naming no id.
    expect(answerOf(await withClockAhead(MINUTE + 1000, () => exportOf(summary, ANA)))).toEqual([409, NOT_LOOKED_UP]);
    const exports = audit.lines.filter((line) => line.kind === 'export');
    expect(exports).toEqual([
      expect.objectContaining({ user: 'ana', what: 'print', lookupKind: 'refId', id: 'user-7781', masked: true, notLookedUp: true }),
      expect.objectContaining({ user: 'ana', status: 409, code: 'not_looked_up' }),
    ]);
    expect(exports[1]).not.toHaveProperty('id');
  });

  it('a print within the time kept, or of a candidate the user never looked up, says which it was', async () => {
    const { app, audit, exportOf } = await appAnswering();
    await lookedUp(app.port, { kind: 'refId', id: 'user-7781' }, ANA);
    const print = { what: 'print', kind: 'refId', id: 'user-7781' };
    expect(await exportOf(print, ANA)).toMatchObject({ status: 200, body: '{"status":"success"}' });
    expect(await exportOf(print, SAM)).toMatchObject({ status: 200, body: '{"status":"success","notLookedUp":true}' });
    const [ana, sam] = audit.lines.filter((line) => line.kind === 'export');
    expect(ana).toMatchObject({ user: 'ana', what: 'print', id: 'user-7781' });
    expect(ana).not.toHaveProperty('notLookedUp');
    expect(sam).toMatchObject({ user: 'sam', what: 'print', id: 'user-7781', notLookedUp: true });
  });
});

const candidates = await sampleCandidates({ now: new Date(), pictures: false });
const amelie = candidates[0]!.record;
let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
let redis: RunningRedis | undefined;
const instances: Instance[] = [];
beforeAll(async () => {
  [sandbox, redis] = await Promise.all([startSandbox({ candidates }), hasRedisServer ? startRedis() : undefined]);
});
afterEach(async () => {
  await Promise.all(instances.splice(0).map((instance) => instance.close()));
});
afterAll(async () => {
  await redis?.stop();
  await sandbox?.close();
});

describe.skipIf(!hasRedisServer)(`two instances sharing Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('a lookup answered by one instance opens the candidate for an export sent to the other, and only for that user', async () => {
    const [one, two] = await Promise.all([
      gatewayInstance(sandbox!, { REDIS_URL: redis!.url }),
      gatewayInstance(sandbox!, { REDIS_URL: redis!.url }),
    ]);
    instances.push(one, two);
    const summary = { what: 'summary', kind: 'refId', id: amelie.refId };
    expect(answerOf(await postJson(two, '/api/export', summary, ANA))).toEqual([409, NOT_LOOKED_UP]);
    expect((await one.request(`/api/candidates/refId/${amelie.refId}`, { headers: ANA })).status).toBe(200);
    expect(answerOf(await postJson(two, '/api/export', summary, ANA))).toBe(200);
    expect(answerOf(await postJson(two, '/api/export', summary, as('cleo', 'compliance')))).toEqual([409, NOT_LOOKED_UP]);
  });
});

describe("the audit page's row of a refused hand-off", () => {
  it('says which hand-off was refused (a copy of the summary, a reply, a certificate), still naming no candidate', async () => {
    const at = await gatewayInstance(sandbox!);
    instances.push(at);
    const refused = [
      { what: 'summary', kind: 'refId', id: amelie.refId },
      { what: 'reply', kind: 'refId', id: amelie.refId, template: 'approved' },
      { what: 'certificate', kind: 'refId', id: amelie.refId, slug: 'onfido-service-cert' },
    ];
    for (const body of refused) expect(answerOf(await postJson(at, '/api/export', body, ANA))).toEqual([409, NOT_LOOKED_UP]);
    const rows = (await searchAll(at)).filter((row) => row.action === 'export');
    // Before, each row was "Hand-off refused" with no detail: a lead could not tell a summary from a certificate.
    expect(rows.map((row) => [row.user, row.code, row.id, row.detail]).sort()).toEqual(
      [
        ['ana', 'not_looked_up', null, 'a copy of the summary; the line names no candidate'],
        ['ana', 'not_looked_up', null, 'a copy of a reply; the line names no candidate'],
        ['ana', 'not_looked_up', null, 'a copy of a certificate; the line names no candidate'],
      ].sort(),
    );
    expect(JSON.stringify(fileLines(at.auditLog))).not.toContain(amelie.refId);
  });
});

describe.skipIf(!hasRedisServer)(`a print while Redis is down${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it.each([
    ['the rate limit off, so only the opened check asks Redis', 0],
    ['the rate limit on, so its token is the first thing asked of Redis', 100],
  ])('is recorded marked openedUnknown, where a copy is refused 503: %s', async (_case, lookupsPerMinute) => {
    const own = await startRedis();
    const at = await gatewayInstance(sandbox!, { REDIS_URL: own.url }, { limits: { lookupsPerMinute } });
    instances.push(at);
    expect((await at.request(`/api/candidates/refId/${amelie.refId}`, { headers: ANA })).status).toBe(200);
    await own.kill();
    // The paper is printed whatever the answer (the dialog does not wait): before, it was refused 503 and left no line.
    const print = await postJson(at, '/api/export', { what: 'print', kind: 'refId', id: amelie.refId }, ANA);
    expect([print.status, JSON.parse(print.body)]).toEqual([200, { status: 'success', openedUnknown: true }]);
    const copy = await postJson(at, '/api/export', { what: 'summary', kind: 'refId', id: amelie.refId }, ANA);
    expect([copy.status, JSON.parse(copy.body).error.code]).toEqual([503, 'store_unavailable']);
    // The one hand-off written is the print's (the copy's refusal, if written, names no id).
    const exports = fileLines(at.auditLog).filter((line) => line.kind === 'export' && !('status' in line));
    expect(exports).toEqual([
      expect.objectContaining({ user: 'ana', what: 'print', lookupKind: 'refId', id: amelie.refId, openedUnknown: true }),
    ]);
    expect(exports[0]).not.toHaveProperty('notLookedUp');
    const naming = fileLines(at.auditLog).filter((line) => line.kind === 'export' && JSON.stringify(line).includes(amelie.refId!));
    expect(naming).toEqual(exports);
    await own.stop();
  });
});
