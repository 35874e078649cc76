import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { fetchPasteBy, loadPaste } from '../../src/app/lookup/use-lookup-form.ts';
import { readerWaitBy } from '../../src/app/lookup/reader-wait.ts';
import { envelope, pageStatus, renderWithProviders, stubApi } from './render.tsx';

const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const xiuying = samples.find((r) => r.refId === 'cust_000482')!;
const kwame = samples.find((r) => !r.refId)!;
const apiPath = (kind: string, id: string) => `/api/candidates/${kind}/${encodeURIComponent(id)}`;
const found = (...records: Array<[string, CandidateRecord]>) =>
  Object.fromEntries(records.map(([kind, record]) => [apiPath(kind, (record as Record<string, string>)[kind]!), envelope(record)]));
/** The batch page is its own chunk, fetched when first opened: slower to appear on a busy machine. */
const LAZY_PAGE = { timeout: 10_000 };

const BOX_NAME = /^(refId|recordId) to look up$/;
// A textbox, or a combobox once recent lookups give it suggestions: found by its label.
const searchBox = () => screen.getByLabelText(BOX_NAME);
const findSearchBox = () => screen.findByLabelText(BOX_NAME);

/** The home page, its search box clicked and `text` pasted into it (the API stubbed first): the user, and the page's router. */
async function pasteOnHome(text: string) {
  const user = userEvent.setup();
  const rendered = renderWithProviders('/');
  await findSearchBox();
  await user.click(searchBox());
  await user.paste(text);
  return { user, ...rendered };
}

/** The home page, with `text` typed into its search box (the API stubbed first): the user, and the page's router. */
async function typeOnHome(text: string) {
  const user = userEvent.setup();
  const rendered = renderWithProviders('/');
  await findSearchBox();
  await user.type(searchBox(), text);
  return { user, ...rendered };
}

/**
 * Runs `steps` with the paste reader (paste.ts, fetched after the first paint) not here yet, as on a slow
 * link: `arrive` lets it come. The reader already fetched is put back after.
 */
async function withLateReader(steps: (arrive: () => Promise<void>) => Promise<void>) {
  const fetch = () => import('../../src/app/lookup/paste.ts');
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  fetchPasteBy(() => opened.then(fetch));
  // The reader has come once every paste that waited for it has been read (their readings follow its arrival).
  const arrive = async () => {
    open();
    await loadPaste();
  };
  try {
    await steps(arrive);
  } finally {
    open();
    fetchPasteBy(fetch);
    await loadPaste();
  }
}

/** The paste reader (it brings the personal-data rule) never coming, ended by `end` (late), or failing (offline). */
const readerMissing = {
  late: (end: Promise<void>) => {
    fetchPasteBy(() => new Promise<never>(() => {}));
    readerWaitBy(() => end);
  },
  failed: () => fetchPasteBy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))),
};
/** The paste reader never coming, and Enter's wait for it ended by the function returned. */
function readerLateUntilEnded(): () => void {
  let end = () => {};
  readerMissing.late(new Promise<void>((resolve) => (end = resolve)));
  return end;
}
/** The paste reader fetched as the app fetches it, and the wait for it its own again: the end of a test's `readerMissing`. */
const readerBack = async () => {
  readerWaitBy();
  fetchPasteBy(() => import('../../src/app/lookup/paste.ts'));
  await loadPaste();
};

/** The batch's answer of `rows`, as the server streams it (NDJSON). */
const batchAnswer = (rows: object[]) => () =>
  new Response(rows.map((row) => `${JSON.stringify(row)}\n`).join(''), { headers: { 'content-type': 'application/x-ndjson' } });

