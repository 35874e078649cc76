import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiFromConfig } from '../../src/server/composition/api.ts';
import { verifyChain } from '../../src/server/audit/audit-chain.ts';
import { createRefusalLog } from '../../src/server/audit/audit-refusals.ts';
import { createAuditLog } from '../../src/server/audit/audit.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { ConfigError, parseConfig } from '../../src/server/config/config.ts';
import { createRateLimiter } from '../../src/server/ops/rate-limit.ts';
import { createMemoryStore, type SharedStore, StoreUnavailableError } from '../../src/server/state/store.ts';
import { resolveUpstream } from '../../src/server/composition/resolve-upstream.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { blockedFifo } from './fifo.ts';
import { requestWithBody, startTestApp } from './http.ts';

/** Issue 9, items 1, 5 and 9: what a signed-in user, or a hung disk, could do to the audit log. */
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const _limiter = (perMinute: number) => createRateLimiter(createMemoryStore(), 'lookups', perMinute);
const tempDir = () => mkdtempSync(path.join(os.tmpdir(), 'cl-audit-attack-'));
const linesOf = (file: string) => readFileSync(file, 'utf8').split('\n').slice(0, -1);
const parsedLines = (file: string) => linesOf(file).map((line) => JSON.parse(line) as Record<string, unknown>);
/** An audit file and its refusals counted a minute at a time: the test flushes them when it wants the counted lines. */
function countedAudit() {
  const file = path.join(tempDir(), 'audit.jsonl');
  const audit = createAuditLog(file);
  return { file, audit, refusals: createRefusalLog(audit, 60_000) };
}
const proxyAccess = () => createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] });
const as = (user: string) => ({ 'x-user': user, 'x-role': 'compliance' });
/** The record of the candidate asked for (another's is refused: other-candidate.test.ts). */
const envelopeOf = (url: string) =>
  JSON.stringify({
    status: 'success',
    data: { status: 'approved', refId: decodeURIComponent(url.slice(url.lastIndexOf('/') + 1)), isArchived: false, blockPassID: 'b' },
  });

async function appWith(options: Partial<Parameters<typeof startTestApp>[0]>) {
  const upstream = await startFakeUpstream();
  upstream.behave = (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(envelopeOf(req.url!));
  };
  const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, access: proxyAccess(), ...options });
  cleanups.push(
    () => upstream.close(),
    () => app.close(),
  );
  return { upstream, app };
}

describe('attack: one user floods the audit log with long invalid ids', () => {
  it('charges each refusal to the user, counts refusals over the limit in one line, and cuts ids to 256 characters', async () => {
    const file = path.join(tempDir(), 'audit.jsonl');
    const audit = createAuditLog(file);
    const refusals = createRefusalLog(audit, 60_000);
    const { upstream, app } = await appWith({
      audit,
      refusals,
      settings: {
        limits: {
          lookupsPerMinute: 5,
        },
      },
    });
    const nulls = `/api/candidates/refId/${'%00'.repeat(512)}`;
    const answers = await Promise.all(Array.from({ length: 40 }, () => app.get(nulls, as('eve'))));
    expect(answers.filter((res) => res.status === 400)).toHaveLength(5);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(35);
    // Another user is not held back by the flood.
    expect((await app.get('/api/candidates/refId/r', as('sam'))).status).toBe(200);

    // One line per token spent, one for the first refusal over the limit, and, once the interval is
    // over (here: now), one counted line for the other 34; sam's full answer adds its closing line (what it held).
    expect(linesOf(file)).toHaveLength(8);
    await refusals.flush();
    expect(linesOf(file)).toHaveLength(9);
    const lines = linesOf(file).map((line) => JSON.parse(line) as Record<string, unknown>);
    const eve = lines.filter((line) => line.user === 'eve');
    expect(eve.map((line) => line.code ?? line.kind)).toEqual([...Array(5).fill('invalid_id'), 'rate_limited', 'refusals']);
    expect(eve.at(-1)).toMatchObject({ kind: 'refusals', count: 34, codes: { rate_limited: 34 } });
    for (const line of eve.slice(0, 6)) expect(line.id).toBe(`${'\0'.repeat(256)}…`);
    expect(upstream.seen.map((seen) => seen.path)).toEqual(['/kyc/1.0/connect/c/refId/r']);
    expect(verifyChain([{ name: file, content: readFileSync(file) }])).toMatchObject({ ok: true, lines: 9 });
  });

  it('charges a refused environment to the user as well', async () => {
    const file = path.join(tempDir(), 'audit.jsonl');
    const audit = createAuditLog(file);
    const { app } = await appWith({
      audit,
      refusals: createRefusalLog(audit, 60_000),
      settings: {
        limits: {
          lookupsPerMinute: 2,
        },
      },
    });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await app.get('/api/e/nowhere/candidates/refId/a', as('eve'))).status);
    expect(codes).toEqual([404, 404, 429, 429]);
    expect(linesOf(file).map((line) => JSON.parse(line).code)).toEqual(['no_such_environment', 'no_such_environment', 'rate_limited']);
  });

  it('charges a malformed applicants query to the user as well (in their queue views, a bucket of its own)', async () => {
    const file = path.join(tempDir(), 'audit.jsonl');
    const audit = createAuditLog(file);
    const { app } = await appWith({
      audit,
      refusals: createRefusalLog(audit, 60_000),
      settings: {
        limits: {
          queueViewsPerMinute: 2,
        },
      },
    });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await app.get('/api/applicants?skip=minus-one', as('eve'))).status);
    expect(codes).toEqual([400, 400, 429, 429]);
    expect(linesOf(file).map((line) => JSON.parse(line).code)).toEqual(['bad_request', 'bad_request', 'rate_limited']);
  });
});

