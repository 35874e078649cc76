import { describe, expect, it } from 'vitest';
import { type CandidateRecord, isStatusLevel, statusLevelOf } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';

const full = (await sampleCandidates({ now: new Date() }))[0]!.record;

describe('the status level (one allowlist for the sandbox, the proxy and the page)', () => {
  it('keeps the status, ids, archive flag, submission count and every date, and nothing else', () => {
    const record: CandidateRecord = {
      ...full,
      serviceID: 'SVC-1',
      futureField: 'not listed yet',
      willArchiveAtDate: '2026-01-01T00:00:00.000Z',
    };
    const reduced = statusLevelOf(record);
    expect(Object.keys(reduced).sort()).toEqual(
      [
        'status',
        'refId',
        'recordId',
        'isArchived',
        'blockPassID',
        'serviceID',
        'submitCount',
        'willArchiveAtDate',
        ...Object.keys(full).filter((k) => k.endsWith('Date')),
      ].sort(),
    );
    expect(isStatusLevel(reduced)).toBe(true);
    expect(isStatusLevel(full)).toBe(false);
    expect(isStatusLevel({ ...reduced, customFields: {} })).toBe(false);
  });
});
