import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Certificates } from '../../src/app/candidate/certificates.tsx';
import { DecisionSummary } from '../../src/app/candidate/decision-summary.tsx';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { stubApi } from './render.tsx';

/**
 * A record of more certificates than a page shows: the summary's chips and the Certificates section both
 * show the worst first, and each certificate is read once for that order, not once by each of them
 * (20,000 certificates cost a parse each, twice, before).
 */
const NOW = new Date('2026-12-02T12:00:00.000Z');

/** Each certificate's text of its own (its provider in it), so that a parse of it can be told from another's. */
const certificate = (i: number) =>
  JSON.stringify({ Claim: { provider: `p${i}`, reviewBody: { result: i % 7 === 3 ? 'rejected' : 'clear' } } });

afterEach(() => vi.restoreAllMocks());

describe("a record's certificates, ordered the worst first", () => {
  it('reads each certificate once for the order, though the chips and the section both show it', () => {
    const certs = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`provider${i}-service-cert`, certificate(i)]));
    const record = {
      status: 'inreview',
      refId: 'cust-1',
      recordId: '65f1c2a9e4b0d3a1f0c9b899',
      isArchived: false,
      certs,
    } as CandidateRecord;
    const texts = new Set(Object.values(certs));
    const reads = new Map<string, number>();
    const parse = JSON.parse;
    vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      if (texts.has(text)) reads.set(text, (reads.get(text) ?? 0) + 1);
      return parse(text, reviver);
    });
    stubApi();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <DecisionSummary record={record} now={NOW} />
        <Certificates certs={record.certs!} recordCopy={async () => {}} />
      </QueryClientProvider>,
    );
    // Both show the failures first.
    const chip = document.querySelector('[data-cert-chip]');
    const panel = document.querySelector('article[data-cert]');
    expect(chip?.getAttribute('data-cert-chip')).toBe('provider3-service-cert');
    expect(panel?.getAttribute('data-cert')).toBe('provider3-service-cert');
    // The certificates neither shows (past the first page of each) were read for the order alone: once.
    const unseen = Object.entries(certs).filter(
      ([slug]) => !document.querySelector(`[data-cert-chip="${slug}"], article[data-cert="${slug}"]`),
    );
    expect(unseen.length).toBeGreaterThan(100);
    expect(unseen.map(([, text]) => reads.get(text) ?? 0)).toEqual(unseen.map(() => 1));
  });
});
