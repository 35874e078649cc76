import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { BatchEvent } from '../../src/kyc/contract/batch.ts';
import { apiError, renderWithProviders, stubApi } from './render.tsx';
import { effectsRun, fakeClock, seconds } from './wait-clock.ts';

/**
 * The service's wait on the pages (issue 30): the candidate page names it and counts it down, the batch
 * page says the batch waits and when it resumes. The clock (Date and the pages' one-second ticks) is the
 * test's; the answers are the proxy's, as it now gives them for a 429 with only `extra.retryAfter: 30`.
 */

const LAZY_PAGE = { timeout: 10_000 };

describe("the service's wait on the pages", { timeout: 20_000 }, () => {
  it('a 429 with only extra.retryAfter: 30: the candidate page names 30 s, counts it down, then says the wait is over', async () => {
    fakeClock();
    // The proxy's answer to the service's published 429 (test/server/service-wait.test.ts).
    const limited = apiError(
      429,
      'upstream_rate_limited',
      'The KYC service is limiting requests (HTTP 429). Try again in 30 s.',
      { retryAfterSeconds: 30 },
      { 'retry-after': '30' },
    );
    stubApi({ candidates: { '/api/candidates/refId/abc': limited } });
    renderWithProviders('/candidates/refId/abc');
    expect(await screen.findByRole('heading', { name: 'The KYC service is limiting requests' })).toBeInTheDocument();
    const body = screen.getByText(/Try again in 30 s, at /);
    expect(within(body).getByRole('time')).toHaveAttribute('dateTime', '2026-11-24T14:02:31.000Z');
    await effectsRun();
    seconds(12);
    expect(screen.getByText(/Try again in 18 s, at /)).toBeInTheDocument();
    seconds(18);
    expect(screen.getByText('The wait the KYC service asked for is over: try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
  });

  it('a batch makes no request to that environment for 30 s: the batch page says it waits, when it resumes, and no longer once it has', async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
    });
    const send = (...events: BatchEvent[]) =>
      controller.enqueue(new TextEncoder().encode(events.map((event) => `${JSON.stringify(event)}\n`).join('')));
    stubApi({ candidates: { '/api/batch': () => new Response(stream, { headers: { 'content-type': 'application/x-ndjson' } }) } });
    renderWithProviders('/batch');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE));
    await user.paste('a\nb');
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    fakeClock();

    send({ type: 'wait', seconds: 30 });
    const wait = await screen.findByTestId('batch-wait');
    expect(wait).toHaveTextContent(
      /^The KYC service is limiting requests \(HTTP 429\): the batch waits 30 s and resumes at [^,]+ \(in 30 s\)\.$/,
    );
    expect(within(wait).getByRole('time')).toHaveAttribute('dateTime', '2026-11-24T14:02:31.000Z');
    await effectsRun();
    // A row that was under way when the service asked to wait does not end the wait.
    seconds(10);
    send({ type: 'row', index: 0, ok: true, status: 'approved', refId: 'a', recordId: null });
    await waitFor(() => expect(screen.getByTestId('batch-progress')).toHaveTextContent('1 of 2'));
    expect(screen.getByTestId('batch-wait')).toHaveTextContent('(in 20 s)');
    seconds(20);
    expect(screen.queryByTestId('batch-wait')).toBeNull();
    send({ type: 'row', index: 1, ok: true, status: 'approved', refId: 'b', recordId: null }, { type: 'done', found: 2, failed: 0 });
    expect(await screen.findByText('Done: 2 found, 0 not found, 0 failed.')).toBeInTheDocument();
  });
});
