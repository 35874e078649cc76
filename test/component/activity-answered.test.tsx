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
 * A candidate's Activity lists a lookup of another candidate whose answer was this one's record (refused
 * as other_candidate, or cut once part of it had been sent): found by the id that record gave, its row
 * names the id asked. It must read as what happened to this candidate's record, not as someone looking
 * this candidate up and being refused.
 */
const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const candidate = samples.find((record) => record.recordId && record.refId && !record.isArchived) as CandidateRecord;
const ANA: SessionInfo = { mode: 'users', user: 'ana', role: 'compliance' };

withFakeEventSource();

describe("the Activity of a candidate whose record was answered for another's lookup", { timeout: 20_000 }, () => {
  it("says which id was asked and that this candidate's record came back: refused, or part of it sent before the cut", async () => {
    const rows = [
      // carl asked for cust-b; the record came back as this candidate's past the hold, and was cut.
      auditRow({ user: 'carl', action: 'cut', id: 'cust-b', status: 502, code: 'other_candidate', requestId: 'req-carl' }),
      // sam asked for cust-a and was refused: this candidate's record came back.
      auditRow({ user: 'sam', id: 'cust-a', status: 502, code: 'other_candidate', requestId: 'req-sam' }),
      // ben asked for this candidate, and another's record came back: that is a lookup of this candidate.
      auditRow({ user: 'ben', id: candidate.refId!, status: 502, code: 'other_candidate', requestId: 'req-ben' }),
    ];
    stubApi({
      candidates: { [`/api/candidates/recordId/${encodeURIComponent(candidate.recordId!)}`]: () => envelope(candidate) },
      session: ANA,
      activity: { rows, since: '', more: false, source: { kind: 'files' } },
    });
    renderWithProviders(`/candidates/recordId/${encodeURIComponent(candidate.recordId!)}`);
    // Part of this candidate's record reached carl: not "nobody else has looked".
    const summary = await screen.findByText('No answer to anyone else arrived whole today; answer cut short for carl.');
    await userEvent.setup().click(summary);
    const what = within(await screen.findByRole('table', { name: 'Who looked at this candidate, newest first' }))
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelector('[data-label="What"]')!.textContent);
    // Before: "Answer cut short (would have been: other_candidate)" and "Looked up (refused: other_candidate)", as if each had asked for this candidate.
    expect(what).toEqual([
      "Asked for refId cust-b; the service answered with this candidate's record: part of it was sent before the answer was cut short",
      "Asked for refId cust-a; the service answered with this candidate's record: refused, nothing of it sent",
      'Looked up (refused: other_candidate)',
    ]);
  });
});
