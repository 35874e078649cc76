import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp, type TestApp } from './http.ts';
import { anyString } from '../support/any-code-point.ts';

/**
 * However an id is crafted, the proxy either refuses it (400 invalid_id, nothing sent upstream) or asks
 * the upstream for exactly one path: the lookup path with the id as one encoded segment.
 */
const CLIENT = 'client/../with?odd#chars';
const CLIENT_SEGMENT = encodeURIComponent(CLIENT);
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let app: TestApp;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: CLIENT, apiKey: 'k' } });
});
afterAll(async () => {
  await app.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.seen.length = 0;
});

/** Ids the browser sends percent-encoded (as encodeURIComponent does): they must arrive unchanged. */
const FORWARDED = [
  '../applicants',
  '../../../../etc/passwd',
  '..%2F..%2Fapplicants',
  'a/b',
  '/leading-slash',
  'trailing/',
  '%2F',
  '%252F',
  '?x=1',
  'id?limit=1000&skip=0',
  '#fragment',
  'a#b?c',
  '\\..\\windows',
  'a;b=c',
  'refId/other',
  '...',
  ' padded ',
  '张伟-用户',
  'émile+zoë@example.com',
  '🙂👍',
  'Ω≈ç√∫',
  '\u202eevil\u202c',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a Log4Shell-style id, meant literally
  '${jndi:ldap://x}',
  'x'.repeat(256),
  'C:\\Windows',
  'a b\u00a0c',
  // Invisible characters the search box cleans from a paste: the proxy still takes the id verbatim by URL.
  'cust_\u200b000482',
  '\ufeffbom-first',
  'rtl\u200fmark',
  '%00',
  'http://127.0.0.1:1/x',
  '//evil.example/x',
  '*',
];

/** Ids to refuse before anything reaches the upstream. */
const REFUSED: Array<[string, string]> = [
  ['empty', ''],
  ['spaces only', '   '],
  ['dot', '.'],
  ['dot-dot', '..'],
  ['NUL', 'a\u0000b'],
  ['CR/LF (header injection)', 'abc\r\nX-Injected: 1'],
  ['LF', 'abc\n'],
  ['tab', 'a\tb'],
  ['DEL', 'a\u007fb'],
  ['C1 control', 'a\u0085b'],
  ['line separator', 'a\u2028b'],
  ['10 kB', 'x'.repeat(10_000)],
  ['257 characters', 'y'.repeat(257)],
];

describe('hostile ids', () => {
  it('the lists are long enough to mean something', () => {
    expect(FORWARDED.length + REFUSED.length).toBeGreaterThanOrEqual(40);
  });

  it.each(FORWARDED.map((id) => [JSON.stringify(id).slice(0, 60), id]))(
    'forwards %s as exactly one upstream path segment',
    async (_name, id) => {
      const res = await app.get(`/api/candidates/refId/${encodeURIComponent(id)}`);
      expect(res.status).toBe(200);
      expect(upstream.seen).toHaveLength(1);
      const path = upstream.seen[0]!.path;
      const prefix = `/kyc/1.0/connect/${CLIENT_SEGMENT}/refId/`;
      expect(path.startsWith(prefix)).toBe(true);
      const segment = path.slice(prefix.length);
      expect(segment).not.toMatch(/[/?#\s]/);
      expect(decodeURIComponent(segment)).toBe(id);
      expect(path).toBe(`${prefix}${encodeURIComponent(id)}`);
    },
  );

  it.each(REFUSED)('refuses %s with invalid_id and sends nothing upstream', async (_name, id) => {
    const res = await app.get(`/api/candidates/refId/${encodeURIComponent(id)}`);
    expect(res.status).toBe(400);
    expect(apiErrorBodySchema.parse(JSON.parse(res.body)).error.code).toBe('invalid_id');
    expect(upstream.seen).toHaveLength(0);
  });

  it.each([
    ['a raw slash', '/api/candidates/refId/a/b'],
    ['a raw dot-dot segment', '/api/candidates/refId/../../applicants'],
    ['broken percent-encoding', '/api/candidates/refId/%E0%A4%A'],
    ['a lone percent', '/api/candidates/refId/100%'],
    ['an encoded lone surrogate', '/api/candidates/refId/%ED%A0%80'],
  ])('refuses %s in the raw request path', async (_name, path) => {
    const res = await app.get(path);
    expect([400, 404]).toContain(res.status);
    expect(upstream.seen).toHaveLength(0);
  });

  it('ignores a query string sent by the browser instead of passing it upstream', async () => {
    const res = await app.get('/api/candidates/refId/abc?skip=0&limit=1000');
    expect(res.status).toBe(200);
    expect(upstream.seen[0]!.path).toBe(`/kyc/1.0/connect/${CLIENT_SEGMENT}/refId/abc`);
  });
});

describe('hostile ids (property-based, through the real proxy)', () => {
  it('300 generated ids: refused with nothing sent, or exactly one upstream request for exactly that id', async () => {
    const fc = (await import('fast-check')).default;
    const { checkId } = await import('../../src/kyc/contract/lookup.ts');
    await fc.assert(
      fc.asyncProperty(anyString(80), async (id) => {
        upstream.seen.length = 0;
        const res = await app.get(`/api/candidates/recordId/${encodeURIComponent(id)}`);
        if (!checkId(id).ok) {
          expect(res.status).toBe(400);
          expect(upstream.seen).toHaveLength(0);
          return;
        }
        expect(res.status).toBe(200);
        expect(upstream.seen.map((r) => r.path)).toEqual([`/kyc/1.0/connect/${CLIENT_SEGMENT}/recordId/${encodeURIComponent(id)}`]);
      }),
      { numRuns: 300, seed: 20261121 },
    );
  });
});
