import { setFlagsFromString } from 'node:v8';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseCandidateBody } from '../../src/app/api/fetch-candidate.ts';
import { CandidateView } from '../../src/app/candidate/candidate-view.tsx';
import { BrowserHistory } from '../../src/app/navigation.tsx';
import { sessionQueries } from '../../src/app/session/session-query.ts';
import { MAX_VALUES_KEEPING_NUMBERS, numberText, numberTextAt, parseJsonKeepingNumbers } from '../../src/kyc/contract/number-text.ts';
import { ROUNDED_WORDS } from '../../src/kyc/contract/other-forms.ts';
import { jsonNumberText } from '../support/json-number.ts';
import { renderWithProviders, stubApi } from './render.tsx';

/**
 * Numbers in a record as the service wrote them. JSON.parse reads 12345678901234567890 as
 * 12345678901234567000, and JavaScript writes 1e21 as "1e+21"; where the browser gives a reviver each
 * value's source text (Chrome 114, Firefox 135, Safari 18.4), the page shows the text sent. Node 20 has
 * the feature behind a V8 flag, turned on here as Chromium has it, and off again for the browsers without it.
 */
const withSourceText = (on: boolean) => setFlagsFromString(on ? '--harmony-json-parse-with-source' : '--no-harmony-json-parse-with-source');
afterAll(() => withSourceText(false));

/** A record's answer as the service writes it: the numbers are text here, never a JavaScript number's. */
const body = (customFields: string, identities = '{}') =>
  `{"status":"success","data":{"status":"waiting","refId":"digits-1","recordId":"r1","customFields":${customFields},"identities":${identities}}}`;

function showPage(text: string) {
  stubApi({
    candidates: { '/api/candidates/refId/digits-1': () => new Response(text, { headers: { 'content-type': 'application/json' } }) },
  });
  renderWithProviders('/candidates/refId/digits-1');
}

/** The value cell of a custom field's row, by the field's key. */
const fieldCell = async (name: string) => {
  const section = (await screen.findByRole('heading', { name: 'Custom fields' })).closest('section')!;
  return section.querySelector(`th[data-field="${name}"]`)!.closest('tr')!.querySelector('td')!;
};

describe('where the browser gives JSON.parse the source text', () => {
  beforeEach(() => withSourceText(true));
  afterEach(() => withSourceText(false));

  it('shows 12345678901234567890 and 1e21 as the service wrote them, in a custom field, in a list and as an attribute', async () => {
    showPage(
      body(
        '{"accountNumber":12345678901234567890,"creditLimit":1e21,"tiers":[12345678901234567890,1e21],"score":7}',
        '{"document_number":{"type":"string","value":12345678901234567890}}',
      ),
    );
    // Before: "12345678901234567000" and "1e+21".
    expect(await fieldCell('accountNumber')).toHaveTextContent(/^12345678901234567890$/);
    expect(await fieldCell('creditLimit')).toHaveTextContent(/^1e21$/);
    expect(await fieldCell('score')).toHaveTextContent(/^7$/);
    const tiers = await fieldCell('tiers');
    expect(tiers).toHaveTextContent('[12345678901234567890,1e21] (not text: a list, as JSON)');
    // The attribute's digits as sent too (the custom field's and its), and no warning that they may differ.
    expect(screen.getAllByText('12345678901234567890')).toHaveLength(2);
    expect(document.body).not.toHaveTextContent(ROUNDED_WORDS);
    expect(document.body).not.toHaveTextContent('e+21');
  });

  it("shows an address sent as an object with its parts' numbers as written: 10115.0, not 10115", async () => {
    const address = '{"address":"1 Rd","city":"Berlin","country":"DEU","postalCode":10115.0,"floor":1e21,"box":{"n":2.50}}';
    showPage(body('{}', `{"address":{"type":"string","value":${address}}}`));
    const card = (await screen.findByRole('heading', { name: 'Address' })).closest('section')!;
    // Before: the object was written back into text with JSON.stringify, which writes the numbers read: "10115 Berlin".
    expect(card).toHaveTextContent('10115.0 Berlin');
    const parts = [...within(card).getByTestId('other-parts').querySelectorAll('li')].map((part) => part.textContent);
    expect(parts).toEqual(['box {"n":2.50} (not text: an object, as JSON)', 'floor 1e21']);
    expect(within(card).getByTestId('sent-as-object')).toBeInTheDocument();
  });
});

describe('where the browser does not', () => {
  it("says a number's digits may not be those sent, and never writes 1e+21", async () => {
    withSourceText(false);
    showPage(body('{"accountNumber":12345678901234567890,"creditLimit":1e21,"score":7}'));
    expect(await fieldCell('accountNumber')).toHaveTextContent(`12345678901234567168 (${ROUNDED_WORDS})`);
    expect(await fieldCell('creditLimit')).toHaveTextContent(`1000000000000000000000 (${ROUNDED_WORDS})`);
    expect(await fieldCell('score')).toHaveTextContent(/^7$/);
    expect(document.body).not.toHaveTextContent('e+21');
  });
});

/** A JSON number's text by the grammar (its exponent up to 290). */
const jsonNumber = jsonNumberText();

