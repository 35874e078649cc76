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
/** A candidate with certificates (a compliance user's page shows them). */
export const certified = samples.find((r) => r.refId === 'user-7781')!;
export const FIELDS = ['rejectionReason', 'reviewReason', 'resubmitHint'];
export const SAM: SessionInfo = { mode: 'users', user: 'sam', role: 'support' };

export const forSupport = (candidate: CandidateRecord): CandidateRecord => ({
  ...statusLevelOf(candidate),
  customFields: Object.fromEntries(Object.entries(candidate.customFields ?? {}).filter(([name]) => FIELDS.includes(name))),
});

/** Whose page, and of which candidate: by default the support user's, at status level. */
export interface RestartPage {
  session: SessionInfo;
  candidate: CandidateRecord;
}
const SUPPORT_PAGE: RestartPage = { session: SAM, candidate: forSupport(record) };

/**
 * The support user's candidate page (or `page`'s), with a server that can be taken down (`server.down`), lose
 * its session store (`server.storeDown`: it answers, 503 `store_unavailable`) and end the session (`server.session`).
 */
export function showDuringDeploys(down = false, page: RestartPage = SUPPORT_PAGE) {
  const server = { down, storeDown: false, session: page.session };
  const { fetchMock } = stubApi({
    session: () =>
      server.storeDown
        ? apiError(503, 'store_unavailable', 'Candidate Lookup cannot reach its session store (Redis).', {}, { 'Retry-After': '5' })
        : json(server.session),
    meta: testMeta({ supportFields: FIELDS }),
    candidates: {
      [`/api/candidates/refId/${page.candidate.refId}`]: envelope(page.candidate),
      '/api/export': () => json({ status: 'success' }),
    },
  });
  // Nothing listens while the server restarts: the browser's fetch fails as it does on a refused connection.
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    server.down ? Promise.reject(new TypeError('Failed to fetch')) : fetchMock(input, init),
  );
  renderWithProviders(`/candidates/refId/${page.candidate.refId}`);
  return { server, fetchMock };
}

/** `showDuringDeploys`, once the page's live stream is open: the page a restart comes under. */
export async function pageWithStream(page?: RestartPage) {
  const shown = showDuringDeploys(false, page);
  await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
  const source = FakeEventSource.instances[0]!;
  source.open();
  return { ...shown, source };
}
export type Shown = Awaited<ReturnType<typeof pageWithStream>>;
