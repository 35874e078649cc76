import { setFlagsFromString } from 'node:v8';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { parseCertificate } from '../../src/kyc/view/certificate.ts';
import { envelope, renderWithProviders, stubApi, testMeta } from './render.tsx';

/**
 * A certificate's raw JSON shows each number as the certificate's text writes it. Certificates come as
 * JSON in a string, read by the page; the view wrote them again with JSON.stringify, so a score
 * 0.10000000000000001 read "0.1" and a reference 12345678901234567890 "12345678901234567000". Node 20
 * has JSON.parse source text behind a V8 flag, turned on here as Chromium has it (number-digits.test.tsx).
 */
const withSourceText = (on: boolean) => setFlagsFromString(on ? '--harmony-json-parse-with-source' : '--no-harmony-json-parse-with-source');
afterAll(() => withSourceText(false));

/** Written as text: these numbers are never a JavaScript number's. */
const CERTIFICATE =
  '{"@context":["https://w3id.org/identity/v1"],"Claim":{"reviewBody":{"result":"clear","score":0.10000000000000001,' +
  '"reference":12345678901234567890,"checks":[1e21,2.50,7]}},"Organization":{"legalName":"Onfido Ltd"}}';

function show(raw: string) {
  const record: CandidateRecord = {
    status: 'waiting',
    refId: 'cert-digits',
    isArchived: false,
    blockPassID: 'bp',
    certs: { 'onfido-service-cert': raw },
  };
  stubApi({ meta: testMeta(), candidates: { '/api/candidates/refId/cert-digits': envelope(record) } });
  renderWithProviders('/candidates/refId/cert-digits');
}

describe("a certificate's raw JSON, where the browser gives JSON.parse the source text", () => {
  beforeEach(() => withSourceText(true));
  afterEach(() => withSourceText(false));

  it('shows 0.10000000000000001, 12345678901234567890, 1e21 and 2.50 as the certificate writes them', async () => {
    show(CERTIFICATE);
    const panel = await screen.findByRole('article', { name: 'Onfido' });
    await userEvent.setup().click(within(panel).getByText('Raw JSON'));
    const text = within(panel).getByText('Raw JSON').closest('details')!.querySelector('pre')!.textContent;
    // Before: "score": 0.1, "reference": 12345678901234567000, [1e+21, 2.5, 7].
    expect(text).toContain('\n      "score": 0.10000000000000001,\n      "reference": 12345678901234567890,');
    expect(text).toContain('"checks": [\n        1e21,\n        2.50,\n        7\n      ]');
    expect(text).toContain('\n  "Organization": {\n    "legalName": "Onfido Ltd"\n  }\n}');
  });
});

describe("a certificate's raw JSON is laid out as JSON.stringify lays it out", () => {
  it('for any JSON value, where no number differs from its text', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        const raw = JSON.stringify(value);
        const parsed = parseCertificate(raw);
        expect(parsed.ok && parsed.pretty).toBe(JSON.stringify(JSON.parse(raw), null, 2));
      }),
      { numRuns: 500 },
    );
    // Deeper than the levels written as sent (KEPT_DEPTH, 32): the rest is JSON.stringify's, indented in place.
    const deep = `${'{"a":['.repeat(40)}1,{"b":[2,{}]}${']}'.repeat(40)}`;
    const parsed = parseCertificate(deep);
    expect(parsed.ok && parsed.pretty).toBe(JSON.stringify(JSON.parse(deep), null, 2));
  });
});
