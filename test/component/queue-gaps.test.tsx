import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Applicant } from '../../src/kyc/contract/applicants.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { withFakeEventSource } from './fake-event-source.ts';
import { envelope, renderWithProviders, stubApi } from './render.tsx';

/**
 * The moments between a reviewer's action on the queue and the page it leads to, as a reviewer using it
 * every day met them: a clicked row that showed nothing for the wait that tells a click from a
 * double-click.
 */
const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const withRecordId = samples.filter((record) => record.recordId && record.refId && !record.isArchived);
const [first, second] = withRecordId as [CandidateRecord, CandidateRecord];
const asApplicant = (record: CandidateRecord): Applicant => ({
  status: 'waiting',
  isArchived: false,
  recordId: record.recordId!,
  refId: record.refId!,
});
const lookupPath = (record: CandidateRecord) => `/api/candidates/recordId/${encodeURIComponent(record.recordId!)}`;
const pageOf = (record: CandidateRecord) => `/candidates/recordId/${encodeURIComponent(record.recordId!)}`;

function stub(records: CandidateRecord[], answers: Record<string, () => Response | Promise<Response>> = {}) {
  const candidates = Object.fromEntries(withRecordId.map((record) => [lookupPath(record), () => envelope(record)]));
  return stubApi({ applicants: records.map(asApplicant), candidates: { ...candidates, ...answers } });
}

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const dateCell = (index: number) => within(rows()[index]!).getAllByRole('cell')[1]!;

async function queue(records: CandidateRecord[], answers?: Record<string, () => Response | Promise<Response>>) {
  const stubbed = stub(records, answers);
  const rendered = renderWithProviders('/applicants?status=waiting');
  await waitFor(() => expect(rows()).toHaveLength(records.length));
  return { ...stubbed, ...rendered };
}

withFakeEventSource();

describe('a clicked queue row', { timeout: 20_000 }, () => {
  it('is marked chosen and busy at once, while the click waits to be told from a double-click, then opens', async () => {
    const { router } = await queue([first, second]);
    fireEvent.click(dateCell(1), { detail: 1 });
    // Before: nothing on the row until its page came, 300 ms later.
    expect(rows()[1]).toHaveAttribute('aria-busy', 'true');
    expect(rows()[1]).toHaveAttribute('data-opening', 'true');
    expect(rows()[1]).toHaveClass('bg-blue-100', 'cursor-progress');
    expect(rows()[0]).not.toHaveAttribute('aria-busy');
    expect(router.state.location.pathname).toBe('/applicants');
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(second)));
  });

  it('a second click (a double-click) takes the mark away as it cancels the open', async () => {
    const { router, requests } = await queue([first, second]);
    fireEvent.mouseDown(dateCell(0), { detail: 1 });
    fireEvent.click(dateCell(0), { detail: 1 });
    expect(rows()[0]).toHaveAttribute('aria-busy', 'true');
    fireEvent.mouseDown(dateCell(0), { detail: 2 });
    expect(rows()[0]).not.toHaveAttribute('aria-busy');
    expect(rows()[0]).not.toHaveAttribute('data-opening');
    expect(router.state.location.pathname).toBe('/applicants');
    expect(requests.filter((url) => url.startsWith('/api/candidates'))).toEqual([]);
  });

  it('a selection made meanwhile takes the mark away when the wait ends, and opens nothing', async () => {
    const { router, requests } = await queue([first, second]);
    fireEvent.click(dateCell(0), { detail: 1 });
    expect(rows()[0]).toHaveAttribute('aria-busy', 'true');
    window.getSelection()?.selectAllChildren(within(rows()[0]!).getByText(first.refId!));
    await waitFor(() => expect(rows()[0]).not.toHaveAttribute('aria-busy'));
    expect(router.state.location.pathname).toBe('/applicants');
    expect(requests.filter((url) => url.startsWith('/api/candidates'))).toEqual([]);
    window.getSelection()?.removeAllRanges();
  });
});
