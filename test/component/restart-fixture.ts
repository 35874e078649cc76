import { waitFor } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import { type CandidateRecord, statusLevelOf } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { FakeEventSource } from './fake-event-source.ts';
import { apiError, envelope, json, renderWithProviders, stubApi, testMeta } from './render.tsx';

/**
 * A support user's candidate page on a server that restarts under it (server-restart, copy-after-restart):
 * no hooks here (a helper module's own hook would run for the first file of a worker only); the files call
 * withFakeEventSource() themselves.
 */

const samples = (await sampleCandidates({ now: new Date(), pictures: false })).map((c) => c.record);
export const record = samples.find((r) => r.refId === 'support-ticket-4410')!;
export const FIELDS = ['rejectionReason', 'reviewReason', 'resubmitHint'];
export const SAM: SessionInfo = { mode: 'users', user: 'sam', role: 'support' };

export const forSupport = (candidate: CandidateRecord): CandidateRecord => ({
  ...statusLevelOf(candidate),
  customFields: Object.fromEntries(Object.entries(candidate.customFields ?? {}).filter(([name]) => FIELDS.includes(name))),
});

/**
 * The support user's candidate page, with a server that can be taken down (`server.down`), lose its session
 * store (`server.storeDown`: it answers, 503 `store_unavailable`) and end the session (`server.session`).
 */
export function showDuringDeploys(down = false) {
  const server = { down, storeDown: false, session: SAM as SessionInfo };
  const { fetchMock } = stubApi({
    session: () =>
      server.storeDown
        ? apiError(503, 'store_unavailable', 'Candidate Lookup cannot reach its session store (Redis).', {}, { 'Retry-After': '5' })
        : json(server.session),
    meta: testMeta({ supportFields: FIELDS }),
    candidates: {
      [`/api/candidates/refId/${record.refId}`]: envelope(forSupport(record)),
      '/api/export': () => json({ status: 'success' }),
    },
  });
  // Nothing listens while the server restarts: the browser's fetch fails as it does on a refused connection.
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    server.down ? Promise.reject(new TypeError('Failed to fetch')) : fetchMock(input, init),
  );
  renderWithProviders(`/candidates/refId/${record.refId}`);
  return { server, fetchMock };
}

/** `showDuringDeploys`, once the page's live stream is open: the page a restart comes under. */
export async function pageWithStream() {
  const shown = showDuringDeploys();
  await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
  const source = FakeEventSource.instances[0]!;
  source.open();
  return { ...shown, source };
}
export type Shown = Awaited<ReturnType<typeof pageWithStream>>;
