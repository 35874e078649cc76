import { setFlagsFromString } from 'node:v8';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_VALUES_KEEPING_NUMBERS, numberText } from '../../src/kyc/contract/number-text.ts';
import { MAX_STRUCTURED_JSON, ROUNDED_WORDS } from '../../src/kyc/contract/other-forms.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { layOutCertificate, parseCertificate } from '../../src/kyc/view/certificate.ts';
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

/** The raw JSON view's text and its notes, once opened. */
async function rawView(raw: string) {
  show(raw);
  const panel = await screen.findByRole('article', { name: 'Onfido' });
  await userEvent.setup().click(within(panel).getByText('Raw JSON'));
  const details = within(panel).getByText('Raw JSON').closest('details')!;
  const notes = within(details)
    .queryAllByRole('note')
    .map((note) => note.textContent);
  return { text: details.querySelector('pre')!.textContent, notes };
}

describe("a certificate's raw JSON past the values whose numbers are kept as sent", () => {
  beforeEach(() => withSourceText(true));
  afterEach(() => withSourceText(false));

  it('attack: a certificate of more than MAX_VALUES_KEEPING_NUMBERS values says its numbers are shown as read and may differ', async () => {
    // Padded past the bound, the certificate is read plainly: 0.10000000000000001 shows as 0.1 and 1e21 as 1e+21.
    const pad = `${'0,'.repeat(MAX_VALUES_KEEPING_NUMBERS)}0`;
    const raw = `{"Claim":{"reviewBody":{"result":"clear","score":0.10000000000000001,"ids":[1e21],"pad":[${pad}]}}}`;
    const { text, notes } = await rawView(raw);
    expect(text).toContain('"score": 0.1,');
    expect(text).toContain('1e+21');
    // Before: the same numbers and no word that they may not be the certificate's.
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(`more than ${MAX_VALUES_KEEPING_NUMBERS.toLocaleString('en')} values`);
    expect(notes[0]).toContain(ROUNDED_WORDS);
  });

  it('says nothing of the kind under the bound, where its numbers are as sent', async () => {
    const { text, notes } = await rawView(CERTIFICATE);
    expect(text).toContain('"score": 0.10000000000000001,');
    expect(notes).toEqual([]);
  });
});

describe('a certificate that is one bare number', () => {
  afterEach(() => withSourceText(false));

  for (const sourceText of [true, false]) {
    it(`shows it in its raw JSON as written, where the browser ${sourceText ? 'gives' : 'does not give'} the source text`, async () => {
      withSourceText(sourceText);
      // Before: 12345678901234567000, as JavaScript reads it: a bare number has no holder to keep its text by.
      const { text, notes } = await rawView(' 12345678901234567890\n');
      expect(text).toBe('12345678901234567890');
      expect(notes).toEqual([]);
    });
  }
});

describe('a certificate nested too deeply to lay out', () => {
  it('attack: shows its rows, and in its raw JSON its text as received with a notice', async () => {
    // JSON.parse reads any depth; JSON.stringify runs out of stack on this one.
    const raw = `{"Claim":{"reviewBody":{"result":"clear","deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`;
    const { text, notes } = await rawView(raw);
    expect(text).toBe(raw);
    expect(notes).toEqual(['This certificate is nested too deeply to lay out. The raw text is shown as received.']);
    expect(screen.getByRole('article', { name: 'Onfido' })).toHaveTextContent('clear');
  });
});

/**
 * The same numbers in the rows, and in JSON a certificate holds in its text (`_customFields.detail`). The
 * rows wrote them with String() and read that JSON with JSON.parse: a row said 0.1 where the raw JSON
 * said 0.10000000000000001, and 12345678901234567000 with no word that it may not be the number sent.
 */
const WITH_JSON_INSIDE = CERTIFICATE.replace(
  '}},"Organization"',
  `},"_customFields":{"detail":${JSON.stringify('{"rate":0.10000000000000001,"ids":[12345678901234567890,1.50]}')}}},"Organization"`,
);

/** The certificate's rows by label: what each value cell says. */
async function rowsOf(raw: string) {
  show(raw);
  const panel = await screen.findByRole('article', { name: 'Onfido' });
  const cells = [...within(panel).getByTestId('review-rows').querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling!]);
  return { cells: new Map(cells as Array<[string, HTMLElement]>), panel };
}

const rowText = (cells: Map<string, HTMLElement>) => (label: string) => cells.get(label)?.textContent;