describe('the search box', { timeout: 20_000 }, () => {
  it('has focus when the home page opens', async () => {
    stubApi();
    renderWithProviders('/');
    await findSearchBox();
    await waitFor(() => expect(searchBox()).toHaveFocus());
  });

  it("Escape drops what was typed and shows the page's id and kind again; pressed again, it leaves the box for the page", async () => {
    const user = userEvent.setup();
    stubApi({ candidates: found(['recordId', kwame]) });
    renderWithProviders(`/candidates/recordId/${kwame.recordId}`);
    await screen.findByRole('heading', { level: 1 });
    await user.keyboard('/');
    await user.keyboard('jku');
    expect(screen.getByLabelText('refId to look up')).toHaveValue('jku');
    await user.keyboard('{Escape}');
    // Before: "refId | jku" stayed in the header over a candidate opened by recordId.
    const box = screen.getByLabelText('recordId to look up');
    expect(box).toHaveValue(kwame.recordId);
    expect(box).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('heading', { level: 1 })).toHaveFocus();
  });

  it('is focused by "/" from anywhere, but not while typing elsewhere; Ctrl+K and Cmd+K always', async () => {
    const user = userEvent.setup();
    stubApi({ candidates: found(['refId', xiuying]) });
    renderWithProviders('/candidates/refId/cust_000482');
    await screen.findByRole('heading', { level: 1, name: /王/ });
    expect(searchBox()).not.toHaveFocus();
    await user.keyboard('/');
    expect(searchBox()).toHaveFocus();
    // The slash was not typed into the box.
    expect(searchBox()).toHaveValue('cust_000482');

    await user.click(screen.getByRole('heading', { level: 1 }));
    await user.keyboard('{Control>}k{/Control}');
    expect(searchBox()).toHaveFocus();
    await user.click(screen.getByRole('heading', { level: 1 }));
    await user.keyboard('{Meta>}k{/Meta}');
    expect(searchBox()).toHaveFocus();
  });

  it('leaves "/" to another text field, but Ctrl+K still moves focus to the box', async () => {
    const user = userEvent.setup();
    stubApi();
    renderWithProviders('/batch');
    const list = await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE);
    await user.click(list);
    await user.keyboard('a/b');
    expect(list).toHaveValue('a/b');
    expect(list).toHaveFocus();
    await user.keyboard('{Control>}k{/Control}');
    expect(searchBox()).toHaveFocus();
  });

  it('selects its content when focused, so that a paste replaces the previous id', async () => {
    const user = userEvent.setup();
    stubApi({ candidates: found(['refId', xiuying]) });
    const { router } = renderWithProviders('/candidates/refId/cust_000482');
    await screen.findByRole('heading', { level: 1, name: /王/ });
    await user.click(searchBox());
    const box = searchBox() as HTMLInputElement;
    expect([box.selectionStart, box.selectionEnd]).toEqual([0, 'cust_000482'.length]);
    await user.paste('user-7781');
    expect(box).toHaveValue('user-7781');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/user-7781'));
  });

  it('follows the page shown: after "Try as recordId", and after Back', async () => {
    const user = userEvent.setup();
    stubApi({ candidates: found(['recordId', kwame]) });
    const { router } = renderWithProviders('/');
    await findSearchBox();
    await user.type(searchBox(), `${kwame.recordId}{Enter}`);
    // A 24-hex id is read as a recordId by its form; the switch follows the page shown.
    await screen.findByRole('heading', { level: 1, name: 'Kwame Mensah' });
    expect(router.state.location.pathname).toBe(`/candidates/recordId/${kwame.recordId}`);
    expect(screen.getByRole('radio', { name: 'recordId' })).toBeChecked();
    expect(searchBox()).toHaveValue(kwame.recordId);

    await user.clear(searchBox());
    await user.type(searchBox(), 'nobody');
    // Read as a refId by its form; the switch says recordId instead.
    await user.click(screen.getByRole('radio', { name: 'recordId' }));
    await user.click(searchBox());
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { name: /No candidate with recordId "nobody"/ });
    await user.click(screen.getByRole('link', { name: 'Try as refId' }));
    await screen.findByRole('heading', { name: 'No candidate with refId or recordId "nobody"' });
    expect(screen.getByRole('radio', { name: 'refId' })).toBeChecked();
    expect(searchBox()).toHaveValue('nobody');

    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/recordId/nobody'));
    await screen.findByRole('heading', { name: /No candidate with recordId "nobody"/ });
    expect(screen.getByRole('radio', { name: 'recordId' })).toBeChecked();
    expect(searchBox()).toHaveValue('nobody');
  });

  it('follows "Try as refId": the toggle turns to refId, the box keeps the id, and the next id typed is read by its form', async () => {
    const user = userEvent.setup();
    // A recordId the switch chose (not guessed), so nothing retries by itself: only the button does. (A refId
    // without a recordId's form is offered no "Try as recordId": it can be none.)
    stubApi({ candidates: { [apiPath('refId', 'rec-42')]: envelope({ ...kwame, refId: 'rec-42' }) } });
    const { router } = renderWithProviders('/');
    await findSearchBox();
    await user.type(searchBox(), 'rec-42');
    await user.click(screen.getByRole('radio', { name: 'recordId' }));
    await user.click(searchBox());
    await user.keyboard('{End}{Enter}');
    await screen.findByRole('heading', { name: 'No candidate with recordId "rec-42"' });
    expect(screen.getByRole('radio', { name: 'recordId' })).toBeChecked();

    await user.click(screen.getByRole('link', { name: 'Try as refId' }));
    await screen.findByRole('heading', { level: 1, name: 'Kwame Mensah' });
    expect(router.state.location.pathname).toBe('/candidates/refId/rec-42');
    expect(screen.getByRole('radio', { name: 'refId' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'recordId' })).not.toBeChecked();
    expect(searchBox()).toHaveValue('rec-42');
    expect(searchBox()).toHaveAccessibleName('refId to look up');

    // Not 24 hex characters: a refId, whatever kind the page was looked up by; the switch says so as it is typed.
    await user.clear(searchBox());
    await user.type(searchBox(), 'rec-43');
    expect(screen.getByRole('radio', { name: 'refId' })).toBeChecked();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/rec-43'));
    // The switch overrides the guess.
    await user.clear(searchBox());
    await user.type(searchBox(), 'rec-44');
    await user.click(screen.getByRole('radio', { name: 'recordId' }));
    await user.click(searchBox());
    await user.keyboard('{End}{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/recordId/rec-44'));
  });

  it('has a clear button that empties the box and gives it focus', async () => {
    const user = userEvent.setup();
    stubApi();
    renderWithProviders('/');
    await findSearchBox();
    expect(screen.queryByRole('button', { name: 'Clear the id' })).not.toBeInTheDocument();
    await user.type(searchBox(), 'crm-55102');
    await user.click(screen.getByRole('button', { name: 'Clear the id' }));
    expect(searchBox()).toHaveValue('');
    expect(searchBox()).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Clear the id' })).not.toBeInTheDocument();
  });

  it('puts the kind toggle above a full-width field on phones', async () => {
    stubApi();
    renderWithProviders('/');
    await findSearchBox();
    const form = within(document.querySelector('search') as HTMLElement);
    const toggle = form.getByRole('group', { name: 'Look up by' });
    const fieldRow = form.getByTestId('search-field-row');
    // A column below the `sm` breakpoint, a row from it on; the toggle first, the field row taking the full width.
    const layout = toggle.parentElement!;
    expect(layout).toBe(fieldRow.parentElement);
    expect(layout.className).toMatch(/(^| )flex-col( |$)/);
    expect(layout.className).toMatch(/(^| )sm:flex-row( |$)/);
    expect(toggle.compareDocumentPosition(fieldRow) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(fieldRow.className).toMatch(/(^| )flex-1( |$)/);
    expect(searchBox().className).toMatch(/(^| )w-full( |$)/);
  });

  it("on a phone, the header's Search button opens the folded form with focus in its box, ready to type; pressed again it folds it", async () => {
    const user = userEvent.setup();
    stubApi({ candidates: found(['refId', xiuying]) });
    renderWithProviders('/candidates/refId/cust_000482');
    await screen.findByRole('heading', { level: 1, name: /王/ });
    const button = screen.getByRole('button', { name: 'Search' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(searchBox()).toHaveFocus();
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('cleans a pasted id of invisible characters and says what was removed, on the form and on the candidate page', async () => {
    stubApi({ candidates: found(['refId', xiuying]) });
    const { user, router } = await pasteOnHome('\u00a0cust_\u200b000482\u200e ');
    expect(searchBox()).toHaveValue('cust_000482');
    expect(pageStatus()).toHaveTextContent(
      'Removed from the pasted id: 1 zero-width space, 1 no-break space, 1 bidirectional mark and 1 space at the start or end.',
    );
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/cust_000482'));
    await screen.findByRole('heading', { level: 1, name: /王/ });
    expect(screen.getByText(/Removed from the id: 1 zero-width space/)).toBeInTheDocument();
  });

  it("reads one id as a batch reads its line: a sentence's full stop after it goes, typed or pasted, and the cleaned id is shown", async () => {
    // Before: `cust_000482.` stayed in the box and was looked up with its dot (a miss), where a batch's line dropped it.
    const { requests } = stubApi({ candidates: found(['refId', xiuying], ['recordId', kwame]) });
    const { user, router } = await pasteOnHome('cust_000482.');
    expect(searchBox()).toHaveValue('cust_000482');
    expect(pageStatus()).toHaveTextContent('Removed from the pasted id: the full stop after it.');
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { level: 1, name: /王/ });
    expect(screen.getByText('Removed from the id: the full stop after it.')).toBeInTheDocument();

    // Typed, with the kind read from the id as the lookup reads it: a recordId.
    await user.clear(searchBox());
    await user.type(searchBox(), `(${kwame.recordId}).`);
    expect(screen.getByRole('radio', { name: 'recordId' })).toBeChecked();
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { level: 1, name: 'Kwame Mensah' });
    expect(router.state.location.pathname).toBe(`/candidates/recordId/${kwame.recordId}`);
    expect(screen.getByText(`Dropped the brackets around it and the full stop after it before looking the id up.`)).toBeInTheDocument();
    expect(searchBox()).toHaveValue(kwame.recordId);
    expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([
      apiPath('refId', 'cust_000482'),
      apiPath('recordId', kwame.recordId!),
    ]);
  });

  it("a list pasted over the page's id empties the box: Enter no longer looks that candidate up again as if it were the list's (UX review, 29 November)", async () => {
    const user = userEvent.setup();
    stubApi({ candidates: found(['refId', xiuying]) });
    const { router } = renderWithProviders('/candidates/refId/cust_000482');
    await screen.findByRole('heading', { level: 1, name: /王/ });
    await user.click(searchBox());
    await user.paste('support-ticket-4410 crm-55102');
    await waitFor(() => expect(pageStatus()).toHaveTextContent(/^You pasted a list of 2 ids/));
    expect(searchBox()).toHaveValue('');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Enter a refId to look up.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/candidates/refId/cust_000482');
  });

  it('a paste before the paste reader is here shows at once, and what is typed after it is kept when the reader comes (UX review: the late reading overwrote it)', async () => {
    stubApi();
    await withLateReader(async (arrive) => {
      const { user } = await pasteOnHome('maria@example.com');
      // Before, the box showed nothing of the paste while the reader was on its way.
      expect(searchBox()).toHaveValue('maria@example.com');
      // Typed over (select all, then type: a triple click's selection raced the paste's render on a loaded machine).
      await user.clear(searchBox());
      await user.type(searchBox(), 'user-7781');
      await arrive();
      await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(searchBox()).toHaveValue('user-7781');
    });
  });

  it('attack: an e-mail address looked up before the rule is here (it comes with the paste reader, after the first paint) is still asked about, never sent', async () => {
    const { requests } = stubApi();
    await withLateReader(async (arrive) => {
      const { user } = await typeOnHome('maria@example.com{Enter}');
      await arrive();
      expect(await screen.findByTestId('personal-data-question')).toHaveTextContent(/This reads like an e-mail address/);
      expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([]);
      // An id is looked up as soon as the rule is here, with no question.
      await user.clear(searchBox());
      await user.type(searchBox(), 'cust_000482{Enter}');
      await waitFor(() => expect(requests).toContain(apiPath('refId', 'cust_000482')));
    });
  });

  it('a paste before the paste reader is here, not typed over, is read again when it comes: a list is offered for a batch', async () => {
    stubApi();
    await withLateReader(async (arrive) => {
      await pasteOnHome('support-ticket-4410\ncrm-55102');
      expect(searchBox()).toHaveValue('support-ticket-4410crm-55102');
      expect(screen.queryByText(/^You pasted a list/)).not.toBeInTheDocument();
      await arrive();
      await waitFor(() => expect(pageStatus()).toHaveTextContent(/^You pasted a list of 2 ids/));
      expect(searchBox()).toHaveValue('');
    });
  });

  it.each([
    ['never answers', () => new Promise<never>(() => {})],
    ['fails (offline)', () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))],
  ])('a paste whose reader %s is cleaned all the same: outer whitespace and a label go, and the box says so', async (how, reader) => {
    const { requests } = stubApi({ candidates: found(['refId', xiuying]) });
    fetchPasteBy(reader as () => Promise<typeof import('../../src/app/lookup/paste.ts')>);
    try {
      const { user, router } = await pasteOnHome('  refId: cust_000482.\n');
      // Before: "  refId: cust_000482." stayed in the box as it came (its line break dropped by the box).
      expect(searchBox()).toHaveValue('cust_000482');
      expect(pageStatus()).toHaveTextContent(
        'Removed from the pasted id: 1 line break and 2 spaces at the start or end and the label "refId:".',
      );
      // A lookup waits for the personal-data rule, which comes with the reader: one that failed lets it go ahead.
      if (how === 'never answers') return;
      await user.keyboard('{Enter}');
      await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/cust_000482'));
      expect(requests).toContain(apiPath('refId', 'cust_000482'));
    } finally {
      await readerBack();
    }
  });

  it('attack: a paste reader that never settles holds Enter only for a short wait, then the box is looked up as it shows, and the page says it was not read in full', async () => {
    // Before: the lookup waited for the reader (it brings the personal-data rule) for ever; Enter did nothing.
    const { requests } = stubApi({ candidates: found(['refId', xiuying]) });
    const end = readerLateUntilEnded();
    try {
      const { user, router } = await pasteOnHome('  refId: cust_000482.\n');
      expect(searchBox()).toHaveValue('cust_000482');
      await user.keyboard('{Enter}');
      // Waiting: nothing sent yet, the text as it was.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(router.state.location.pathname).toBe('/');
      expect(searchBox()).toHaveValue('cust_000482');
      end();
      await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/cust_000482'));
      expect(requests).toContain(apiPath('refId', 'cust_000482'));
      await screen.findByRole('heading', { level: 1, name: /王/ });
      // The box's quick rule had read it already: nothing to say of a reading not loaded.
      expect(screen.queryByText(/full reading/)).toBeNull();
    } finally {
      await readerBack();
    }
  });

  it('attack: what is typed while Enter waits for a paste reader that never settles is never lost: that lookup is dropped, the next Enter looks up the text', async () => {
    const { requests } = stubApi({ candidates: found(['refId', xiuying]) });
    const end = readerLateUntilEnded();
    try {
      const { user, router } = await typeOnHome('cust_00048{Enter}');
      await user.type(searchBox(), '2');
      end();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(router.state.location.pathname).toBe('/');
      expect(searchBox()).toHaveValue('cust_000482');
      expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([]);
      // The wait is over (its promise settled): the next Enter goes ahead, with what was typed, and says it went without the reader.
      await user.keyboard('{Enter}');
      await screen.findByRole('heading', { level: 1, name: /王/ });
      expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([apiPath('refId', 'cust_000482')]);
      // An id of letters and digits reads the same with the box's full reading: nothing to say (it said "Dropped…").
      expect(screen.queryByText(/full reading/)).toBeNull();
    } finally {
      await readerBack();
    }
  });

  it('says an id its full reading could change was looked up as typed, when that reading did not load', async () => {
    // A service whose refIds end in a full stop answers it: the page is the candidate's, with the note.
    const dotted = { ...xiuying, refId: 'cust_000482.' };
    const { requests } = stubApi({ candidates: found(['refId', dotted]) });
    readerMissing.failed();
    try {
      // A full stop after the id: the batch's reading (readOneId) drops it; without that reading it is sent.
      await typeOnHome('cust_000482.{Enter}');
      await screen.findByText("Looked up as typed: the box's full reading of ids could not be loaded.");
      expect(requests).toContain(apiPath('refId', 'cust_000482.'));
    } finally {
      await readerBack();
    }
  });

  it.each(['late', 'failed'] as const)(
    'attack: a name typed while the personal-data rule has not loaded is asked about, not looked up (reader %s)',
    async (how) => {
      // Before: after the wait (or at once, offline) "John Smith" went into the address, the history and the audit file unasked.
      const { requests } = stubApi();
      readerMissing[how](Promise.resolve());
      try {
        const { user, router } = await typeOnHome('John Smith{Enter}');
        expect(await screen.findByTestId('personal-data-question')).toHaveTextContent(
          'The check for personal data did not load, and this is not plainly an id: it may be a name, an e-mail address, a phone number or a date.',
        );
        expect(router.state.location.pathname).toBe('/');
        expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([]);
        // "Don't look it up" keeps the text and sends nothing; asked again at the next Enter.
        await user.click(screen.getByRole('button', { name: "Don't look it up" }));
        expect(screen.queryByTestId('personal-data-question')).not.toBeInTheDocument();
        expect(searchBox()).toHaveValue('John Smith');
        await user.keyboard('{Enter}');
        await screen.findByTestId('personal-data-question');
        expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([]);
        await user.click(screen.getByRole('button', { name: 'Look it up anyway' }));
        await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/John%20Smith'));
        expect(requests).toContain(apiPath('refId', 'John Smith'));
      } finally {
        await readerBack();
      }
    },
  );

  it.each([
    ['late', 'cust_000482', 'refId'],
    ['failed', '000482', 'refId'],
    ['failed', '65f1c2a9e4b0d3a1f0c9b801', 'recordId'],
  ] as const)('a plain id goes ahead unasked while the personal-data rule has not loaded (reader %s): %s', async (how, id, kind) => {
    const { requests } = stubApi();
    readerMissing[how](Promise.resolve());
    try {
      const { router } = await typeOnHome(`${id}{Enter}`);
      await waitFor(() => expect(router.state.location.pathname).toBe(`/candidates/${kind}/${id}`));
      expect(requests).toContain(apiPath(kind, id));
      expect(screen.queryByTestId('personal-data-question')).not.toBeInTheDocument();
    } finally {
      await readerBack();
    }
  });

  it('a date of digits and dashes is no plain id: asked about while the personal-data rule has not loaded', async () => {
    const { requests } = stubApi();
    readerMissing.failed();
    try {
      const { router } = await typeOnHome('1988-07-14{Enter}');
      await screen.findByTestId('personal-data-question');
      expect(router.state.location.pathname).toBe('/');
      expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([]);
    } finally {
      await readerBack();
    }
  });

  it('a link pasted, then an id pasted over it: the id is looked up by its own kind, here (code review, 29 November)', async () => {
    stubApi();
    const { user, router } = await pasteOnHome('https://lookup.example.com/e/staging/candidates/recordId/65f1c2a9e4b0d3a1f0c9b810');
    await user.tripleClick(searchBox());
    await user.paste('cust_000482');
    expect(screen.queryByText(/Taken from a link to the staging environment/)).not.toBeInTheDocument();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/cust_000482'));
  });

  it('slashes alone are not looked up', async () => {
    const user = userEvent.setup();
    stubApi();
    const { router } = renderWithProviders('/');
    await findSearchBox();
    await user.type(searchBox(), '//{Enter}');
    expect(await screen.findByText('Enter a refId to look up.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('takes the kind, id and environment from a pasted link of this app', async () => {
    stubApi();
    const { user, router } = await pasteOnHome('https://lookup.example.com/e/staging/candidates/recordId/65f1c2a9e4b0d3a1f0c9b810');
    expect(searchBox()).toHaveValue('65f1c2a9e4b0d3a1f0c9b810');
    expect(screen.getByRole('radio', { name: 'recordId' })).toBeChecked();
    expect(pageStatus()).toHaveTextContent('Taken from a link to the staging environment.');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/e/staging/candidates/recordId/65f1c2a9e4b0d3a1f0c9b810'));
  });

  it('reads a typed link of this app as its kind and id, not as an id with its leading "/" dropped', async () => {
    const user = userEvent.setup();
    stubApi({ candidates: found(['refId', xiuying]) });
    const { router } = renderWithProviders('/');
    await findSearchBox();
    await user.type(searchBox(), '/candidates/refId/cust_000482{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/cust_000482'));
    await screen.findByRole('heading', { level: 1, name: /王/ });
    expect(screen.queryByText(/Dropped/)).not.toBeInTheDocument();
  });

  it('tries a 24-hex refId that is not found as a recordId, once, and says so', async () => {
    const user = userEvent.setup();
    const { requests } = stubApi({ candidates: found(['recordId', kwame]) });
    const { router } = renderWithProviders('/');
    await findSearchBox();
    await user.type(searchBox(), kwame.recordId!);
    // The switch says refId over the form's guess.
    await user.click(screen.getByRole('radio', { name: 'refId' }));
    await user.click(searchBox());
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Kwame Mensah' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/candidates/recordId/${kwame.recordId}`);
    expect(screen.getByText(/No candidate has the refId/)).toHaveTextContent(
      `No candidate has the refId ${kwame.recordId}; it looks like a recordId, so it was looked up as one.`,
    );
    // Both lookups went to the server (and so were both audited there).
    expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([
      apiPath('refId', kwame.recordId!),
      apiPath('recordId', kwame.recordId!),
    ]);
  });

  it('does not retry an id that does not look like a recordId, and tries a 24-hex id it read as a recordId once as a refId, no further', async () => {
    const user = userEvent.setup();
    const { requests } = stubApi();
    renderWithProviders('/');
    await findSearchBox();
    await user.type(searchBox(), 'nobody{Enter}');
    await screen.findByRole('heading', { name: /No candidate with refId "nobody"/ });
    const hex = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    await user.clear(searchBox());
    await user.type(searchBox(), `${hex}{Enter}`);
    // Looked up both ways: said as one answer, with nothing more to try.
    await screen.findByRole('heading', { name: `No candidate with refId or recordId "${hex}"` });
    expect(screen.queryByRole('link', { name: /Try as/ })).not.toBeInTheDocument();
    expect(screen.getByText(/No candidate has the recordId/)).toHaveTextContent(
      `No candidate has the recordId ${hex}; a refId can have that form too, so it was looked up as a refId.`,
    );
    expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([
      apiPath('refId', 'nobody'),
      apiPath('recordId', hex),
      apiPath('refId', hex),
    ]);
  });

  it('never goes round in a circle: a 24-hex refId tried as a recordId, or an id tried both ways by the button, ends with nothing more to try', async () => {
    const user = userEvent.setup();
    const { requests } = stubApi();
    const hex = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    const { router } = renderWithProviders(`/candidates/refId/${hex}`);
    // Tried as a recordId by itself: not found either way, and no "Try as refId" that would start it again.
    await screen.findByRole('heading', { name: `No candidate with refId or recordId "${hex}"` });
    expect(router.state.location.pathname).toBe(`/candidates/recordId/${hex}`);
    expect(screen.queryByRole('link', { name: /Try as/ })).not.toBeInTheDocument();
    expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([apiPath('refId', hex), apiPath('recordId', hex)]);

    // A recordId asked for as such (without a recordId's form: one with it is offered no "Try as refId"), then
    // the button: the refId is looked up once, not tried as a recordId again.
    requests.length = 0;
    const other = 'rec-bbbb';
    await router.navigate(`/candidates/recordId/${other}`);
    await screen.findByRole('heading', { name: `No candidate with recordId "${other}"` });
    await user.click(screen.getByRole('link', { name: 'Try as refId' }));
    await screen.findByRole('heading', { name: `No candidate with refId or recordId "${other}"` });
    expect(router.state.location.pathname).toBe(`/candidates/refId/${other}`);
    expect(screen.queryByRole('link', { name: /Try as/ })).not.toBeInTheDocument();
    expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([apiPath('recordId', other), apiPath('refId', other)]);
  });

  it("says what a link's id holds that cannot be seen when it is not found, and offers the id without it", async () => {
    const user = userEvent.setup();
    stubApi({ candidates: found(['refId', xiuying]) });
    const { router } = renderWithProviders('/candidates/refId/%E2%80%8Bcust_000482');
    await screen.findByRole('heading', { name: 'No candidate with refId "\u200bcust_000482"' });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The refId holds 1 zero-width space, which cannot be seen: the id without it is likely the one meant.',
    );
    await user.click(screen.getByRole('link', { name: 'Look up refId cust_000482' }));
    await screen.findByRole('heading', { level: 1, name: /王/ });
    expect(router.state.location.pathname).toBe('/candidates/refId/cust_000482');
    expect(screen.getByText('Removed from the id: 1 zero-width space.')).toBeInTheDocument();
  });

  it('says at once when a pasted list holds more than a batch takes, rather than offering to look them all up', async () => {
    stubApi();
    await pasteOnHome(Array.from({ length: 600 }, (_, i) => `id-${i}`).join('\n'));
    // The offer loads with the paste that needs it (off the first load).
    await waitFor(() => expect(pageStatus()).toHaveTextContent(/^You pasted a list/));
    const offer = pageStatus();
    expect(offer).toHaveTextContent('You pasted a list of 600 ids. A batch takes 500 at most: 100 must be left for another.');
    expect(within(offer).queryByRole('button', { name: /Look up all/ })).not.toBeInTheDocument();
    expect(within(offer).getByRole('button', { name: 'Open the list in a batch' })).toBeInTheDocument();
  });

  it('offers a batch lookup for a pasted list instead of pasting it as one id, and "Look up all" looks them up', async () => {
    const rows = [
      { type: 'row', index: 0, ok: true, status: 'approved', refId: 'crm-55102', recordId: null },
      { type: 'row', index: 1, ok: true, status: 'waiting', refId: 'user-7781', recordId: null },
      { type: 'row', index: 2, ok: false, code: 'not_found', message: 'No candidate with refId "cust_000482".' },
      { type: 'done', found: 2, failed: 1 },
    ];
    const { fetchMock } = stubApi({ candidates: { '/api/batch': batchAnswer(rows) } });
    const { user, router } = await pasteOnHome('refId\ncrm-55102\nuser-7781\n cust_000482\ncrm-55102');
    expect(searchBox()).toHaveValue('');
    await waitFor(() => expect(pageStatus()).toHaveTextContent(/^You pasted a list/));
    const offer = pageStatus();
    expect(offer).toHaveTextContent('You pasted a list of 3 ids (4 given); its heading line, "refId", is left out.');
    await user.click(within(offer).getByRole('button', { name: 'Look up all 3 in a batch' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/batch'));
    // Each id on the line it was pasted on, the repeat and the heading too: the batch numbers its rows as the pasted lines, and says what it left out.
    expect(await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE)).toHaveValue(
      'refId\ncrm-55102\nuser-7781\ncust_000482\ncrm-55102',
    );
    expect(screen.getByTestId('batch-heading')).toHaveTextContent('Skipped the heading "refId" (line 1): it is not looked up.');
    // Looked up as the offer said, once.
    expect(await screen.findByText(/^Done:/)).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([input]) => input === '/api/batch')).toHaveLength(1);
    // Back from a row's candidate: the rows found, not the list handed over again without them.
    await user.click(within(screen.getByRole('table')).getByRole('link', { name: 'user-7781' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/user-7781'));
    await router.navigate(-1);
    await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE);
    expect(await screen.findByText(/^Done:/)).toBeInTheDocument();
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.dataset.rowState),
    ).toEqual(['found', 'found', 'failed', expect.any(String)]);
    expect(fetchMock.mock.calls.filter(([input]) => input === '/api/batch')).toHaveLength(1);
  });

  it('"Look up all" from the header\'s box while the batch page is shown looks the new list up there, not on a reload later', async () => {
    const user = userEvent.setup();
    const rows = [
      { type: 'row', index: 0, ok: true, status: 'approved', refId: 'user-7781', recordId: null },
      { type: 'row', index: 1, ok: true, status: 'waiting', refId: 'acct-30291', recordId: null },
      { type: 'done', found: 2, failed: 0 },
    ];
    const { fetchMock } = stubApi({ candidates: { '/api/batch': batchAnswer(rows) } });
    const { router } = renderWithProviders('/batch');
    expect(await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE)).toHaveValue('');
    await user.click(searchBox());
    await user.paste('user-7781\nacct-30291');
    await waitFor(() => expect(pageStatus()).toHaveTextContent(/^You pasted a list/));
    await user.click(within(pageStatus()).getByRole('button', { name: 'Look up all 2 in a batch' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'refIds to look up' })).toHaveValue('user-7781\nacct-30291'));
    expect(await screen.findByText(/^Done:/)).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([input]) => input === '/api/batch')).toHaveLength(1);
    // Taken: nothing of it is left in the history entry for a reload to start again.
    expect(router.state.location.pathname).toBe('/batch');
    expect(window.history.state).toBeNull();
  });

  it('suggests recent lookups of the same kind', async () => {
    const user = userEvent.setup();
    stubApi({ candidates: found(['refId', xiuying]) });
    renderWithProviders('/');
    await findSearchBox();
    await user.type(searchBox(), 'cust_000482{Enter}');
    await screen.findByRole('heading', { level: 1, name: /王/ });
    // The status as every page says it (statusInfo), once the suggestions' chunk has loaded.
    const options = () => [...(document.getElementById(searchBox().getAttribute('list')!)?.querySelectorAll('option') ?? [])];
    await waitFor(() => expect(options().map((o) => [o.value, o.label])).toEqual([['cust_000482', 'In review · default']]));
    fireEvent.click(screen.getByRole('radio', { name: 'recordId' }));
    expect(searchBox()).not.toHaveAttribute('list');
  });

  it('keeps one recent lookup when /api/meta answers after the record (code review, 29 November: it was kept twice, under "" and its name)', async () => {
    const { fetchMock } = stubApi({ candidates: found(['refId', xiuying]) });
    const answer = fetchMock.getMockImplementation()!;
    let releaseMeta!: () => void;
    const metaHeld = new Promise<void>((resolve) => {
      releaseMeta = resolve;
    });
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === '/api/meta') await metaHeld;
      return answer(input, init);
    });
    renderWithProviders('/candidates/refId/cust_000482');
    await screen.findByRole('heading', { level: 1, name: /王/ });
    releaseMeta();
    // The header names the environment once /api/meta has answered: the page has rendered with it.
    await screen.findByTestId('environment-badge');
    const kept = () => JSON.parse(sessionStorage.getItem('candidate-lookup:recent') ?? '[]') as Array<{ id: string; environment: string }>;
    await waitFor(() => expect(kept().map((entry) => [entry.id, entry.environment])).toEqual([['cust_000482', 'default']]));
  });
});
