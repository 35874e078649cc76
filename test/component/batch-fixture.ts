import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import type { BatchEvent, BatchTriage } from '../../src/kyc/contract/batch.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';

/** What the tests of the batch page share (batch-budget, batch-handoff, batch-loop, batch-triage, batch-page). No hooks here: a file has its own. */

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

/** Three sample candidates with both ids and not archived: the rows of a batch whose candidates open (batch-loop, batch-triage). */
export async function threeSamples(): Promise<[CandidateRecord, CandidateRecord, CandidateRecord]> {
  const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
  return samples.filter((record) => record.recordId && record.refId && !record.isArchived) as [
    CandidateRecord,
    CandidateRecord,
    CandidateRecord,
  ];
}

/** A found row of `record` (both its ids), waiting, with what the queue index knows of it if given. */
export const foundRecord = (index: number, record: CandidateRecord, triage?: BatchTriage): BatchEvent => ({
  type: 'row',
  index,
  ok: true,
  status: 'waiting',
  statusDate: '2026-11-20T10:00:00.000Z',
  submitCount: 1,
  refId: record.refId!,
  recordId: record.recordId!,
  ...(triage ? { triage } : {}),
});

/** Presses Download CSV as `user` and reads back what would be saved: the file's bytes and the link that saved it. */
export async function downloadCsv(user: ReturnType<typeof userEvent.setup>) {
  let blob: Blob | undefined;
  vi.mocked(URL.createObjectURL).mockImplementation((object) => {
    blob = object as Blob;
    return 'blob:test/csv';
  });
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  await user.click(screen.getByRole('button', { name: 'Download CSV' }));
  // Saved once its audit line is written (batch-handoff.test.tsx).
  await waitFor(() => expect(click).toHaveBeenCalled());
  return { bytes: new Uint8Array(await blob!.arrayBuffer()), link: click.mock.contexts[0] as HTMLAnchorElement };
}

/** The batch's CSV as `downloadCsv` reads it, its byte order mark dropped and its lines split. */
export async function csvOf(user: ReturnType<typeof userEvent.setup>) {
  const { bytes } = await downloadCsv(user);
  return new TextDecoder()
    .decode(bytes)
    .replace(/^\ufeff/, '')
    .split('\r\n');
}
