import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import { json, renderWithProviders, stubApi } from './render.tsx';

/**
 * What the candidate page says of what an answer lacks (the audit against the service's published
 * answers): only the status and one id can be relied on, and a key has one of three scopes, so a missing
 * section or id is said as "not in this response", never as a fact about the key or the candidate; and a
 * field the notice above names as unreadable is never "not provided" beside it.
 */

const BASE = {
  status: 'inreview',
  refId: 'ref-1',
  recordId: '65f2000000000000000000a1',
  blockPassID: 'bp-1',
  isArchived: false,
  waitingDate: '2024-03-01T10:00:00.000Z',
  inreviewDate: '2024-03-02T10:00:00.000Z',
};

/** Each answer by the path it is asked at, as the service sent it (not as this project's contract would write it). */
function showAnswers(answers: Record<string, unknown>, path: string, session?: SessionInfo) {
  const candidates = Object.fromEntries(Object.entries(answers).map(([at, data]) => [at, () => json({ status: 'success', data })]));
  stubApi({ candidates, ...(session ? { session } : {}) });
  return renderWithProviders(path);
}

afterEach(() => vi.restoreAllMocks());

describe('an answer without a refId', () => {
  it('says "not in this response" in the header, as for a missing recordId, never "none assigned"', async () => {
    const { refId: _, ...withoutRefId } = BASE;
    showAnswers({ '/api/candidates/recordId/65f2000000000000000000a1': withoutRefId }, '/candidates/recordId/65f2000000000000000000a1');
    const header = (await screen.findByRole('heading', { level: 1 })).closest('header')!;
    expect(within(header).getByText('refId').nextElementSibling).toHaveTextContent(/^not in this response$/);
    expect(document.body).not.toHaveTextContent(/none assigned/);
  });
});
