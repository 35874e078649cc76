import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BatchEvent } from '../../src/kyc/contract/batch.ts';

/** What the tests of the batch page share (batch-budget, batch-handoff). No hooks here: a file has its own. */

/** The batch page is its own chunk, fetched when first opened: slower to appear on a busy machine. */
export const LAZY_PAGE = { timeout: 10_000 };

/** A row of the batch's answer: `refId`, found, approved. */
export const foundRow = (index: number, refId: string): Extract<BatchEvent, { ok: true }> => ({
  type: 'row',
  index,
  ok: true,
  status: 'approved',
  statusDate: '2026-11-20T10:00:00.000Z',
  submitCount: 1,
  refId,
});

/** A batch's whole answer of `events`, one JSON line each; `headers`, what else it says (its RateLimit-* headers). */
export const batchAnswer = (events: BatchEvent[], headers: Record<string, string> = {}): Response =>
  new Response(events.map((event) => `${JSON.stringify(event)}\n`).join(''), {
    headers: { 'content-type': 'application/x-ndjson', ...headers },
  });

/** Pastes `text` in the batch page's list once it shows, and presses Look up all, as `user` (a new one unless given). */
export async function lookUpAll(text: string, user = userEvent.setup()) {
  await user.click(await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE));
  await user.paste(text);
  await user.click(screen.getByRole('button', { name: 'Look up all' }));
  return user;
}
