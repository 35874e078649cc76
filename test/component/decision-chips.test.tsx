import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DecisionSummary } from '../../src/app/candidate/decision-summary.tsx';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';

/**
 * The decision summary's chips of a record of many certificates: a chip each drew 20,000 of them, about
 * 8 s before the page could be used. At most 24, the worst first, and the rest counted by what they mean.
 */
const NOW = new Date('2026-12-02T12:00:00.000Z');

function certificate(result: string): string {
  return JSON.stringify({ Claim: { reviewBody: { result } } });
}

function record(certs: Record<string, string>): CandidateRecord {
  return { status: 'inreview', refId: 'cust-1', recordId: '65f1c2a9e4b0d3a1f0c9b899', isArchived: false, certs } as CandidateRecord;
}

const chips = () =>
  [...within(screen.getByRole('list', { name: 'Certificate results' })).queryAllByRole('listitem')].filter((item) =>
    item.hasAttribute('data-cert-chip'),
  );

describe("the decision summary's certificate chips", () => {
  it('attack: 20,000 certificates: 24 chips, the failed and the ones to look at first, and the rest counted by what they mean', () => {
    const certs = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`provider${i}-service-cert`, certificate('clear')]));
    // Far down the list: a failure, two to look at and one this tool cannot read.
    certs['provider19990-service-cert'] = certificate('rejected');
    certs['provider15000-service-cert'] = certificate('consider');
    certs['provider17000-service-cert'] = certificate('potential_match');
    certs['provider18000-service-cert'] = '{not json';
    render(<DecisionSummary record={record(certs)} now={NOW} />);
    const shown = chips();
    expect(shown).toHaveLength(24);
    expect(shown.slice(0, 4).map((chip) => chip.getAttribute('data-cert-chip'))).toEqual([
      'provider19990-service-cert',
      'provider17000-service-cert',
      'provider15000-service-cert',
      'provider18000-service-cert',
    ]);
    // Then the passes, in the order sent.
    expect(shown[4]!.getAttribute('data-cert-chip')).toBe('provider0-service-cert');
    expect(screen.getByTestId('more-chips')).toHaveTextContent('and 19,976 more: 19,976 passed, all under Certificates');
  });

  it('counts what is left by what it means, the failed first', () => {
    const certs = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`provider${i}-service-cert`, certificate(i < 26 ? 'rejected' : i < 28 ? 'consider' : 'clear')]),
    );
    render(<DecisionSummary record={record(certs)} now={NOW} />);
    expect(chips()).toHaveLength(24);
    expect(screen.getByTestId('more-chips')).toHaveTextContent('and 6 more: 2 failed, 2 need attention, 2 passed, all under Certificates');
  });

  it('shows up to 24 chips as before: every one, in the order sent, with nothing counted', () => {
    const certs = Object.fromEntries(
      Array.from({ length: 24 }, (_, i) => [`provider${i}-service-cert`, certificate(i === 23 ? 'rejected' : 'clear')]),
    );
    render(<DecisionSummary record={record(certs)} now={NOW} />);
    expect(chips().map((chip) => chip.getAttribute('data-cert-chip'))).toEqual(
      Array.from({ length: 24 }, (_, i) => `provider${i}-service-cert`),
    );
    expect(screen.queryByTestId('more-chips')).toBeNull();
  });
});