/** The decimal a number's text names, in one form: `-1.50e2` and `-150` are both `-15e1`. */
function exactValue(text: string): string {
  const parts = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!parts) return `not a number: ${text}`;
  const [, minus, integer, fraction = '', exponent = '0'] = parts;
  let digits = `${integer}${fraction}`.replace(/^0+/, '');
  let power = Number(exponent) - fraction.length;
  if (digits === '') return '0';
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    power++;
  }
  return `${minus}${digits}e${power}`;
}

function renderRecord(text: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  queryClient.setQueryData(sessionQueries.current().queryKey, { mode: 'local', user: 'local', role: 'compliance' });
  return render(
    <QueryClientProvider client={queryClient}>
      <BrowserHistory>
        <CandidateView record={parseCandidateBody(text)} recordCertificateCopy={async () => {}} recordFileSave={async () => {}} />
      </BrowserHistory>
    </QueryClientProvider>,
  );
}

describe('any JSON number the service sends', () => {
  beforeEach(() => withSourceText(true));
  afterEach(() => withSourceText(false));

  it('is shown with the digits it sent (or an exact equivalent), alone and in a list', () => {
    fc.assert(
      fc.property(jsonNumber, (sent) => {
        const { container, unmount } = renderRecord(body(`{"amount":${sent},"amounts":[${sent}]}`));
        try {
          const cell = (name: string) => container.querySelector(`th[data-field="${name}"]`)!.closest('tr')!.querySelector('td')!;
          expect(exactValue(cell('amount').textContent ?? '')).toBe(exactValue(sent));
          const list = within(cell('amounts')).getByText(/^\[.*\]$/).textContent!;
          expect(exactValue(list.slice(1, -1))).toBe(exactValue(sent));
        } finally {
          unmount();
        }
      }),
      { numRuns: 50 },
    );
  }, 60_000);
});

describe("the reviver's cost", () => {
  beforeEach(() => withSourceText(true));
  afterEach(() => {
    withSourceText(false);
    vi.restoreAllMocks();
  });

  /** The calls to JSON.parse with this text, each by whether it was given a reviver. */
  const revivedParses = (parse: { mock: { calls: unknown[][] } }, text: string) =>
    parse.mock.calls.filter(([parsed]) => parsed === text).map(([, reviver]) => typeof reviver === 'function');

  it("attack: a record of a million large-exponent numbers is read without the reviver's per-number cost", async () => {
    // The red team's record: a million 1e308 froze Chromium's tab for 50 s, a reviver call and a BigInt each.
    const text = body(`{"riskLevel":"high","scores":[${Array(1_000_000).fill('1e308').join(',')}]}`);
    const parse = vi.spyOn(JSON, 'parse');
    showPage(text);
    const scores = await fieldCell('scores');
    // Read plainly, once: past MAX_VALUES_KEEPING_NUMBERS values the reviver is not used.
    expect(revivedParses(parse, text)).toEqual([false]);
    // The reviewer sees the digits, and that they may not be those sent, never a frozen tab.
    expect(scores).toHaveTextContent(`[${numberText(1e308).digits.slice(0, 100)}`);
    expect(scores).toHaveTextContent(ROUNDED_WORDS);
  }, 60_000);

  it('keeps the text of many numbers past 2^53 without writing any of them in digits (BigInt)', () => {
    const text = body(
      `{"big":12345678901234567890,"scores":[${Array(MAX_VALUES_KEEPING_NUMBERS / 2)
        .fill('1e308')
        .join(',')}]}`,
    );
    const bigInt = vi.spyOn(globalThis, 'BigInt');
    const { container } = renderRecord(text);
    // Before: 25 µs of BigInt for each of them while reading, for digits never shown.
    expect(bigInt).not.toHaveBeenCalled();
    const cell = (name: string) => container.querySelector(`th[data-field="${name}"]`)!.closest('tr')!.querySelector('td')!;
    expect(cell('big')).toHaveTextContent(/^12345678901234567890$/);
    expect(cell('scores')).toHaveTextContent(/^\[1e308,1e308,1e308,/);
    expect(container).not.toHaveTextContent(ROUNDED_WORDS);
  });

  it('reads a record whose numbers are all written as sent without a reviver, its dates and pictures alike', () => {
    const picture = 'iVBORw0KGgo3e5E7e1234567890123456e9'.repeat(1000);
    const text = body(
      '{"score":7,"rate":1.5,"small":0.000001,"negative":-12.25,"when":"2026-11-01T10:00:00.000Z"}',
      `{"selfie":{"type":"base64","value":"${picture}"}}`,
    );
    const parse = vi.spyOn(JSON, 'parse');
    parseCandidateBody(text);
    expect(revivedParses(parse, text)).toEqual([false]);
  });
});

describe('any JSON number, read with the source text where it may differ', () => {
  beforeEach(() => withSourceText(true));
  afterEach(() => withSourceText(false));

  it('is written exactly as sent, in an object and in a list, whatever space surrounds it', () => {
    fc.assert(
      fc.property(jsonNumber, fc.constantFrom('', ' ', '\n', '\t', '\r\n  '), (sent, space) => {
        const holder = parseJsonKeepingNumbers(`{"amount":${space}${sent}${space},"amounts":[${space}${sent}${space}]}`) as {
          amount: number;
          amounts: number[];
        };
        expect(numberTextAt(holder, 'amount', holder.amount)).toEqual({ digits: sent });
        expect(numberTextAt(holder.amounts, '0', holder.amounts[0]!)).toEqual({ digits: sent });
      }),
      { numRuns: 2000 },
    );
  });
});
