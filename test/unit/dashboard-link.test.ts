import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkId } from '../../src/kyc/contract/lookup.ts';
import { dashboardHref, parseDashboardLink } from '../../src/kyc/view/dashboard-link.ts';
import { defaultDashboardUrl } from '../../src/server/config/config-fields.ts';
import { anyString } from '../support/any-code-point.ts';

const RECORD = '65f1c2a9e4b0d3a1f0c9b801';

describe('dashboard links', () => {
  it.each([
    [`https://kyc.blockpass.org/kyc/dashboard/index.html#/acme_kyc/kyc_detail/${RECORD}`],
    [`https://kyc.blockpass.org/kyc/dashboard/#/acme_kyc/kyc_detail/${RECORD}`],
    [`https://kyc.blockpass.org/kyc/dashboard#/acme_kyc/kyc_detail/${RECORD}`],
    [`https://kyc.blockpass.org/kyc/dashboard/index.html#!/acme_kyc/kyc_detail/${RECORD}`],
    [`http://127.0.0.1:8080/base/kyc/dashboard/#!/acme_kyc/kyc_detail/${RECORD}/`],
    [`HTTPS://Dashboard.Example.COM/KYC/Dashboard/Index.html#/acme_kyc/kyc_detail/${RECORD}?tab=docs`],
    [`  https://kyc.blockpass.org/kyc/dashboard/index.html#/acme_kyc/kyc_detail/${RECORD}\n`],
    // As mail and chat hand links over: in angle brackets, or ending a sentence.
    [`<https://kyc.blockpass.org/kyc/dashboard/#/acme_kyc/kyc_detail/${RECORD}>`],
    [`https://kyc.blockpass.org/kyc/dashboard/#/acme_kyc/kyc_detail/${RECORD}.`],
  ])('reads %j as the recordId of its client id', (link) => {
    expect(parseDashboardLink(link)).toEqual({ ok: true, clientId: 'acme_kyc', recordId: RECORD });
  });

  it.each([
    ['cust_000482'],
    [RECORD],
    ['https://lookup.example.com/candidates/recordId/65f1c2a9e4b0d3a1f0c9b801'],
    ['https://kyc.blockpass.org/kyc/1.0/connect/acme_kyc/recordId/65f1c2a9e4b0d3a1f0c9b801'],
    ['javascript:alert(1)//kyc/dashboard/#/a/kyc_detail/b'],
    ['ftp://host/kyc/dashboard/#/a/kyc_detail/b'],
    ['https://host/kyc/dashboards/#/a/kyc_detail/b'],
  ])('leaves %j alone: not a dashboard link', (text) => {
    expect(parseDashboardLink(text)).toBeUndefined();
  });

  it.each([
    [
      'a link to another dashboard page',
      'https://h/kyc/dashboard/#/acme_kyc/settings',
      /should end in #\/<client id>\/kyc_detail\/<recordId>/,
    ],
    ['a link without a hash', 'https://h/kyc/dashboard/index.html', /should end in/],
    ['a link with no recordId', 'https://h/kyc/dashboard/#/acme_kyc/kyc_detail/', /names no recordId/],
    ['a link with no client id', `https://h/kyc/dashboard/#//kyc_detail/${RECORD}`, /client id cannot be read/],
    ['a recordId of two segments', 'https://h/kyc/dashboard/#/acme_kyc/kyc_detail/a/b', /more than one path segment/],
    ['a recordId badly percent-encoded', 'https://h/kyc/dashboard/#/acme_kyc/kyc_detail/%E0%A4%A', /not correctly percent-encoded/],
    ['a percent-encoded line break smuggled into the recordId', 'https://h/kyc/dashboard/#/c/kyc_detail/abc%0Adef', /control character/],
    ['a recordId of dot-segments', 'https://h/kyc/dashboard/#/c/kyc_detail/%2E%2E', /not a valid id/],
    ['a recordId over 256 characters', `https://h/kyc/dashboard/#/c/kyc_detail/${'a'.repeat(300)}`, /too long/],
  ])('refuses %s with a message that says why', (_, link, problem) => {
    const read = parseDashboardLink(link);
    expect(read).toMatchObject({ ok: false, problem: expect.stringMatching(/^This dashboard link does not open a candidate: /) });
    expect(read && !read.ok && read.problem).toMatch(problem);
  });

  it('never throws, whatever is pasted (fuzzed around the dashboard form)', () => {
    const parts = fc.constantFrom(
      'https://h',
      '/kyc/dashboard',
      '/index.html',
      '#',
      '#!',
      '/',
      'kyc_detail',
      '%',
      '%0A',
      '%2F',
      '?',
      'é',
      '\u0000',
      'a',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          anyString(80),
          fc.array(parts, { maxLength: 20 }).map((p) => p.join('')),
        ),
        (text) => {
          const read = parseDashboardLink(text);
          if (read?.ok) expect(checkId(read.recordId).ok).toBe(true);
        },
      ),
      { numRuns: 3000, seed: 20261126 },
    );
  });

  it('any link built from a valid client id and recordId, on any host, in any of the forms, gives that recordId (property)', () => {
    const clientId = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), fc.string({ minLength: 1, maxLength: 20 }));
    const recordId = fc.oneof(
      fc.stringMatching(/^[0-9a-f]{24}$/),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).filter((id) => checkId(id).ok),
      anyString(40).filter((id) => checkId(id).ok),
    );
    const origin = fc.tuple(
      fc.constantFrom('http', 'https'),
      fc.domain(),
      fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    );
    const base = fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { maxLength: 3 }).map((segments) => segments.map((s) => `/${s}`).join(''));
    const page = fc.constantFrom('/kyc/dashboard/index.html', '/kyc/dashboard/', '/kyc/dashboard');
    const hash = fc.constantFrom('#/', '#!/');
    const tail = fc.constantFrom('', '/', '?tab=identity');
    fc.assert(
      fc.property(clientId, recordId, origin, base, page, hash, tail, (client, record, [scheme, host, port], prefix, path, start, end) => {
        const link = `${scheme}://${host}${port ? `:${port}` : ''}${prefix}${path}${start}${encodeURIComponent(client)}/kyc_detail/${encodeURIComponent(record)}${end}`;
        expect(parseDashboardLink(link)).toEqual({ ok: true, clientId: client, recordId: record });
      }),
      { numRuns: 2000, seed: 20261126 },
    );
  });

  it("a Blockpass service's console is its default: <baseUrl>/kyc/dashboard/#/<clientId>/kyc_detail/{recordId}", () => {
    expect(defaultDashboardUrl('https://kyc.blockpass.org', 'acme_kyc')).toBe(
      'https://kyc.blockpass.org/kyc/dashboard/#/acme_kyc/kyc_detail/{recordId}',
    );
    expect(defaultDashboardUrl('https://kyc.blockpass.org/', 'acme kyc')).toBe(
      'https://kyc.blockpass.org/kyc/dashboard/#/acme%20kyc/kyc_detail/{recordId}',
    );
    expect(defaultDashboardUrl('https://KYC.Blockpass.org', 'acme_kyc')).toMatch(/^https:\/\/KYC\.Blockpass\.org\/kyc\/dashboard\//);
  });

  it.each([
    ['another service', 'https://kyc.example.com'],
    ['a host that only ends like it', 'https://notblockpass.org'],
    ['a host that only starts like it', 'https://kyc.blockpass.org.example.com'],
    ['the sandbox on this machine', 'http://127.0.0.1:4010'],
    ['no URL at all', 'not a url'],
  ])('attack: %s gets no default console, so no link sends a reviewer to a host that only looks like it', (_, baseUrl) => {
    expect(defaultDashboardUrl(baseUrl, 'acme_kyc')).toBeUndefined();
  });

  it('links a candidate only when it has the id the template needs, each id percent-encoded in its place', () => {
    const template = 'https://console.example.org/kyc/{recordId}?ref={refId}';
    expect(dashboardHref(template, { recordId: 'a/b', refId: 'x&y=z' })).toBe('https://console.example.org/kyc/a%2Fb?ref=x%26y%3Dz');
    expect(dashboardHref(template, { recordId: 'a', refId: null })).toBeUndefined();
    expect(dashboardHref(undefined, { recordId: 'a' })).toBeUndefined();
  });

  it('the console link made for any valid recordId reads back as that recordId and client id (property)', () => {
    const template = defaultDashboardUrl('https://kyc.blockpass.org', 'acme_kyc')!;
    const recordId = fc.oneof(
      fc.stringMatching(/^[0-9a-f]{24}$/),
      anyString(40).filter((id) => id !== '' && checkId(id).ok),
    );
    fc.assert(
      fc.property(recordId, (record) => {
        expect(parseDashboardLink(dashboardHref(template, { recordId: record })!)).toEqual({
          ok: true,
          clientId: 'acme_kyc',
          recordId: record,
        });
      }),
      { numRuns: 1000, seed: 20261128 },
    );
  });
});
