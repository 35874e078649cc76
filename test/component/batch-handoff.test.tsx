import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BatchEvent } from '../../src/kyc/contract/batch.ts';
import { batchAnswer, foundRow, lookUpAll } from './batch-fixture.ts';
import { apiError, json, renderWithProviders, stubApi } from './render.tsx';
import { exportsOf } from './reply-fixture.ts';

const NOT_LOOKED_UP = "This batch's lookups are too old to record what it hands over: press Look up all again, then download or copy it.";

afterEach(() => {
  vi.restoreAllMocks();
});

const found = (index: number, refId: string): BatchEvent => ({ ...foundRow(index, refId), recordId: `65f1c2a9e4b0d3a1f0c9b80${index}` });

/** A batch of alpha (found), nobody (not found) and alpha again. */
const ALPHA_NOBODY: [string, BatchEvent[]] = [
  'alpha\nnobody\nalpha',
  [
    found(0, 'alpha'),
    { type: 'row', index: 1, ok: false, code: 'not_found', message: 'No candidate.' },
    { type: 'done', found: 1, failed: 1 },
  ],
];

/** A batch of `pasted` answered by `events` (alpha, nobody, alpha unless given), its hand-offs answered by `exportReply`; saves and clipboard writes counted. */
async function batchDone(exportReply: () => Response, [pasted, events] = ALPHA_NOBODY) {
  const order: string[] = [];
  const batch = () => batchAnswer(events);
  const { fetchMock } = stubApi({
    candidates: {
      '/api/batch': batch,
      '/api/export': () => {
        order.push('recorded');
        return exportReply();
      },
    },
  });
  vi.mocked(URL.createObjectURL).mockImplementation(() => 'blob:test/csv');
  const saves = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => void order.push('saved'));
  const writeText = vi.fn(async () => void order.push('copied'));
  renderWithProviders('/batch');
  const user = userEvent.setup();
  Object.assign(navigator.clipboard, { write: undefined, writeText });
  await lookUpAll(pasted, user);
  await screen.findByText(/^Done:/);
  const exports = () => exportsOf(fetchMock);
  return { user, order, saves, writeText, exports };
}

describe("a batch's results taken away", { timeout: 20_000 }, () => {
  it("attack: a batch's CSV is downloaded with no trace in the audit log", async () => {
    const { user, order, exports } = await batchDone(() => json({ status: 'success' }));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(order).toEqual(['recorded', 'saved']));
    // The candidates found, each once; the id not found carries nothing of the service's.
    expect(exports()).toEqual([{ what: 'batch_csv', kind: 'refId', ids: ['alpha'], count: 1 }]);
  });

  it("attack: a batch's table is copied with no trace in the audit log", async () => {
    const { user, order, exports } = await batchDone(() => json({ status: 'success' }));
    await user.click(screen.getByRole('button', { name: 'Copy as table' }));
    expect(await screen.findByText('Table copied')).toBeInTheDocument();
    expect(order).toEqual(['recorded', 'copied']);
    expect(exports()).toEqual([{ what: 'batch_copy', kind: 'refId', ids: ['alpha'], count: 1 }]);
  });

  it('a batch export names a row found by the other kind of id by that kind, so the server finds its lookup', async () => {
    const noRefId = '65f1c2a9e4b0d3a1f0c9b810';
    const { user, order, exports } = await batchDone(
      () => json({ status: 'success' }),
      [
        `alpha\n${noRefId}`,
        [
          found(0, 'alpha'),
          { ...foundRow(1, ''), refId: null, recordId: noRefId, foundBy: 'recordId' },
          { type: 'done', found: 2, failed: 0 },
        ],
      ],
    );
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(order).toEqual(['recorded', 'saved']));
    expect(exports()).toEqual([{ what: 'batch_csv', kind: 'refId', ids: ['alpha', { id: noRefId, foundBy: 'recordId' }], count: 2 }]);
  });

  it('a hand-off whose line is refused saves and copies nothing, and says why', async () => {
    const { user, order, saves, writeText } = await batchDone(() => apiError(409, 'not_looked_up', NOT_LOOKED_UP));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText(`Not recorded in the audit log, so nothing was saved or copied: ${NOT_LOOKED_UP}`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy as table' }));
    await waitFor(() => expect(order).toEqual(['recorded', 'recorded']));
    expect(saves).not.toHaveBeenCalled();
    expect(writeText).not.toHaveBeenCalled();
  });
});
