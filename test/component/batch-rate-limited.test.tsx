import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BatchEvent } from '../../src/kyc/contract/batch.ts';
import { batchAnswer, foundRow, lookUpAll } from './batch-fixture.ts';
import { renderWithProviders, stubApi } from './render.tsx';
import { effectsRun, fakeClock, seconds } from './wait-clock.ts';

/** A row the service refused with its 429 for as long as the batch tried (src/server/lookup/batch-runner.ts), its wait 5 s. */
const limitedRow = (index: number): BatchEvent => ({
  type: 'row',
  index,
  ok: false,
  code: 'upstream_rate_limited',
  message: 'The KYC service is limiting requests (HTTP 429): "Too many requests". Try again in 5 s.',
  retryAfterSeconds: 5,
});

/** A server answering the batch's requests in turn with `answers`; `asked`, the ids of each request. */
function batches(...answers: Array<() => Response>) {
  const api = stubApi({ candidates: { '/api/batch': () => answers.shift()!() } });
  return () =>
    api.fetchMock.mock.calls
      .filter(([input]) => input === '/api/batch')
      .map(([, init]) => (JSON.parse(String(init!.body)) as { ids: string[] }).ids);
}

const ids = ['id0', 'id1', 'id2', 'id3'];

describe('rows the service refused with its 429 (upstream_rate_limited)', { timeout: 20_000 }, () => {
  it('are offered to Retry once the wait they said is over, as unreachable ones are, and only they are asked again', async () => {
    const asked = batches(
      () => batchAnswer([foundRow(0, 'id0'), limitedRow(2), foundRow(1, 'id1'), limitedRow(3), { type: 'done', found: 2, failed: 2 }]),
      () => batchAnswer([foundRow(0, 'id2'), foundRow(1, 'id3'), { type: 'done', found: 2, failed: 0 }]),
    );
    renderWithProviders('/batch');
    fakeClock();
    const user = await lookUpAll(ids.join('\n'));
    expect(await screen.findByText(/^Done: 2 found/)).toHaveTextContent(
      /^Done: 2 found, 0 not found, 2 failed\. 2 ids left: 2 were refused by the KYC service's limit \(HTTP 429\)\. Retry looks them up again\. The 2 left in 5 s, at .+\.$/,
    );
    const retry = screen.getByRole('button', { name: 'Retry the 2 left' });
    expect(retry).toHaveAttribute('aria-disabled', 'true');
    await effectsRun();
    await user.click(retry);
    expect(asked()).toHaveLength(1);
    seconds(5);
    expect(retry).not.toHaveAttribute('aria-disabled');
    await user.click(retry);
    await waitFor(() => expect(screen.getByText(/^Done:/)).toHaveTextContent('Done: 4 found, 0 not found, 0 failed.'));
    expect(asked()).toEqual([ids, ['id2', 'id3']]);
  });

  it('says why the server stopped once the service limited the batch for 5 minutes, and Retry goes on with the limited rows and the rest', async () => {
    const message = 'The KYC service is limiting requests (HTTP 429): "Too many requests". Try again in 5 s.';
    const asked = batches(
      () =>
        batchAnswer([
          foundRow(0, 'id0'),
          limitedRow(1),
          { type: 'stopped', code: 'upstream_rate_limited', message, inARow: 61, notLookedUp: 2 },
          { type: 'done', found: 1, failed: 1 },
        ]),
      () => batchAnswer([{ type: 'done', found: 0, failed: 0 }]),
    );
    renderWithProviders('/batch');
    fakeClock();
    const user = await lookUpAll(ids.join('\n'));
    expect(await screen.findByText(/^Stopped:/)).toHaveTextContent(
      `Stopped: ${message} No more lookups were started: the KYC service had refused 61 in a row for 5 minutes. 3 ids left: 1 was refused by the KYC service's limit (HTTP 429) and 2 were not looked up. Retry looks them up again.`,
    );
    seconds(5);
    await effectsRun();
    await user.click(screen.getByRole('button', { name: 'Retry the 3 left' }));
    await waitFor(() => expect(asked()).toEqual([ids, ['id1', 'id2', 'id3']]));
  });
});
