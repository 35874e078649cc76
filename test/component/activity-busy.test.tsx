import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { auditRow } from './audit-row.ts';
import { withFakeEventSource } from './fake-event-source.ts';
import { envelope, renderWithProviders, stubApi } from './render.tsx';

/**
 * A candidate's Activity while this server's audit files are read by many at once: the server answers
 * `503 server_busy` with a wait (trail-reads.ts), and the page asks again after it, where it said
 * "could not be read" until the reviewer opened the card.
 */
const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const candidate = samples.find((record) => record.recordId && record.refId && !record.isArchived) as CandidateRecord;
const ANA: SessionInfo = { mode: 'users', user: 'ana', role: 'compliance' };

withFakeEventSource();

const busy = () =>
  new Response(
    JSON.stringify({
      status: 'error',
      error: {
        code: 'server_busy',
        message: 'The audit trail is being read by many people at once on this server. Try again in 1 s.',
        retryAfterSeconds: 1,
      },
    }),
    { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '1' } },
  );

function openCandidate(answers: Array<() => Response>) {
  let asked = 0;
  const api = stubApi({
    candidates: { [`/api/candidates/recordId/${encodeURIComponent(candidate.recordId!)}`]: () => envelope(candidate) },
    session: ANA,
    activity: () => answers[Math.min(asked++, answers.length - 1)]!(),
  });
  renderWithProviders(`/candidates/recordId/${encodeURIComponent(candidate.recordId!)}`);
  return { api, asked: () => asked };
}

describe('the Activity of a candidate while the trail is busy', { timeout: 20_000 }, () => {
  it('asks again after the wait a 503 server_busy names, and shows what it then reads', async () => {
    const read = () =>
      new Response(
        JSON.stringify({
          rows: [auditRow({ user: 'ben', id: candidate.refId!, requestId: 'req-ben' })],
          since: '',
          more: false,
          source: { kind: 'files' },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    const { asked } = openCandidate([busy, read]);
    expect(await screen.findByText(/^Looked at today by ben/, undefined, { timeout: 5_000 })).toBeInTheDocument();
    expect(asked()).toBe(2);
  });

  it('says the wait once it has asked three times and the trail is still busy', async () => {
    const { asked } = openCandidate([busy]);
    expect(await screen.findByText('could not be read', undefined, { timeout: 8_000 })).toBeInTheDocument();
    expect(asked()).toBe(3);
    expect(screen.getByText(/The audit trail is being read by many people at once on this server/)).toBeInTheDocument();
  });
});