describe('attack: rotating unknown environment names to dodge the counted refusals', () => {
  it("counts a user's refusals in one line whatever the environment, and cuts the unknown names", async () => {
    const { file, audit, refusals } = countedAudit();
    const { upstream, app } = await appWith({
      audit,
      refusals,
      settings: {
        limits: {
          lookupsPerMinute: 2,
        },
      },
    });
    // A new name for each request, each longer than any environment's name can be.
    const names = Array.from({ length: 40 }, (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(300)}`);
    const answers = await Promise.all(names.map((name) => app.get(`/api/e/${name}/candidates/refId/a`, as('eve'))));
    expect(answers.filter((res) => res.status === 404)).toHaveLength(2);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(38);

    // Two lines for the tokens spent, one for the first refusal over the limit, one counted line.
    expect(linesOf(file)).toHaveLength(3);
    await refusals.flush();
    const lines = parsedLines(file);
    expect(lines.map((line) => line.code ?? line.kind)).toEqual(['no_such_environment', 'no_such_environment', 'rate_limited', 'refusals']);
    expect(lines.at(-1)).toMatchObject({ kind: 'refusals', user: 'eve', count: 37, codes: { rate_limited: 37 } });
    for (const line of lines.slice(0, 3)) expect(String(line.env)).toMatch(/^\d\dx{30}…$/);
    expect(upstream.seen).toHaveLength(0);
  });
});

describe('attack: a flood while the shared store is down', () => {
  it('counts the 503 store_unavailable refusals of lookups, pages and environments like those over the limit', async () => {
    const { file, audit, refusals } = countedAudit();
    // The rate limits' counters are where the shared store fails first: every request asks them.
    const down = () => Promise.reject(new StoreUnavailableError(new Error('connection refused')));
    const storeDown: SharedStore = { ...createMemoryStore(), counter: () => ({ add: down, peek: down, subtract: down, reset: down }) };
    const { upstream, app } = await appWith({
      audit,
      store: storeDown,
      refusals,
      settings: { limits: { lookupsPerMinute: 10, queueViewsPerMinute: 10 } },
    });
    const paths = [
      ...Array.from({ length: 20 }, (_, i) => `/api/candidates/refId/${i % 2 ? 'a' : '%00'.repeat(300)}${i}`),
      ...Array.from({ length: 10 }, (_, i) => `/api/applicants?skip=${i}`),
      ...Array.from({ length: 10 }, (_, i) => `/api/e/nowhere-${i}/candidates/refId/a`),
    ];
    const answers = await Promise.all(paths.map((p) => app.get(p, as('eve'))));
    expect(answers.map((res) => res.status)).toEqual(Array(paths.length).fill(503));
    expect(answers.every((res) => JSON.parse(res.body).error.code === 'store_unavailable')).toBe(true);

    // The first refusal's line, then one counted line for the other 39.
    expect(linesOf(file)).toHaveLength(1);
    await refusals.flush();
    const lines = parsedLines(file);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ user: 'eve', status: 503, code: 'store_unavailable' });
    expect(lines[1]).toMatchObject({ kind: 'refusals', user: 'eve', count: 39, codes: { store_unavailable: 39 } });
    expect(upstream.seen).toHaveLength(0);
  });
});

describe('attack: flooding the audit log through /api/export', () => {
  it("charges each export to the user's limit before reading it, counts the refusals over it, and writes no id the lookup rule refuses", async () => {
    const { file, audit, refusals } = countedAudit();
    const { app } = await appWith({
      audit,
      refusals,
      settings: {
        limits: {
          lookupsPerMinute: 3,
        },
      },
    });
    const body = JSON.stringify({ what: 'summary', kind: 'refId', id: '\u0000'.repeat(1000) });
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => requestWithBody(app.port, '/api/export', body, { headers: as('eve') })),
    );
    // The id step of a lookup: 1000 NULs are no candidate's id.
    expect(answers.filter((res) => res.status === 400)).toHaveLength(3);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(37);
    // The limit is the lookups': it is spent for this user's lookups too.
    expect((await app.get('/api/candidates/refId/r', as('eve'))).status).toBe(429);

    // Three refused exports, the first refusal over the limit, then one counted line for the other 37.
    expect(linesOf(file)).toHaveLength(4);
    await refusals.flush();
    const lines = parsedLines(file);
    expect(lines.map((line) => line.code ?? line.kind)).toEqual(['invalid_id', 'invalid_id', 'invalid_id', 'rate_limited', 'refusals']);
    expect(lines[3]).toMatchObject({ kind: 'export', user: 'eve', status: 429, code: 'rate_limited' });
    expect(lines[4]).toMatchObject({ kind: 'refusals', user: 'eve', count: 37, codes: { rate_limited: 37 } });
    for (const line of lines.slice(0, 3)) {
      expect(line).toMatchObject({ kind: 'export', user: 'eve', status: 400, code: 'invalid_id' });
      expect(line.id).toBeUndefined();
    }
    expect(verifyChain([{ name: file, content: readFileSync(file) }])).toMatchObject({ ok: true, lines: 5 });
  });
});

describe('attack: batches, exports and list pages for environments that do not exist, unaudited and unlimited', () => {
  it('audits each refusal as what it was, charges it to the user, and counts those over the limit', async () => {
    const { file, audit, refusals } = countedAudit();
    const { upstream, app } = await appWith({
      audit,
      refusals,
      settings: {
        limits: {
          lookupsPerMinute: 3,
        },
      },
    });
    const batch = JSON.stringify({ kind: 'refId', ids: ['a'] });
    const exported = JSON.stringify({ what: 'summary', kind: 'refId', id: 'a' });
    const statuses = [];
    for (let i = 0; i < 10; i++) {
      statuses.push((await requestWithBody(app.port, `/api/e/nowhere-${i}/batch`, batch, { headers: as('eve') })).status);
      statuses.push((await requestWithBody(app.port, `/api/e/nowhere-${i}/export`, exported, { headers: as('eve') })).status);
      statuses.push((await app.get(`/api/e/nowhere-${i}/applicants`, as('eve'))).status);
    }
    expect(statuses).toEqual([404, 404, 404, ...Array(27).fill(429)]);

    await refusals.flush();
    const lines = parsedLines(file);
    expect(lines).toEqual([
      expect.objectContaining({ user: 'eve', env: 'nowhere-0', kind: 'batch', status: 404, code: 'no_such_environment' }),
      expect.objectContaining({ user: 'eve', env: 'nowhere-0', kind: 'export', status: 404, code: 'no_such_environment' }),
      expect.objectContaining({ user: 'eve', env: 'nowhere-0', kind: 'list', filter: null, status: 404, code: 'no_such_environment' }),
      expect.objectContaining({ user: 'eve', env: 'nowhere-1', kind: 'batch', status: 429, code: 'rate_limited' }),
      expect.objectContaining({ kind: 'refusals', user: 'eve', count: 26, codes: { rate_limited: 26 } }),
    ]);
    expect(upstream.seen).toHaveLength(0);
  });
});

describe('counted refusals', () => {
  it('write the counted line when the interval ends, and open a new interval with a line of its own', async () => {
    const file = path.join(tempDir(), 'audit.jsonl');
    const audit = createAuditLog(file);
    cleanups.push(() => audit.close());
    const refusals = createRefusalLog(audit, 200);
    const refusal = (user: string) => ({
      time: new Date().toISOString(),
      user,
      role: 'compliance' as const,
      env: 'default',
      kind: 'refId' as const,
      id: 'x',
      status: 429,
      code: 'rate_limited' as const,
      upstreamStatus: null,
      level: null,
      durationMs: 0,
    });
    for (let i = 0; i < 4; i++) await refusals.refused(refusal('eve'));
    await refusals.refused(refusal('sam'));
    await expect.poll(() => linesOf(file).length, { timeout: 15_000 }).toBe(3);
    await refusals.refused(refusal('eve'));
    await expect.poll(() => linesOf(file).length, { timeout: 15_000 }).toBe(4);
    expect(linesOf(file).map((line) => [JSON.parse(line).user, JSON.parse(line).kind, JSON.parse(line).count])).toEqual([
      ['eve', 'refId', undefined],
      ['sam', 'refId', undefined],
      ['eve', 'refusals', 3],
      ['eve', 'refId', undefined],
    ]);
  });
});

describe('attack: characters that split audit lines in common readers', () => {
  it('writes every character outside printable ASCII as \\uXXXX, and the line reads back as the id', async () => {
    const file = path.join(tempDir(), 'audit.jsonl');
    const { app } = await appWith({ audit: createAuditLog(file) });
    const ids = ['a\u2028b', 'c\u2029d', 'e\u0085f', 'é\u202eg😀', 'h\u007fi', 'j\u0000k'];
    for (const id of ids) await app.get(`/api/candidates/refId/${encodeURIComponent(id)}`, as('ana'));
    const text = readFileSync(file, 'latin1');
    expect(text).toMatch(/^[\x20-\x7e\n]+$/);
    expect(text).toContain('\\u2028');
    expect(text).toContain('\\ud83d\\ude00');
    // Each lookup's line; the one valid id's full answer then closes with its line of what it held.
    const found = 'é\u202eg😀';
    expect(linesOf(file).map((line) => JSON.parse(line).id)).toEqual(ids.flatMap((id) => (id === found ? [id, id] : [id])));
    expect(verifyChain([{ name: file, content: readFileSync(file) }])).toMatchObject({ ok: true, lines: ids.length + 1 });
  });
});

describe('attack: an audit destination that blocks (a FIFO with no reader)', () => {
  it('keeps one write in flight, refuses lookups at once while it hangs, serves everything else, and recovers', async () => {
    const fifo = blockedFifo(tempDir());
    cleanups.push(() => fifo.close());
    const audit = createAuditLog(fifo.file, { writeTimeoutMs: 300 });
    const { upstream, app } = await appWith({ audit });
    const first = await app.get('/api/candidates/refId/first', as('ana'));
    expect(first.status).toBe(503);
    expect(JSON.parse(first.body).error.code).toBe('audit_unavailable');
    expect(audit.available()).toBe(false);
    const asked = upstream.seen.length;

    // More lookups than libuv has threads: each is refused without asking the service or the disk.
    const stuck = await Promise.all(Array.from({ length: 12 }, (_, i) => app.get(`/api/candidates/refId/n${i}`, as('ana'))));
    expect(stuck.map((res) => res.status)).toEqual(Array(12).fill(503));
    expect(stuck.every((res) => JSON.parse(res.body).error.message.includes('not answering'))).toBe(true);
    expect(upstream.seen.length).toBe(asked);
    // Static files (read in the thread pool) and the session route still answer.
    expect((await app.get('/favicon.svg')).status).toBe(200);
    expect((await app.get('/api/session', as('ana'))).status).toBe(200);
    writeFileSync(path.join(tempDir(), 'probe'), 'the thread pool is free');

    // Someone reads the pipe: the hung write ends, a note says its lines came late, lookups work again.
    let drained = fifo.drain();
    await expect.poll(() => audit.available(), { timeout: 15_000 }).toBe(true);
    await expect.poll(async () => (await app.get('/api/candidates/refId/after', as('ana'))).status, { timeout: 15_000 }).toBe(200);
    drained += fifo.drain();
    const lines = drained.split('\n').filter((line) => line.startsWith('{'));
    // The lookup after it closes with its line of what the answer held.
    expect(lines.map((line) => JSON.parse(line).id ?? JSON.parse(line).kind)).toEqual(['first', 'note', 'after', 'after']);
    expect(JSON.parse(lines[1]!).note).toContain('their lookups had been refused');
    const chain = verifyChain([{ name: 'fifo', content: Buffer.from(lines.map((line) => `${line}\n`).join('')) }]);
    expect(chain).toMatchObject({ ok: true, lines: 4 });
  });
});

describe('attack: an audit file that cannot be written, found only at the first lookup', () => {
  it('refuses to start, naming AUDIT_LOG and why', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'a-file'), '');
    execFileSync('mkfifo', [path.join(dir, 'unread.fifo')]);
    const cases: Array<[string, RegExp]> = [
      [dir, /it is a directory|EISDIR/],
      [path.join(dir, 'a-file', 'audit.jsonl'), /ENOTDIR|EEXIST/],
      [path.join(dir, 'unread.fifo'), /a pipe that nobody reads/],
    ];
    for (const [auditLog, why] of cases) {
      const config = parseConfig({ KYC_BASE_URL: 'http://127.0.0.1:9', KYC_CLIENT_ID: 'c', KYC_API_KEY: 'k', AUDIT_LOG: auditLog });
      const upstream = await resolveUpstream(config);
      const start = () => createApiFromConfig(config, upstream, { queueCrawl: { start: false } });
      expect(start).toThrow(ConfigError);
      expect(start).toThrow(new RegExp(`AUDIT_LOG=${auditLog.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be written`));
      expect(start).toThrow(why);
    }
    const writable = parseConfig({
      KYC_BASE_URL: 'http://127.0.0.1:9',
      KYC_CLIENT_ID: 'c',
      KYC_API_KEY: 'k',
      AUDIT_LOG: path.join(dir, 'new', 'audit.jsonl'),
    });
    expect(() => createApiFromConfig(writable, { environments: [], banner: [], close: async () => {} })).not.toThrow();
  });
});
