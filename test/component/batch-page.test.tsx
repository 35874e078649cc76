import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BatchEvent } from '../../src/kyc/contract/batch.ts';
import { apiError, renderWithProviders, stubApi } from './render.tsx';

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

const found = (index: number, refId: string, status = 'approved'): BatchEvent => ({
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
    await startBatch('alpha\nbeta, gamma\n');
    const [, init] = fetchMock.mock.calls.find(([input]) => input === '/api/batch')!;
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({ kind: 'refId', ids: ['alpha', 'beta', 'gamma'] });

    const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows().map((r) => r.dataset.rowState)).toEqual(['pending', 'pending', 'pending']);
    batch.send(found(2, 'gamma'));
    await waitFor(() => expect(screen.getByTestId('batch-progress')).toHaveTextContent('1 of 3'));
    expect(rows().map((r) => r.dataset.rowState)).toEqual(['pending', 'pending', 'found']);
    expect(rows()[2]).toHaveTextContent(/gamma.*Approved/);
    batch.send(
      { type: 'row', index: 0, ok: false, code: 'not_found', message: 'No candidate with refId "alpha".' },
      found(1, 'beta', 'waiting'),
    );
    batch.send({ type: 'done', found: 2, failed: 1 });
    batch.end();
    expect(await screen.findByText('Done: 2 found, 1 not found or failed.')).toBeInTheDocument();
    expect(rows().map((r) => r.dataset.rowState)).toEqual(['failed', 'found', 'found']);
    expect(rows()[0]).toHaveTextContent('Not found: No candidate with refId "alpha".');
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

  it('downloads the rows as CSV made in the browser, and copies them as a table', async () => {
    const batch = controllableBatch();
    stubApi({ candidates: { '/api/batch': batch.response } });
    renderWithProviders('/batch');
    const user = await startBatch('a\nb');
    batch.send(
      found(0, 'a'),
      { type: 'row', index: 1, ok: false, code: 'invalid_id', message: 'bad' },
      { type: 'done', found: 1, failed: 1 },
    );
    batch.end();
    await screen.findByText(/^Done:/);

    let blob: Blob | undefined;
    vi.mocked(URL.createObjectURL).mockImplementation((object) => {
      blob = object as Blob;
      return 'blob:test/csv';
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(click).toHaveBeenCalled();
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toMatch(/^candidates-refId-\d{4}-\d{2}-\d{2}-\d{4}\.csv$/);
    const bytes = new Uint8Array(await blob!.arrayBuffer());
    // A byte order mark first, so that spreadsheets read the file as UTF-8.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = new TextDecoder().decode(bytes);
    expect(csv.split('\r\n')).toEqual([
      'id,status,statusDate,submitCount,refId,recordId,error,message',
      'a,approved,2026-11-20T10:00:00.000Z,1,a,65f1c2a9e4b0d3a1f0c9b800,,',
      'b,,,,,,invalid_id,bad',
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
    expect(await item.items['text/plain']!.text()).toContain('a\tapproved\t2026-11-20T10:00:00.000Z');
    expect(await item.items['text/html']!.text()).toMatch(/^<table>/);
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
    expect(screen.getByText(/501 ids \(at most 500\)/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    expect(screen.getByRole('alert')).toHaveTextContent('A batch holds at most 500 ids; this list has 501.');
    expect(requests).not.toContain('/api/batch');

    await user.clear(box);
    await user.type(box, 'x y z');
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    expect(await screen.findByText('Your batch budget is used up for now: 3 ids can start in 12 s.')).toBeInTheDocument();
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
