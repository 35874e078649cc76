import type { ApiErrorCode } from '../../src/kyc/contract/api.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BatchEvent } from '../../src/kyc/contract/batch.ts';
import { formatDateTime } from '../../src/kyc/view/time.ts';
import { csvOf, downloadCsv } from './batch-fixture.ts';
import { inTimeZone } from './in-time-zone.ts';
import { apiError, json, renderWithProviders, stubApi } from './render.tsx';

/** The batch page is its own chunk, fetched when first opened: slower to appear on a busy machine. */
const LAZY_PAGE = { timeout: 10_000 };

afterEach(() => {
  vi.restoreAllMocks();
});

/** A streamed NDJSON answer whose lines the test releases one by one. */
function controllableBatch() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const encoder = new TextEncoder();
  return {
    response: () => new Response(stream, { headers: { 'content-type': 'application/x-ndjson' } }),
    send: (...events: BatchEvent[]) => controller.enqueue(encoder.encode(events.map((e) => `${JSON.stringify(e)}\n`).join(''))),
    end: () => controller.close(),
  };
}

const found = (index: number, refId: string, status = 'approved'): Extract<BatchEvent, { ok: true }> => ({
  type: 'row',
  index,
  ok: true,
  status,
  statusDate: '2026-11-20T10:00:00.000Z',
  submitCount: 1,
  refId,
  recordId: `65f1c2a9e4b0d3a1f0c9b80${index}`,
});

async function startBatch(text: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE));
  await user.paste(text);
  await user.click(screen.getByRole('button', { name: 'Look up all' }));
  return user;
}

