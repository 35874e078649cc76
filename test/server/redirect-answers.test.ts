import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type http from 'node:http';
import { MAX_REDIRECT_ORIGIN, redirectTarget } from '../../src/server/upstream/redirect.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { errorOf, serviceAndApp } from './service-app.ts';

/**
 * A redirect of the service's address and a 204, as the page gets them: a redirect is a configuration
 * change (never followed, never "try again"), a 204 an answer with no content (not "without a length").
 */

const KEY = 'redir-full-key-3e8a1f6b';
const { upstream, app, lookup } = await serviceAndApp((baseUrl) => ({
  upstream: { baseUrl, clientId: 'client_redir', apiKey: KEY },
  settings: { limits: { upstreamTimeoutMs: 2000 } },
}));
const elsewhere = await startFakeUpstream();
afterAll(() => elsewhere.close());

function answer(status: number, headers: http.OutgoingHttpHeaders = {}, body = '') {
  upstream.behave = (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
}

describe('a redirect of the service address', () => {
  it.each([301, 302, 307, 308])(
    'a %i to another address: upstream_redirected naming its origin, not followed, no "try again"',
    async (status) => {
      answer(status, { location: `${elsewhere.url}/kyc/1.0/connect/client_redir/refId/abc-123` });
      const res = await lookup();
      expect(res.status).toBe(502);
      const error = errorOf(res);
      expect(error).toMatchObject({ code: 'upstream_redirected', upstreamStatus: status });
      expect(error.message).toContain(`The KYC service's address redirects (HTTP ${status}) to ${new URL(elsewhere.url).origin}:`);
      expect(error.message).toContain('an administrator must update');
      expect(error.message).not.toMatch(/usually passes|try again in a moment/i);
      expect(error.message).not.toContain('abc-123');
      expect(elsewhere.seen).toHaveLength(0);
    },
  );

  it('a relative Location: said as another path of the same address, the path not named', async () => {
    answer(301, { location: '/kyc/1.0/connect/client_redir/refId/ok' });
    const error = errorOf(await lookup());
    expect(error.code).toBe('upstream_redirected');
    expect(error.message).toContain('redirects (HTTP 301) to another path of the same address:');
    expect(error.message).not.toContain('/kyc/');
  });

  it('at status level (every role) and without a Location: the same code', async () => {
    answer(302, { location: 'https://kyc.example.org/x' });
    expect(errorOf(await app.get('/api/status/refId/abc-123', {}))).toMatchObject({
      code: 'upstream_redirected',
      message: expect.stringContaining('to https://kyc.example.org:'),
    });
    answer(302);
    expect(errorOf(await lookup()).message).toContain('redirects (HTTP 302) without an address that can be read:');
  });

  it('attack: a Location with invisible characters, a 10 000-character host and another scheme: bounded, ASCII, never a path', async () => {
    // A header carries Latin-1 only: an invisible soft hyphen in the host, a percent-escaped override in the path.
    answer(302, { location: `https://${'a'.repeat(60)}\u00ad.${'b'.repeat(9_990)}.example/%E2%80%AEexe.gpj?refId=abc-123` });
    const long = errorOf(await lookup()).message;
    expect(long).toContain(`to https://${'a'.repeat(60)}.${'b'.repeat(50)}…:`);
    expect(long).not.toMatch(/\u00ad|\u202e|%E2|abc-123/);
    answer(302, { location: 'javascript:alert(1)' });
    expect(errorOf(await lookup()).message).toContain('without an address that can be read');
  });

  it('property: what is named of any Location is an http(s) origin of printable ASCII, at most 120 characters, without its path or query', () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string({ unit: 'binary' })), (location) => {
        const target = redirectTarget(location);
        if (typeof target === 'string') return;
        expect(target.origin).toMatch(/^https?:\/\/[\x21-\x7e]*…?$/);
        expect(Array.from(target.origin).length).toBeLessThanOrEqual(MAX_REDIRECT_ORIGIN);
        expect(target.origin.slice(target.origin.indexOf('//') + 2)).not.toMatch(/[/?#]/);
      }),
      { numRuns: 500 },
    );
  });
});

describe('a 204, no content', () => {
  it('is said as no content, not as an answer without a length, at full and at status level', async () => {
    answer(204);
    for (const res of [await lookup(), await app.get('/api/status/refId/abc-123', {})]) {
      expect(errorOf(res)).toMatchObject({
        code: 'upstream_no_content',
        upstreamStatus: 204,
        message: expect.stringContaining('The KYC service answered with no content (HTTP 204)'),
      });
      expect(errorOf(res).message).not.toContain('without a length');
    }
  });
});
