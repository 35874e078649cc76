import { describe, expect, it } from 'vitest';
import { splitSummaryFields } from '../../src/kyc/view/summary-fields.ts';

describe('splitSummaryFields', () => {
  it('picks the default decision fields, in the configured order, and leaves the rest', () => {
    const { summary, rest } = splitSummaryFields({ customerTier: 'gold', screeningCase: 'CA-1', riskLevel: 'high', accountId: 'A-1' });
    expect(summary).toEqual([
      ['riskLevel', 'high'],
      ['screeningCase', 'CA-1'],
    ]);
    expect(rest).toEqual([
      ['customerTier', 'gold'],
      ['accountId', 'A-1'],
    ]);
  });

  it('matches names without regard to case, spaces, dashes or underscores', () => {
    const fields = { RISK_LEVEL: 'low', 'Rejection note': 'blurred', 'review-reason': 'address', tier: 'x' };
    expect(splitSummaryFields(fields).summary.map(([name]) => name)).toEqual(['RISK_LEVEL', 'Rejection note', 'review-reason']);
    expect(splitSummaryFields(fields, ['Tier']).summary).toEqual([['tier', 'x']]);
  });

  it('has nothing to show for a record without custom fields', () => {
    expect(splitSummaryFields(undefined)).toEqual({ summary: [], rest: [] });
  });
});
