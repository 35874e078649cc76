import { expect } from 'vitest';
import { applicantsPageSchema, type ApplicantsPage } from '../../src/kyc/contract/applicants.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { CRAWL_TABS, crawlField } from '../../src/server/lookup/queue-crawl-state.ts';
import type { QueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import type { RawResponse } from './http.ts';

/** What the queue's server tests share: who asks, how a page is read, and a whole tab page by page. */

export const gateway = () => createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] });
export const SUPPORT = { 'x-user': 'sam', 'x-role': 'support' };
export const COMPLIANCE = { 'x-user': 'ana', 'x-role': 'compliance' };
export const LEAD = { 'x-user': 'lena', 'x-role': 'lead' };

/**
 * An answered page, each row checked to carry a presence room per id (a keyed hash, never the id) and
 * then given without them: the tests compare rows by what the service and the index said.
 */
export const pageOf = (res: RawResponse): ApplicantsPage => {
  expect(res.status, res.body).toBe(200);
  const data = applicantsPageSchema.parse(JSON.parse(res.body)).data;
  const records = data.records.map(({ rooms, ...row }) => {
    expect(rooms, JSON.stringify(row)).toHaveLength([row.refId, row.recordId].filter(Boolean).length);
    for (const room of rooms ?? []) expect(room).toMatch(/^[0-9a-f]{32}$/);
    return row;
  });
  return { ...data, records };
};

type Getter = { get: (path: string, headers?: Record<string, string>) => Promise<RawResponse> };

/** A whole tab, page by page, as the browser asks it. */
export async function wholeTab(app: Getter, status: string, size = 50, who: Record<string, string> = SUPPORT) {
  const first = pageOf(await app.get(`/api/applicants?status=${status}&skip=0&limit=${size}`, who));
  const rows = [...first.records];
  for (let skip = size; skip < first.total; skip += size) {
    rows.push(...pageOf(await app.get(`/api/applicants?status=${status}&skip=${skip}&limit=${size}`, who)).records);
  }
  return { first, rows };
}

/** The recordIds of `list`, oldest first by `field` (the date of their status). */
export const oldestFirst = (list: readonly CandidateRecord[], field = 'waitingDate') =>
  [...list].sort((a, b) => Date.parse(String(a[field])) - Date.parse(String(b[field]))).map((r) => r.recordId);

/**
 * Every tab of `environment` marked read whole at `asOf`, as the crawler marks each once it has read it
 * (queue-crawl-state.ts): a tab never read that holds nothing counts "unread", not 0, so an index filled
 * by hand reads as a crawled one only once this is written.
 */
export async function readWhole(store: QueueIndexStore, environment: string, asOf: number): Promise<void> {
  await store.writeMeta(environment, Object.fromEntries(CRAWL_TABS.map((tab) => [crawlField(tab), JSON.stringify({ asOf })])));
}
