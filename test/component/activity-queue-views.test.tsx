import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { auditRow } from './audit-row.ts';
import { withFakeEventSource } from './fake-event-source.ts';
import { envelope, renderWithProviders, stubApi } from './render.tsx';

/**
 * A candidate's Activity lists every page of the queue that showed them: a colleague paging the queue all
 * morning buried the lookups, prints and copies under their views (UX review: 6 of 15 rows). One person's
 * views of one tab, one after another, are one row now, counted, and nothing else is folded.
 */
const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const candidate = samples.find((record) => record.recordId && record.refId && !record.isArchived) as CandidateRecord;
const ANA: SessionInfo = { mode: 'users', user: 'ana', role: 'compliance' };
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const view = (user: string, tab: string, minutes: number, more: Partial<Parameters<typeof auditRow>[0]> = {}) =>
  auditRow({ user, action: 'list', queueTab: tab, level: null, kind: null, id: null, time: minutesAgo(minutes), ...more });

withFakeEventSource();

describe("a candidate's Activity and the queue's views", { timeout: 20_000 }, () => {
  it('folds one person’s views of one tab, one after another, into one row, counted; lookups and other views stay rows of their own', async () => {
    const rows = [
      ...[1, 2, 3, 4, 5, 6].map((m) => view('dave', 'all', m)),
      auditRow({ user: 'ben', time: minutesAgo(7) }),
      view('dave', 'all', 8),
      view('dave', 'waiting', 9),
      view('carol', 'waiting', 10),
      view('carol', 'waiting', 11, { unvouched: true }),
      view('carol', 'waiting', 12),
    ];
    stubApi({
      candidates: { [`/api/candidates/recordId/${encodeURIComponent(candidate.recordId!)}`]: () => envelope(candidate) },
      session: ANA,
      activity: { rows, since: '', more: false, source: { kind: 'files' } },
    });
    renderWithProviders(`/candidates/recordId/${encodeURIComponent(candidate.recordId!)}`);
    await userEvent.setup().click(await screen.findByText(/saw them in the queue/));
    const shown = within(await screen.findByRole('table', { name: 'Who looked at this candidate, newest first' }))
      .getAllByRole('row')
      .slice(1)
      .map((row) => [row.querySelector('[data-label="Who"]')!.textContent, row.querySelector('[data-label="What"]')!.textContent]);
    // Before: a row per view, twelve of them.
    expect(shown.map(([who, what]) => `${who}: ${what!.replace(/ since .*/, ' since …')}`)).toEqual([
      'dave compliance: Saw in the queue (All tab), 6 times since …',
      'ben compliance: Looked up',
      'dave compliance: Saw in the queue (All tab)',
      'dave compliance: Saw in the queue (Waiting tab)',
      'carol compliance: Saw in the queue (Waiting tab)',
      'carol compliance: Saw in the queue (Waiting tab)',
      'carol compliance: Saw in the queue (Waiting tab)',
    ]);
  });
});