// Whole-page tests with streamed answers: slower than 5 s when the machine is busy.
describe('batch page', { timeout: 20_000 }, () => {
  it('shows rows in input order as they arrive, with progress, then the totals', async () => {
    const batch = controllableBatch();
    const { fetchMock } = stubApi({ candidates: { '/api/batch': batch.response } });
    renderWithProviders('/batch');
    await startBatch('alpha\nbeta\ngamma\n');
    const [, init] = fetchMock.mock.calls.find(([input]) => input === '/api/batch')!;
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({ kind: 'refId', ids: ['alpha', 'beta', 'gamma'] });

    const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows().map((r) => r.dataset.rowState)).toEqual(['pending', 'pending', 'pending']);
    batch.send({ ...found(2, 'gamma'), isArchived: true });
    await waitFor(() => expect(screen.getByTestId('batch-progress')).toHaveTextContent('1 of 3'));
    expect(rows().map((r) => r.dataset.rowState)).toEqual(['pending', 'pending', 'found']);
    // Archived: its identity data is gone, beside its status.
    expect(rows()[2]).toHaveTextContent(/gamma.*Approved\s*Archived/);
    batch.send(
      { type: 'row', index: 0, ok: false, code: 'not_found', message: 'No candidate with refId "alpha".' },
      found(1, 'beta', 'waiting'),
    );
    batch.send({ type: 'done', found: 2, failed: 1 });
    batch.end();
    expect(await screen.findByText('Done: 2 found, 1 not found, 0 failed.')).toBeInTheDocument();
    expect(rows().map((r) => r.dataset.rowState)).toEqual(['failed', 'found', 'found']);
    expect(rows()[0]).toHaveTextContent('Not found: No candidate with refId "alpha".');
    expect(rows()[1]).not.toHaveTextContent('Archived');
  });

  it('says a row not found that reads like a person’s name is one, where it said only "No candidate with refId" (the UX review)', async () => {
    const batch = controllableBatch();
    stubApi({ candidates: { '/api/batch': batch.response } });
    renderWithProviders('/batch');
    const user = await startBatch('cust_1\nMaria de Souza\ncust_2\n');
    // Asked first (personal-data.test.tsx), then looked up as pasted.
    await user.click(await screen.findByRole('button', { name: 'Look up all anyway' }));
    const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
    await waitFor(() => expect(rows()).toHaveLength(3));
    batch.send(
      { type: 'row', index: 0, ok: false, code: 'not_found', message: 'No candidate with refId "cust_1".' },
      { type: 'row', index: 1, ok: false, code: 'not_found', message: 'No candidate with refId "Maria de Souza".' },
      found(2, 'cust_2'),
    );
    batch.send({ type: 'done', found: 1, failed: 2 });
    batch.end();
    await screen.findByText(/^Done:/);
    expect(within(rows()[1]!).getByTestId('reads-like-a-name')).toHaveTextContent(
      "It reads like a person's name: the KYC service finds candidates by refId or recordId only.",
    );
    expect(within(rows()[0]!).queryByTestId('reads-like-a-name')).not.toBeInTheDocument();
  });

  it('keeps the keyboard on Look up all while the batch runs, and starts nothing more when it is pressed again', async () => {
    const batch = controllableBatch();
    const { fetchMock } = stubApi({ candidates: { '/api/batch': batch.response } });
    renderWithProviders('/batch');
    const user = await startBatch('a\nb');
    const button = screen.getByRole('button', { name: 'Look up all' });
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{Enter}');
    // The form submitted otherwise (Enter in one of its fields, as a browser does): nothing more is started either.
    fireEvent.submit(button.closest('form')!);
    expect(fetchMock.mock.calls.filter(([input]) => input === '/api/batch')).toHaveLength(1);
    batch.send(found(0, 'a'), found(1, 'b'), { type: 'done', found: 2, failed: 0 });
    batch.end();
    expect(await screen.findByText('Done: 2 found, 0 not found, 0 failed.')).toBeInTheDocument();
  });

  it('cancels: the request is aborted and the rest is marked as not looked up', async () => {
    const batch = controllableBatch();
    const { fetchMock } = stubApi({ candidates: { '/api/batch': batch.response } });
    renderWithProviders('/batch');
    const user = await startBatch('a\nb\nc');
    batch.send(found(0, 'a'));
    await waitFor(() => expect(screen.getByTestId('batch-progress')).toHaveTextContent('1 of 3'));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    const signal = (fetchMock.mock.calls.find(([input]) => input === '/api/batch')![1] as RequestInit).signal!;
    expect(signal.aborted).toBe(true);
    expect(screen.getByText('Cancelled after 1 of 3: the rest were not looked up.')).toBeInTheDocument();
    expect(screen.getAllByText('Not looked up')).toHaveLength(2);
  });

  it('Cancel pressed puts the focus on "Go on with the 2 left", not on the page: Cancel itself goes (the UI review)', async () => {
    const batch = controllableBatch();
    stubApi({ candidates: { '/api/batch': batch.response } });
    renderWithProviders('/batch');
    const user = await startBatch('a\nb\nc');
    batch.send(found(0, 'a'));
    await waitFor(() => expect(screen.getByTestId('batch-progress')).toHaveTextContent('1 of 3'));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Go on with the 2 left' })).toHaveFocus());
  });

  it('a batch that ends with the focus on Cancel and nothing left puts it on the sentence of what it came to', async () => {
    const batch = controllableBatch();
    stubApi({ candidates: { '/api/batch': batch.response } });
    renderWithProviders('/batch');
    await startBatch('a\nb');
    screen.getByRole('button', { name: 'Cancel' }).focus();
    batch.send(found(0, 'a'), found(1, 'b'), { type: 'done', found: 2, failed: 0 });
    batch.end();
    const outcome = await screen.findByText('Done: 2 found, 0 not found, 0 failed.');
    await waitFor(() => expect(outcome).toHaveFocus());
  });

  it('a batch that ends while the keyboard is elsewhere leaves the focus where it is', async () => {
    const batch = controllableBatch();
    stubApi({ candidates: { '/api/batch': batch.response } });
    renderWithProviders('/batch');
    await startBatch('a\nb');
    const box = screen.getByRole('textbox', { name: 'refIds to look up' });
    box.focus();
    batch.send(found(0, 'a'), found(1, 'b'), { type: 'done', found: 2, failed: 0 });
    batch.end();
    await screen.findByText('Done: 2 found, 0 not found, 0 failed.');
    expect(box).toHaveFocus();
  });

  it('"Go on with the 2 left" pressed from the keyboard puts the focus on Cancel for the run, and back on what the run came to after (late review: it fell to the page twice)', async () => {
    const first = controllableBatch();
    const second = controllableBatch();
    const answers = [first, second];
    stubApi({ candidates: { '/api/batch': () => answers.shift()!.response() } });
    renderWithProviders('/batch');
    const user = await startBatch('a\nb\nc');
    first.send(found(0, 'a'));
    await waitFor(() => expect(screen.getByTestId('batch-progress')).toHaveTextContent('1 of 3'));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    const goOn = screen.getByRole('button', { name: 'Go on with the 2 left' });
    await waitFor(() => expect(goOn).toHaveFocus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus());
    second.send(found(0, 'b'), found(1, 'c'), { type: 'done', found: 2, failed: 0 });
    second.end();
    const outcome = await screen.findByText('Done: 3 found, 0 not found, 0 failed.');
    await waitFor(() => expect(outcome).toHaveFocus());
  });

  it('goes on with the ids left after a Cancel: only those are asked for', async () => {
    const first = controllableBatch();
    const second = controllableBatch();
    const answers = [first, second];
    const { fetchMock } = stubApi({ candidates: { '/api/batch': () => answers.shift()!.response() } });
    renderWithProviders('/batch');
    const user = await startBatch('a\nb\nc');
    first.send(found(0, 'a'));
    await waitFor(() => expect(screen.getByTestId('batch-progress')).toHaveTextContent('1 of 3'));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Go on with the 2 left' }));
    const bodies = fetchMock.mock.calls.filter(([input]) => input === '/api/batch').map(([, init]) => JSON.parse(String(init!.body)));
    expect(bodies[1]).toEqual({ kind: 'refId', ids: ['b', 'c'] });
    second.send(found(0, 'b'), found(1, 'c'), { type: 'done', found: 2, failed: 0 });
    second.end();
    expect(await screen.findByText('Done: 3 found, 0 not found, 0 failed.')).toBeInTheDocument();
  });

  it("keeps the list and its rows when a row's candidate is opened and the user comes Back; a batch left running says it stopped", async () => {
    const batch = controllableBatch();
    stubApi({ candidates: { '/api/batch': batch.response } });
    const { router } = renderWithProviders('/batch');
    const user = await startBatch('a\nb\nc');
    batch.send(found(0, 'a'), { type: 'row', index: 1, ok: false, code: 'not_found', message: 'No candidate with refId "b".' });
    await waitFor(() => expect(screen.getByTestId('batch-progress')).toHaveTextContent('2 of 3'));
    await user.click(within(screen.getByRole('table')).getByRole('link', { name: 'a' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/a'));
    await router.navigate(-1);
    expect(await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE)).toHaveValue('a\nb\nc');
    // Back to rows to read: the box does not take focus from them.
    expect(screen.getByRole('textbox', { name: 'refIds to look up' })).not.toHaveFocus();
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.dataset.rowState)).toEqual(['found', 'failed', 'pending']);
    expect(screen.getByText('Cancelled after 2 of 3: the rest were not looked up.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go on with the 1 left' })).toBeInTheDocument();
  });

  it("Back from a row's candidate focuses that row's link, marked \"Opened\", not the page's heading (the UX review: row N took 5+N Tabs)", async () => {
    const batch = controllableBatch();
    stubApi({ candidates: { '/api/batch': batch.response } });
    const { router } = renderWithProviders('/batch');
    const user = await startBatch('a\nb\nc\nb');
    batch.send(found(0, 'a'), found(1, 'b'), found(2, 'c'), { type: 'done', found: 3, failed: 0 });
    batch.end();
    await screen.findByText(/^Done:/);
    const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
    // Line 4 repeats line 2: the row opened is the one focused on return, not the first of its id.
    await user.click(within(rows()[3]!).getByRole('link', { name: 'b' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/b'));
    await screen.findByRole('heading', { level: 1, name: /No candidate/ }, LAZY_PAGE);
    await router.navigate(-1);
    await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE);
    await waitFor(() => expect(within(rows()[3]!).getByRole('link', { name: 'b' })).toHaveFocus());
    expect(screen.getByRole('heading', { level: 1 })).not.toHaveFocus();
    // The candidate opened is marked on its rows, as the queue marks its rows; the others are not.
    expect(rows().map((row) => within(row).queryByText('Opened') !== null)).toEqual([false, true, false, true]);
  });

  it('says the counts once when the batch is done, in the sentence read out, not again a line above it', async () => {
    const batch = controllableBatch();
    stubApi({ candidates: { '/api/batch': batch.response } });
    renderWithProviders('/batch');
    await startBatch('a\nb\nc');
    batch.send(found(0, 'a'));
    // While it runs, the counts stand beside the progress (the sentence says nothing yet).
    await waitFor(() => expect(screen.getByText('1 found, 0 not found, 0 failed')).toBeInTheDocument());
    batch.send(found(1, 'b'), { type: 'row', index: 2, ok: false, code: 'not_found', message: 'No candidate with refId "c".' });
    batch.send({ type: 'done', found: 2, failed: 1 });
    batch.end();
    await waitFor(() => expect(screen.getByText('Done: 2 found, 1 not found, 0 failed.')).toHaveAttribute('role', 'status'));
    expect(screen.getAllByText(/2 found, 1 not found, 0 failed/)).toHaveLength(1);
  });

  it('drops a sentence\'s marks around a line ("support-ticket-4410,", quotes and a comma, a full stop) as a pasted sentence loses them', async () => {
    const batch = controllableBatch();
    const { fetchMock } = stubApi({ candidates: { '/api/batch': batch.response } });
    renderWithProviders('/batch');
    await startBatch('support-ticket-4410,\n"cust_000482",\ncust_000483.\n(crm-55102)\nacme(1)');
    expect(screen.getByTestId('batch-hint')).toHaveTextContent(
      "5 ids, one per line (spaces inside a line are part of its id), a sentence's marks around 4 ids dropped",
    );
    const [, init] = fetchMock.mock.calls.find(([input]) => input === '/api/batch')!;
    // A bracket the id opened itself stays (acme(1)), as the search box reads it.
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({
      kind: 'refId',
      ids: ['support-ticket-4410', 'cust_000482', 'cust_000483', 'crm-55102', 'acme(1)'],
    });
  });

  it.each<[ApiErrorCode, string]>([
    ['rate_limited', 'You have several lookups waiting for the KYC service already. Try again when they are done.'],
    // All of this server's connections to the service held (resilience review, 29 November): busy, not the id's fault.
    ['server_busy', 'This server has as many requests to the KYC service under way as it can make at once, so this one was not sent.'],
    // Waiting while another lookup shows whether the key deletes identity data (the diff review, 29 November: left out of Retry).
    ['archiving_check_unavailable', 'This server is still checking, with another lookup, whether its API key deletes identity data.'],
  ])(
    'offers again the rows this server held back (%s: its own limit on lookups at once), which are no fault of their ids',
    async (code, message) => {
      const batch = controllableBatch();
      stubApi({ candidates: { '/api/batch': batch.response } });
      renderWithProviders('/batch');
      await startBatch('a\nb');
      batch.send(found(0, 'a'), { type: 'row', index: 1, ok: false, code, message });
      batch.send({ type: 'done', found: 1, failed: 1 });
      batch.end();
      expect(await screen.findByText(/^Done:/)).toHaveTextContent(
        'Done: 1 found, 0 not found, 1 failed. 1 id left: 1 was held back by this server, no fault of the id. Retry looks it up again.',
      );
      expect(screen.getByRole('button', { name: 'Retry the 1 left' })).toBeInTheDocument();
    },
  );

  it('downloads the rows as CSV made in the browser, and copies them as a table', async () => {
    const batch = controllableBatch();
    stubApi({ candidates: { '/api/batch': batch.response, '/api/export': () => json({ status: 'success' }) } });
    renderWithProviders('/batch');
    const user = await startBatch('a\nb');
    batch.send(
      found(0, 'a'),
      { type: 'row', index: 1, ok: false, code: 'invalid_id', message: 'bad' },
      { type: 'done', found: 1, failed: 1 },
    );
    batch.end();
    await screen.findByText(/^Done:/);

    const { bytes, link } = await downloadCsv(user);
    expect(link.download).toMatch(/^candidates-refId-\d{4}-\d{2}-\d{2}-\d{4}[+-]\d{4}\.csv$/);
    // A byte order mark first, so that spreadsheets read the file as UTF-8.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = new TextDecoder().decode(bytes);
    const local = formatDateTime(new Date('2026-11-20T10:00:00.000Z'));
    expect(csv.split('\r\n')).toEqual([
      'line,id,status,statusText,statusDate,statusDateLocal,submitCount,archived,refId,recordId,repeatOf,error,message,unreadable,statusDateDoubt',
      `1,a,approved,Approved,2026-11-20T10:00:00.000Z,"${local}",1,,a,65f1c2a9e4b0d3a1f0c9b800,,,,,`,
      '2,b,,,,,,,,,,invalid_id,bad,,',
      '',
    ]);

    const write = vi.fn(async () => {});
    Object.assign(navigator.clipboard, { write });
    vi.stubGlobal(
      'ClipboardItem',
      class {
        constructor(readonly items: Record<string, Blob>) {}
      },
    );
    await user.click(screen.getByRole('button', { name: 'Copy as table' }));
    expect(await screen.findByText('Table copied')).toBeInTheDocument();
    const item = (write.mock.calls[0] as unknown as [[{ items: Record<string, Blob> }]])[0][0];
    expect(await item.items['text/plain']!.text()).toContain('1\ta\tapproved\tApproved\t2026-11-20T10:00:00.000Z');
    expect(await item.items['text/html']!.text()).toMatch(/^<table>/);
  });

  it('says a refused copy until the next try, and not over the next batch it was not about', async () => {
    const batches = [controllableBatch(), controllableBatch()];
    let asked = 0;
    stubApi({ candidates: { '/api/batch': () => batches[asked++]!.response(), '/api/export': () => json({ status: 'success' }) } });
    renderWithProviders('/batch');
    const user = await startBatch('a');
    batches[0]!.send(found(0, 'a'), { type: 'done', found: 1, failed: 0 });
    batches[0]!.end();
    await screen.findByText(/^Done:/);
    Object.assign(navigator.clipboard, { write: vi.fn(async () => Promise.reject(new DOMException('denied', 'NotAllowedError'))) });
    vi.stubGlobal(
      'ClipboardItem',
      class {
        constructor(readonly items: Record<string, Blob>) {}
      },
    );
    await user.click(screen.getByRole('button', { name: 'Copy as table' }));
    const refused = await screen.findByText('Copy failed: the browser refused access to the clipboard.');
    expect(refused).toHaveClass('text-red-700');
    const box = screen.getByRole('textbox', { name: 'refIds to look up' });
    await user.clear(box);
    await user.type(box, 'b');
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    batches[1]!.send(found(0, 'b'), { type: 'done', found: 1, failed: 0 });
    batches[1]!.end();
    await waitFor(() => expect(screen.getAllByRole('row').some((row) => row.textContent?.includes('b'))).toBe(true));
    expect(screen.queryByText(/Copy failed/)).not.toBeInTheDocument();
  });

  it('refuses more than 500 ids before asking, and says when the budget is used up', async () => {
    const { requests } = stubApi({
      candidates: {
        '/api/batch': () =>
          apiError(429, 'rate_limited', 'Your batch budget is used up for now: 3 ids can start in 12 s.', { retryAfterSeconds: 12 }),
      },
    });
    renderWithProviders('/batch');
    const user = userEvent.setup();
    const box = await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE);
    await user.click(box);
    await user.paste(Array.from({ length: 501 }, (_, i) => `id${i}`).join('\n'));
    expect(screen.getByTestId('batch-hint')).toHaveTextContent(/^501 ids, one per line.*\(at most 500\)$/);
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    expect(screen.getByRole('alert')).toHaveTextContent('A batch holds at most 500 ids; this list has 501.');
    expect(requests).not.toContain('/api/batch');

    await user.clear(box);
    await user.type(box, 'x y z');
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    // The number counted down (retry-wait.tsx's ServerWait; server-wait.test.tsx follows it to the end).
    expect((await screen.findByText(/^Your batch budget is used up/)).closest('p')).toHaveTextContent(
      /^Your batch budget is used up for now: 3 ids can start in 12 s, at .+\. 3 ids left: 3 were not looked up\. Retry looks them up again\.$/,
    );
    expect(screen.getByRole('button', { name: 'Retry the 3 left' })).toBeInTheDocument();
  });

  it("says how many blank lines it skipped, which the rows' numbers skip: the count was of what is looked up, the gaps unsaid", async () => {
    stubApi({ candidates: { '/api/batch': controllableBatch().response } });
    renderWithProviders('/batch');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE));
    // A trailing line break is no blank line: nothing comes after it.
    await user.paste('refId\na\n\nb\n \n\na\nc\n\n');
    expect(screen.getByTestId('batch-hint')).toHaveTextContent(
      /^3 ids \(4 given\), one per line \(spaces inside a line are part of its id\), 1 repeat looked up once \(its row says which line it repeats\), 3 blank lines skipped$/,
    );
  });

  it('reads a paste with line breaks as one id per line, spaces kept; splits only a single line; the hint says which', async () => {
    const batch = controllableBatch();
    const { fetchMock } = stubApi({ candidates: { '/api/batch': batch.response } });
    renderWithProviders('/batch');
    const user = userEvent.setup();
    const box = await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE);
    await user.click(box);
    await user.paste('Wang Xiuying\ncust 000482, x\n');
    expect(screen.getByTestId('batch-hint')).toHaveTextContent('2 ids, one per line (spaces inside a line are part of its id)');
    await user.clear(box);
    await user.paste('a b\tc d');
    expect(screen.getByTestId('batch-hint')).toHaveTextContent('4 ids, split at spaces and tabs');
    await user.clear(box);
    await user.paste('a b,c;d');
    expect(screen.getByTestId('batch-hint')).toHaveTextContent(
      '3 ids, split at commas and semicolons (spaces inside an entry are part of its id)',
    );
    await user.clear(box);
    await user.paste('"crm-55102","cust_000482"');
    expect(screen.getByTestId('batch-hint')).toHaveTextContent(
      '2 ids, split at commas and semicolons (spaces inside an entry are part of its id), the quotes around 2 ids dropped',
    );
    await user.clear(box);
    await user.paste('Wang Xiuying\ncust 000482, x\n');
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    await user.click(await screen.findByRole('button', { name: 'Look up all anyway' }));
    const [, init] = fetchMock.mock.calls.find(([input]) => input === '/api/batch')!;
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({ kind: 'refId', ids: ['Wang Xiuying', 'cust 000482, x'] });
  });

  it('links each found row to its candidate page in the environment of the batch, by the kind it was found by', async () => {
    const batch = controllableBatch();
    stubApi({ candidates: { '/api/e/staging/batch': batch.response } });
    const { router } = renderWithProviders('/e/staging/batch');
    const hex = '65f1c2a9e4b0d3a1f0c9b811';
    await startBatch(`cust_1\n${hex}\nnobody`);
    batch.send(
      found(0, 'cust_1'),
      { ...found(1, 'cust_2'), recordId: hex, foundBy: 'recordId' },
      { type: 'row', index: 2, ok: false, code: 'not_found', message: 'No candidate with refId "nobody".' },
      { type: 'done', found: 2, failed: 1 },
    );
    batch.end();
    await screen.findByText(/^Done:/);
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByRole('link', { name: 'cust_1' })).toHaveAttribute('href', '/e/staging/candidates/refId/cust_1');
    expect(within(rows[1]!).getByRole('link', { name: hex })).toHaveAttribute('href', `/e/staging/candidates/recordId/${hex}`);
    // The candidate's refId, which the row would not show otherwise: its recordId column holds the id pasted.
    expect(rows[1]).toHaveTextContent('found by recordId; its refId cust_2');
    expect(rows[0]).not.toHaveTextContent('found by');
    expect(within(rows[2]!).queryByRole('link')).not.toBeInTheDocument();
    await userEvent.setup().click(within(rows[1]!).getByRole('link', { name: hex }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/e/staging/candidates/recordId/${hex}`));
  });

  it('a row found by recordId whose answer holds no refId says its refId is not in this response, not that the candidate has none', async () => {
    const batch = controllableBatch();
    stubApi({ candidates: { '/api/batch': batch.response } });
    renderWithProviders('/batch');
    const [nullRefId, noRefId] = ['65f1c2a9e4b0d3a1f0c9b810', '65f1c2a9e4b0d3a1f0c9b812'];
    await startBatch(`${nullRefId}\n${noRefId}`);
    const { refId: _none, ...withoutRefId } = found(1, 'cust_2');
    batch.send(
      { ...found(0, 'cust_1'), refId: null, recordId: nullRefId, foundBy: 'recordId' },
      { ...withoutRefId, recordId: noRefId, foundBy: 'recordId' },
      { type: 'done', found: 2, failed: 0 },
    );
    batch.end();
    await screen.findByText(/^Done:/);
    // The service answered without it (status level may leave it out): that says nothing of whether the candidate has one.
    for (const row of within(screen.getByRole('table')).getAllByRole('row').slice(1)) {
      expect(row).toHaveTextContent('found by recordId; its refId not in this response');
      expect(row).not.toHaveTextContent('no refId');
    }
  });

  it('says why the server stopped after the service could not be reached, and Retry goes on with the rest only', async () => {
    const first = controllableBatch();
    const second = controllableBatch();
    const answers = [first, second];
    const { fetchMock } = stubApi({ candidates: { '/api/batch': () => answers.shift()!.response() } });
    renderWithProviders('/batch');
    const user = await startBatch(Array.from({ length: 10 }, (_, i) => `id${i}`).join('\n'));
    const unreachable = (index: number): BatchEvent => ({
      type: 'row',
      index,
      ok: false,
      code: 'upstream_unreachable',
      message: 'The KYC service could not be reached (connection refused).',
    });
    first.send(found(0, 'id0'), found(1, 'id1'), ...[2, 3, 4, 5, 6].map(unreachable));
    first.send({
      type: 'stopped',
      code: 'upstream_unreachable',
      message: 'The KYC service could not be reached (connection refused).',
      inARow: 5,
      notLookedUp: 3,
    });
    first.send({ type: 'done', found: 2, failed: 5 });
    first.end();
    expect(await screen.findByText(/^Stopped:/)).toHaveTextContent(
      'Stopped: The KYC service could not be reached (connection refused). No more lookups were started once 5 in a row had failed. 8 ids left: 5 could not reach the KYC service and 3 were not looked up. Retry looks them up again.',
    );
    // How far, not how well: the bar is amber once the batch stopped short.
    expect(screen.getByRole('progressbar', { name: 'Batch progress' })).toHaveAttribute('data-stopped-short', 'true');
    expect(screen.getAllByText('Not looked up')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Retry the 8 left' }));
    const bodies = fetchMock.mock.calls.filter(([input]) => input === '/api/batch').map(([, init]) => JSON.parse(String(init!.body)));
    expect(bodies[1]).toEqual({ kind: 'refId', ids: ['id2', 'id3', 'id4', 'id5', 'id6', 'id7', 'id8', 'id9'] });
    // The second request's rows land in their places in the first list.
    second.send(found(0, 'id2'), found(7, 'id9'));
    await waitFor(() => expect(screen.getByTestId('batch-progress')).toHaveTextContent('4 of 10'));
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.dataset.rowState)).toEqual(['found', 'found', 'found', ...Array(6).fill('pending'), 'found']);
    expect(rows[9]).toHaveTextContent('id9');
    second.send(...[1, 2, 3, 4, 5, 6].map((i) => found(i, `id${i + 2}`)), { type: 'done', found: 8, failed: 0 });
    second.end();
    expect(await screen.findByText('Done: 10 found, 0 not found, 0 failed.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Retry/ })).not.toBeInTheDocument();
  });

  it('never contradicts itself when the service is down: the ids left and the Retry button give one count', async () => {
    const batch = controllableBatch();
    stubApi({ candidates: { '/api/batch': batch.response } });
    renderWithProviders('/batch');
    await startBatch(Array.from({ length: 5 }, (_, i) => `id${i}`).join('\n'));
    const message = 'The KYC service could not be reached (connection refused).';
    batch.send(...[0, 1, 2, 3, 4].map((index): BatchEvent => ({ type: 'row', index, ok: false, code: 'upstream_unreachable', message })));
    // Every id was started, so the server says none was left unasked.
    batch.send(
      { type: 'stopped', code: 'upstream_unreachable', message, inARow: 5, notLookedUp: 0 },
      { type: 'done', found: 0, failed: 5 },
    );
    batch.end();
    const outcome = await screen.findByText(/^Stopped:/);
    expect(outcome).toHaveTextContent(
      `Stopped: ${message} No more lookups were started once 5 in a row had failed. 5 ids left: 5 could not reach the KYC service.`,
    );
    expect(outcome).not.toHaveTextContent(/\b0 ids?\b/);
    expect(screen.getByRole('button', { name: 'Retry the 5 left' })).toBeInTheDocument();
  });

  it('puts focus in the box when the page opens, so a reviewer who came to paste can paste at once', async () => {
    const batch = controllableBatch();
    const { fetchMock } = stubApi({ candidates: { '/api/batch': batch.response } });
    renderWithProviders('/batch');
    const box = await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE);
    await waitFor(() => expect(box).toHaveFocus());
    await userEvent.setup().paste('a\nb');
    expect(box).toHaveValue('a\nb');
    expect(fetchMock.mock.calls.some(([input]) => input === '/api/batch')).toBe(false);
  });

  it('skips a column\'s heading ("Customer ref" over ids), says which line it skipped, and looks it up when asked to', async () => {
    const batch = controllableBatch();
    const answers = [batch, controllableBatch()];
    const { fetchMock } = stubApi({ candidates: { '/api/batch': () => answers.shift()!.response() } });
    renderWithProviders('/batch');
    const user = await startBatch('Customer ref\ncust_000482\ncust_000483');
    const bodies = () => fetchMock.mock.calls.filter(([input]) => input === '/api/batch').map(([, init]) => JSON.parse(String(init!.body)));
    expect(bodies()).toEqual([{ kind: 'refId', ids: ['cust_000482', 'cust_000483'] }]);
    const said = screen.getByTestId('batch-heading');
    expect(said).toHaveTextContent('Skipped the heading "Customer ref" (line 1): it is not looked up.');
    expect(screen.getByTestId('batch-hint')).toHaveTextContent(/^2 ids, one per line/);
    // The box's description says it too, for a screen reader in the box.
    const box = screen.getByRole('textbox', { name: 'refIds to look up' });
    expect(box).toHaveAccessibleDescription(expect.stringContaining('Skipped the heading "Customer ref" (line 1)'));
    batch.send(found(0, 'cust_000482'), found(1, 'cust_000483'), { type: 'done', found: 2, failed: 0 });
    batch.end();
    await screen.findByText(/^Done:/);
    // Each row keeps its line of the pasted column: the heading's line 1 is not a row.
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => (row as HTMLTableRowElement).cells[0]!.textContent)).toEqual(['2', '3']);

    // An id may hold spaces: the reviewer can have the first line looked up all the same, and undo that.
    await user.click(within(said).getByRole('button', { name: 'Look it up too' }));
    expect(screen.getByTestId('batch-heading')).toHaveTextContent('Line 1, "Customer ref", is looked up as an id.');
    expect(screen.getByTestId('batch-hint')).toHaveTextContent(/^3 ids/);
    await user.click(screen.getByRole('button', { name: 'Skip it as a heading' }));
    expect(screen.getByTestId('batch-hint')).toHaveTextContent(/^2 ids/);
    await user.click(screen.getByRole('button', { name: 'Look it up too' }));
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    await waitFor(() => expect(bodies()).toHaveLength(2));
    expect(bodies()[1]).toEqual({ kind: 'refId', ids: ['Customer ref', 'cust_000482', 'cust_000483'] });
  });

  it('looks up a refId with a space on the first line ("Wang Xiuying" over ids): no heading is skipped (it was left out as one)', async () => {
    const { fetchMock } = stubApi({ candidates: { '/api/batch': controllableBatch().response } });
    renderWithProviders('/batch');
    const user = await startBatch('Wang Xiuying\ncust_000482\ncust_000483');
    await user.click(await screen.findByRole('button', { name: 'Look up all anyway' }));
    const [, init] = fetchMock.mock.calls.find(([input]) => input === '/api/batch')!;
    expect(JSON.parse(String(init!.body))).toEqual({ kind: 'refId', ids: ['Wang Xiuying', 'cust_000482', 'cust_000483'] });
    expect(screen.getByTestId('batch-hint')).toHaveTextContent(/^3 ids, one per line/);
    expect(screen.queryByTestId('batch-heading')).not.toBeInTheDocument();
  });

  describe('rows as the pasted lines', () => {
    inTimeZone('Asia/Singapore');

    it('numbers the rows as the pasted lines and marks a repeat, looked up once, with its result, in the table and the CSV', async () => {
      const batch = controllableBatch();
      const { fetchMock } = stubApi({ candidates: { '/api/batch': batch.response, '/api/export': () => json({ status: 'success' }) } });
      renderWithProviders('/batch');
      const user = await startBatch('a\n\nb\na\n');
      const [, init] = fetchMock.mock.calls.find(([input]) => input === '/api/batch')!;
      expect(JSON.parse(String((init as RequestInit).body)).ids).toEqual(['a', 'b']);
      expect(screen.getByTestId('batch-hint')).toHaveTextContent(/^2 ids \(3 given\), one per line .*, 1 repeat looked up once/);
      batch.send(found(0, 'a', 'inreview'), { type: 'row', index: 1, ok: false, code: 'not_found', message: 'No candidate.' });
      batch.send({ type: 'done', found: 1, failed: 1 });
      batch.end();
      await screen.findByText(/^Done:/);
      const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
      expect(rows.map((row) => (row as HTMLTableRowElement).cells[0]!.textContent)).toEqual(['1', '3', '4']);
      expect(rows.map((row) => [row.dataset.rowState, row.dataset.repeatOf])).toEqual([
        ['found', undefined],
        ['failed', undefined],
        ['found', '1'],
      ]);
      expect(rows[2]).toHaveTextContent(/a.*repeat of line 1.*In review/);

      const csv = await csvOf(user);
      // In the zone the page shows, with the zone's name: Singapore is 8 hours ahead of UTC.
      const local = formatDateTime(new Date('2026-11-20T10:00:00.000Z'));
      expect(local).toMatch(/06:00\sPM UTC\+8/);
      expect(csv.slice(1, 4)).toEqual([
        `1,a,inreview,In review,2026-11-20T10:00:00.000Z,"${local}",1,,a,65f1c2a9e4b0d3a1f0c9b800,,,,,`,
        '3,b,,,,,,,,,,not_found,No candidate.,,',
        `4,a,inreview,In review,2026-11-20T10:00:00.000Z,"${local}",1,,a,65f1c2a9e4b0d3a1f0c9b800,1,,,,`,
      ]);
    });
  });

  it('looks up recordIds when chosen, in the environment of the URL', async () => {
    const batch = controllableBatch();
    const { fetchMock } = stubApi({ candidates: { '/api/e/staging/batch': batch.response } });
    renderWithProviders('/e/staging/batch');
    const user = userEvent.setup();
    const page = within(await screen.findByRole('region', { name: 'Batch status lookup' }, LAZY_PAGE));
    await user.click(page.getByRole('radio', { name: 'recordId' }));
    await user.type(screen.getByRole('textbox', { name: 'recordIds to look up' }), '65f1c2a9e4b0d3a1f0c9b801');
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    const [, init] = fetchMock.mock.calls.find(([input]) => input === '/api/e/staging/batch')!;
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({ kind: 'recordId', ids: ['65f1c2a9e4b0d3a1f0c9b801'] });
  });
});