describe("a certificate's rows, where the browser gives JSON.parse the source text", () => {
  beforeEach(() => withSourceText(true));
  afterEach(() => withSourceText(false));

  it('show 0.10000000000000001, 12345678901234567890 and 1.50 as the raw JSON does, also in JSON held in its text', async () => {
    const { cells, panel } = await rowsOf(WITH_JSON_INSIDE);
    const row = rowText(cells);
    // Before: 0.1, 12345678901234567000, "0.1" and "12345678901234567000, 1.5".
    expect(row('Score')).toBe('0.10000000000000001');
    expect(row('Reference')).toBe('12345678901234567890');
    expect(row('Detail › Rate')).toBe('0.10000000000000001');
    expect(row('Detail › Ids')).toBe('12345678901234567890, 1.50');
    expect(panel).not.toHaveTextContent(ROUNDED_WORDS);
  });

  it('attack: JSON in several of its strings, each under the bound, keeps numbers as sent for the bound together, then says they may differ', async () => {
    // Two strings of 30,000 values each: apart, each under MAX_VALUES_KEEPING_NUMBERS, and the reviver
    // would have read every value of every such string, however many the certificate held.
    const values = Math.ceil(MAX_VALUES_KEEPING_NUMBERS * 0.6);
    const held = JSON.stringify(`{"ref":12345678901234567890,"pad":[${'0,'.repeat(values)}0]}`);
    const raw = `{"Claim":{"reviewBody":{"result":"clear"},"_customFields":{"first":${held},"second":${held}}}}`;
    const row = rowText((await rowsOf(raw)).cells);
    expect(row('First › Ref')).toBe('12345678901234567890');
    expect(row('Second › Ref')).toBe(`12345678901234567168 (${ROUNDED_WORDS})`);
  });
});

describe("a certificate's rows, where the browser does not give the source text", () => {
  it("say a number read rounded may differ from the one sent, as the record's fields do, also in JSON held in its text", async () => {
    withSourceText(false);
    const { cells } = await rowsOf(WITH_JSON_INSIDE);
    const row = rowText(cells);
    // Before: 12345678901234567000 and "12345678901234567000, 1.5", as if sent so.
    expect(row('Reference')).toBe(`12345678901234567168 (${ROUNDED_WORDS})`);
    expect(row('Detail › Ids')).toBe(`12345678901234567168, 1.5 (${ROUNDED_WORDS})`);
    // Read exactly as JavaScript writes it: nothing to say (and the raw JSON says 0.1 too).
    expect(row('Score')).toBe('0.1');
  });

  it('attack: a list of 20,000 numbers 1e308 is one row cut after MAX_STRUCTURED_JSON characters, however many digits each has', async () => {
    withSourceText(false);
    const raw = `{"Claim":{"reviewBody":{"result":"clear"},"_customFields":{"limits":[${'1e308,'.repeat(19_999)}1e308]}}}`;
    const { cells } = await rowsOf(raw);
    const cell = cells.get('Limits')!;
    await userEvent.setup().click(within(cell).getByRole('button', { name: /^Show all/ }));
    const text = cell.textContent!.replace(/Show less$/, '');
    // Before: "1e+308, 1e+308, …" in full, 159,998 characters; now each in its 309 digits, cut.
    const digits = numberText(1e308).digits;
    expect(digits).toHaveLength(309);
    expect(text.startsWith(`${digits}, ${digits}, `)).toBe(true);
    expect(text.endsWith(`${digits}, … (${ROUNDED_WORDS})`)).toBe(true);
    // The bound, then the number that passed it, and the words: never the 20,000 numbers' 6 million digits.
    expect(text.length).toBeLessThanOrEqual(MAX_STRUCTURED_JSON + `${digits}, … (${ROUNDED_WORDS})`.length);
  });
});

/** The raw JSON view's text of a certificate, as the panel lays it out. */
function layout(raw: string): string | false {
  const parsed = parseCertificate(raw);
  const laidOut = parsed.ok ? layOutCertificate(raw, parsed) : undefined;
  return laidOut?.ok === true && laidOut.pretty;
}

describe("a certificate's raw JSON is laid out as JSON.stringify lays it out", () => {
  it.each([false, true])('for any JSON value, where no number differs from its text (source text: %s)', (sourceText) => {
    withSourceText(sourceText);
    fc.assert(
      // Text at the top is no document: it is read once more, as a certificate encoded twice (certificate-json.ts).
      fc.property(
        fc.jsonValue({ maxDepth: 5 }).filter((value) => typeof value !== 'string'),
        (value) => {
          const raw = JSON.stringify(value);
          expect(layout(raw)).toBe(JSON.stringify(JSON.parse(raw), null, 2));
        },
      ),
      { numRuns: 500 },
    );
    // Deeper than the levels written as sent (KEPT_DEPTH, 32): the rest is JSON.stringify's, indented in place.
    const deep = `${'{"a":['.repeat(40)}1,{"b":[2,{}]}${']}'.repeat(40)}`;
    expect(layout(deep)).toBe(JSON.stringify(JSON.parse(deep), null, 2));
    withSourceText(false);
  });
});
