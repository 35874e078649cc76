import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import type { ActivityAnswer } from '../../src/kyc/contract/audit-search.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { trailMayLack } from '../../src/kyc/view/activity.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { auditRow } from './audit-row.ts';
import { withFakeEventSource } from './fake-event-source.ts';
import { envelope, renderWithProviders, stubApi } from './render.tsx';

/**
 * A candidate's Activity read from a trail that may lack lines: the audit table unreachable (this
 * server's files only), lines not in the table yet, another instance not reporting, a search of the
 * files stopped before the oldest day. "Nobody else has looked at this candidate today" was said as a
 * fact, while another instance's reviewer may have opened them an hour before; and a line after a break
 * in the audit chain was listed as any other.
 */
const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const candidate = samples.find((record) => record.recordId && record.refId && !record.isArchived) as CandidateRecord;
const ANA: SessionInfo = { mode: 'users', user: 'ana', role: 'compliance' };

withFakeEventSource();

function openCandidate(activity: ActivityAnswer) {
  stubApi({
    candidates: { [`/api/candidates/recordId/${encodeURIComponent(candidate.recordId!)}`]: () => envelope(candidate) },
    session: ANA,
    activity,
  });
  renderWithProviders(`/candidates/recordId/${encodeURIComponent(candidate.recordId!)}`);
}

describe('the Activity of a candidate, read from a trail that may lack lines', { timeout: 20_000 }, () => {
  it('says nobody else looked only as far as could be read, and why, when the audit table could not be read', async () => {
    openCandidate({
      rows: [auditRow({ user: 'ana', id: candidate.refId!, requestId: 'req-ana' })],
      since: '',
      more: false,
      source: { kind: 'files', fallback: 'connect ECONNREFUSED 127.0.0.1:5432' },
    });
    // Before: "Nobody else has looked at this candidate today."
    const summary = await screen.findByText(
      "Nobody else has looked at this candidate today, as far as could be read (this server's audit files only).",
    );
    await userEvent.setup().click(summary);
    const card = screen.getByTestId('activity');
    expect(
      within(card).getByText(
        /The audit table cannot be read \(connect ECONNREFUSED 127\.0\.0\.1:5432\): these are this server's files only/,
      ),
    ).toBeVisible();
  });

  it('says so of an instance not reporting, and of a search of the files that stopped, with nobody found at all', async () => {
    openCandidate({
      rows: [],
      since: '',
      more: false,
      source: { kind: 'database', notReporting: [{ instance: 'app2', since: new Date(Date.now() - 600_000).toISOString() }] },
      searched: { complete: false, lines: 50_000, stoppedBy: 'lines' },
    });
    const summary = await screen.findByText(
      'Nobody else has looked at this candidate today, as far as could be read (an instance not reporting; the search stopped before the oldest day).',
    );
    await userEvent.setup().click(summary);
    const card = screen.getByTestId('activity');
    expect(within(card).getByText(/Nobody has looked at this candidate in the last 90 days, as far as could be read\./)).toBeVisible();
    expect(within(card).getByText(/^app2:/)).toBeVisible();
    expect(
      within(card).getByText(/Searched 50,000 lines.*then stopped \(the lines one search may read\): older lines were not read\./),
    ).toBeVisible();
  });

  it('marks a row after a break in the audit chain as not vouched for, in words', async () => {
    openCandidate({
      rows: [
        auditRow({ user: 'bob', id: candidate.refId!, requestId: 'req-bob', unvouched: true }),
        auditRow({ user: 'sam', id: candidate.refId!, requestId: 'req-sam' }),
      ],
      since: '',
      more: false,
      source: { kind: 'database' },
    });
    await userEvent.setup().click(await screen.findByText(/^Looked at today by /));
    const rows = within(await screen.findByRole('table', { name: 'Who looked at this candidate, newest first' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((row) => row.textContent?.includes('Not vouched for by the chain'))).toEqual([true, false]);
  });

  it('property: a trail that may lack lines never lets the Activity say as a fact that nobody else looked', () => {
    const instance = fc.string({ minLength: 1, maxLength: 8 });
    const time = fc.date({ min: new Date('2026-01-01'), max: new Date('2026-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
    fc.assert(
      fc.property(
        fc.record(
          {
            fallback: fc.string({ maxLength: 20 }),
            behind: fc.array(fc.record({ instance, lines: fc.nat(), since: time }), { maxLength: 2 }),
            notReporting: fc.array(fc.record({ instance, since: time }), { maxLength: 2 }),
          },
          { requiredKeys: [] },
        ),
        fc.option(fc.record({ complete: fc.boolean(), lines: fc.nat() }), { nil: undefined }),
        fc.constantFrom('database' as const, 'files' as const),
        (source, searched, kind) => {
          const answer = { source: { kind, ...source }, ...(searched ? { searched } : {}) };
          const lacks =
            source.fallback !== undefined ||
            (source.behind?.length ?? 0) > 0 ||
            (source.notReporting?.length ?? 0) > 0 ||
            (searched !== undefined && !searched.complete);
          expect(trailMayLack(answer) !== undefined).toBe(lacks);
        },
      ),
    );
  });
});
