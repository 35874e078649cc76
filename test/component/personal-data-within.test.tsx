import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderWithProviders, stubApi } from './render.tsx';

const BOX_NAME = /^(refId|recordId) to look up$/;
const searchBox = () => screen.getByLabelText<HTMLInputElement>(BOX_NAME);
/** The batch page is its own chunk, fetched when first opened: slower to appear on a busy machine. */
const LAZY_PAGE = { timeout: 10_000 };
const candidateRequests = (requests: string[]) => requests.filter((url) => url.includes('/candidates/'));
const batchRequests = (requests: string[]) => requests.filter((url) => url === '/api/batch');

/** The home page, the API stubbed, its box ready. */
async function home() {
  const user = userEvent.setup();
  const { requests, fetchMock } = stubApi({ candidates: { '/api/batch': () => new Response('', { status: 500 }) } });
  const rendered = renderWithProviders('/');
  await waitFor(() => expect(searchBox()).toHaveFocus());
  return { user, requests, fetchMock, ...rendered };
}

const word = fc.stringMatching(/^[A-Za-z0-9çğıöşü_-]{1,10}$/);
const words = fc.array(word, { maxLength: 3 }).map((list) => list.join(' '));
const pad = (n: number) => String(n).padStart(2, '0');
const wholeDate = fc
  .tuple(fc.integer({ min: 1900, max: 2099 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.nat(2))
  .map(
    ([year, month, day, form]) =>
      [`${year}-${pad(month)}-${pad(day)}`, `${day}.${month}.${year}`, `${pad(month)}/${pad(day)}/${year}`][form]!,
  );

// Whole-page tests: slower than 5 s when the machine is busy.
describe('text that holds personal data among other words, in the search box', { timeout: 60_000 }, () => {
  it.each([
    ['Mehmet Yılmaz 1968-05-21', "This holds a person's name and a date."],
    ['DOB 15.06.1987', 'This holds a date.'],
    ['born 12 March 1990', 'This holds a date.'],
    ['Mehmet Yilmaz, 21.05.1968', "This holds a person's name and a date."],
    ['mehmet.yilmaz@example.com.tr please help', 'This holds an e-mail address.'],
    ['ana.silva@example.com cust_000482', 'This holds an e-mail address.'],
  ])('attack: %j typed is asked about, naming what it holds, and not sent nor put in the address', async (typed, said) => {
    const { user, requests, router } = await home();
    await user.type(searchBox(), `${typed}{Enter}`);
    // Before: looked up at once, the text in the address bar, the history and the audit file.
    expect(await screen.findByRole('alert')).toHaveTextContent(`${said} Candidate Lookup finds candidates by refId or recordId only`);
    expect(candidateRequests(requests)).toEqual([]);
    expect(router.state.location.pathname).toBe('/');
  });

  it('attack: any text that holds an e-mail address or a whole date is asked about before it is looked up (property)', async () => {
    await fc.assert(
      fc.asyncProperty(words, fc.oneof(fc.emailAddress(), wholeDate), words, async (before, found, after) => {
        const typed = [before, found, after].filter(Boolean).join(' ');
        const { user, requests, router } = await home();
        fireEvent.change(searchBox(), { target: { value: typed } });
        await user.keyboard('{Enter}');
        expect(await screen.findByRole('alert')).toHaveTextContent(/^This (reads like|holds) /);
        expect(candidateRequests(requests)).toEqual([]);
        expect(router.state.location.pathname).toBe('/');
        cleanup();
      }),
      { numRuns: 12, seed: 20261130 },
    );
  });

  it('an id with a date inside it (legacy-1988-07-14) is looked up at once, as before', async () => {
    const { user, requests, router } = await home();
    await user.type(searchBox(), 'legacy-1988-07-14{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/legacy-1988-07-14'));
    expect(candidateRequests(requests)).toEqual(['/api/candidates/refId/legacy-1988-07-14']);
    expect(screen.queryByTestId('personal-data-question')).not.toBeInTheDocument();
  });

  it('attack: a pasted "DOB 15.06.1987", offered as a list of 2 ids, is asked about by the batch before it is sent', async () => {
    const { user, requests } = await home();
    await user.paste('DOB 15.06.1987');
    const offer = await screen.findByText(/^You pasted a list of 2 ids/);
    await user.click(within(offer.parentElement!).getByRole('button', { name: 'Look up all 2 in a batch' }));
    await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE);
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Line 2 reads like a date, not an id\./);
    expect(batchRequests(requests)).toEqual([]);
  });
});

describe('a list whose lines hold personal data among other words, in a batch', { timeout: 20_000 }, () => {
  it('attack: lines holding a date or an e-mail address among other words are asked about, and "Leave them out" sends the ids alone', async () => {
    const user = userEvent.setup();
    const { fetchMock } = stubApi({ candidates: { '/api/batch': () => new Response('', { status: 500 }) } });
    renderWithProviders('/batch');
    await user.click(await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE));
    await user.paste('cust_1\nDOB 15.06.1987\nana.silva@example.com cust_000482\nlegacy-1988-07-14');
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    // Before: the batch asked by the whole-text rule alone, and sent lines 2 and 3 unasked.
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Lines 2 and 3 read like a date or an e-mail address, not an id\./);
    const bodies = () => fetchMock.mock.calls.filter(([input]) => input === '/api/batch').map(([, init]) => JSON.parse(String(init!.body)));
    expect(bodies()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Leave them out' }));
    await waitFor(() => expect(bodies()).toEqual([{ kind: 'refId', ids: ['cust_1', 'legacy-1988-07-14'] }]));
  });
});
