import { setFlagsFromString } from 'node:v8';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCandidateBody } from '../../src/app/api/fetch-candidate.ts';
import { fieldText, structuredFieldsOf } from '../../src/kyc/contract/other-forms.ts';
import { layOutCertificate, parseCertificate } from '../../src/kyc/view/certificate.ts';
import { otherFieldsOf } from '../../src/kyc/view/other-fields.ts';
import { jsonNumberText } from '../support/json-number.ts';
import { renderWithProviders, stubApi, testMeta } from './render.tsx';

/**
 * Numbers the record holds elsewhere than in a custom field's value, as the service wrote them (red team):
 * a certificate sent as the document itself, a top-level field no section reads, and a custom field past
 * the largest number JavaScript holds (1e309 reads as Infinity). Node 20 has JSON.parse source text behind
 * a V8 flag, turned on here as Chromium has it (number-digits.test.tsx).
 */
const withSourceText = (on: boolean) => setFlagsFromString(on ? '--harmony-json-parse-with-source' : '--no-harmony-json-parse-with-source');
afterAll(() => withSourceText(false));

/** A record's answer as the service writes it: the numbers are text here, never a JavaScript number's. */
const body = (members: string) => `{"status":"success","data":{"status":"waiting","refId":"held-1","recordId":"r1",${members}}}`;

function showPage(text: string) {
  stubApi({
    meta: testMeta(),
    candidates: { '/api/candidates/refId/held-1': () => new Response(text, { headers: { 'content-type': 'application/json' } }) },
  });
  renderWithProviders('/candidates/refId/held-1');
}

const sectionOf = async (title: string) => (await screen.findByRole('heading', { name: title })).closest('section')!;

describe('numbers held elsewhere, where the browser gives JSON.parse the source text', () => {
  beforeEach(() => withSourceText(true));
  afterEach(() => withSourceText(false));

  it('attack: a certificate sent as an object keeps 12345678901234567890 as sent', async () => {
    const document =
      '{"Claim":{"reviewBody":{"result":"clear","score":0.10000000000000001,"reference":12345678901234567890,"checks":[1e21,2.50]}}}';
    showPage(body(`"certs":{"onfido-service-cert":${document}}`));
    const panel = await screen.findByRole('article', { name: 'Onfido' });
    await userEvent.setup().click(within(panel).getByText('Raw JSON'));
    const text = within(panel).getByText('Raw JSON').closest('details')!.querySelector('pre')!.textContent;
    // Before: "reference": 12345678901234567000, [1e+21, 2.5], with no word that they may not be the numbers sent.
    expect(text).toContain('"score": 0.10000000000000001,\n      "reference": 12345678901234567890,');
    expect(text).toContain('"checks": [\n        1e21,\n        2.50\n      ]');
  });

  it('attack: a top-level field no section reads keeps 12345678901234567890 and 1e21 as sent', async () => {
    showPage(body('"accountNumber":12345678901234567890,"creditLimit":1e21,"rate":2.50,"attempts":3'));
    const card = await sectionOf('Other fields in this response');
    const shown = (name: string) => within(card).getByText(name).closest('dt')!.nextElementSibling!;
    // Before: 12345678901234567000, 1e+21 and 2.5 (written with JSON.stringify), each "(not text: a number)".
    expect(shown('accountNumber')).toHaveTextContent(/^12345678901234567890 \(not text: a number\)$/);
    expect(shown('creditLimit')).toHaveTextContent(/^1e21 \(not text: a number\)$/);
    expect(shown('rate')).toHaveTextContent(/^2\.50 \(not text: a number\)$/);
    expect(shown('attempts')).toHaveTextContent(/^3 \(not text: a number\)$/);
  });

  it('attack: a custom field of 1e309 is shown as sent, never named unread as "a number expected, a number found"', async () => {
    showPage(body('"customFields":{"creditLimit":1e309,"floor":-1e309,"branch":"north"}'));
    const section = await sectionOf('Custom fields');
    const cell = (name: string) => section.querySelector(`th[data-field="${name}"]`)!.closest('tr')!.querySelector('td')!;
    // Before: neither row, and "customFields.creditLimit: text, a number, true or false, or empty expected, a number found".
    expect(cell('creditLimit')).toHaveTextContent(/^1e309 \(not text: a number too large to read, shown as received\)$/);
    expect(cell('floor')).toHaveTextContent(/^-1e309 \(not text: a number too large to read, shown as received\)$/);
    expect(cell('branch')).toHaveTextContent(/^north$/);
    expect(screen.queryByTestId('unread-fields')).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('Infinity');
  });
});

describe('where the browser does not give the source text', () => {
  it('attack: names a custom field of 1e309 unread as a number too large to read, not "a number expected, a number found"', async () => {
    withSourceText(false);
    showPage(body('"customFields":{"creditLimit":1e309,"riskLevel":"high"}'));
    const notice = await screen.findByTestId('unread-fields');
    // Before: "text, a number, true or false, or empty expected, a number found": the kind expected, said as found.
    expect(notice).toHaveTextContent(
      'customFields.creditLimit: text, a number, true or false, or empty expected, a number too large to read found',
    );
    expect(document.body).not.toHaveTextContent('Infinity');
  });
});

describe('property: any JSON number the service sends, held where the page shows it', () => {
  beforeEach(() => withSourceText(true));
  afterEach(() => withSourceText(false));

  it('is shown as the text sent: in a certificate sent as an object, a top-level field and a custom field', () => {
    fc.assert(
      fc.property(jsonNumberText({ maxExponent: 400 }), (sent) => {
        const record = parseCandidateBody(
          body(`"certs":{"onfido-service-cert":{"Claim":{"n":${sent},"l":[${sent}]}}},"amount":${sent},"customFields":{"amount":${sent}}`),
        );
        // The certificate's text, and its raw JSON view laid out from it.
        const raw = record.certs!['onfido-service-cert']!;
        expect(raw).toBe(`{"Claim":{"n":${sent},"l":[${sent}]}}`);
        const parsed = parseCertificate(raw);
        if (!parsed.ok) throw new Error('the certificate is read');
        const layout = layOutCertificate(raw, parsed);
        expect(layout.ok && layout.pretty).toContain(`"n": ${sent},\n    "l": [\n      ${sent}\n    ]`);
        // The top-level field, as the Other fields card shows it.
        expect(otherFieldsOf(record).fields.find((field) => field.name === 'amount')?.json?.json).toBe(sent);
        // The custom field: a row's text, or (past JavaScript's largest number) its text kept beside the others.
        const fields = record.customFields!;
        const shown = Object.hasOwn(fields, 'amount')
          ? fieldText(fields, 'amount', fields.amount as number)
          : structuredFieldsOf(fields).find((field) => field.name === 'amount')?.json;
        expect(shown).toBe(sent);
      }),
      { numRuns: 1000 },
    );
  });
});
