import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { envelope, renderWithProviders, stubApi } from './render.tsx';

/** The page of a record sent as is (its fields as the service wrote them, not as this project reads them). */
async function show(record: Record<string, unknown>) {
  const path = `/api/candidates/refId/${record.refId as string}`;
  stubApi({ candidates: { [path]: envelope(record as CandidateRecord) } });
  renderWithProviders(`/candidates/refId/${record.refId as string}`);
  return within(await screen.findByRole('list', { name: 'Status changes, oldest first' }));
}

describe('status history: which dates are steps', () => {
  it('shows lastLoginDate and amlCheckDate under Other dates, named as sent, never as status steps', async () => {
    const list = await show({
      status: 'inreview',
      refId: 'ref-other-dates',
      waitingDate: '2026-01-01T10:00:00.000Z',
      inreviewDate: '2026-01-02T10:00:00.000Z',
      lastLoginDate: '2026-01-09T10:00:00.000Z',
      amlCheckDate: '2026-01-03T10:00:00.000Z',
    });
    const steps = list.getAllByRole('listitem').map((li) => li.getAttribute('data-status'));
    expect(steps).toEqual(['waiting', 'inreview']);
    expect(screen.queryByText(/last_login|aml_check/)).not.toBeInTheDocument();
    const other = screen.getByTestId('other-dates');
    expect(within(other).getByRole('heading', { name: 'Other dates' })).toBeInTheDocument();
    const named = [...other.querySelectorAll('[data-field]')].map((row) => row.getAttribute('data-field'));
    expect(named).toEqual(['amlCheckDate', 'lastLoginDate']);
    expect(within(other).getByText('lastLoginDate')).toBeInTheDocument();
  });

  it('keeps the date of a status that reads as one (escalatedDate) and the current status’s own (onHoldDate) as steps', async () => {
    const list = await show({
      status: 'on_hold',
      refId: 'ref-open-statuses',
      rejectedDate: '2026-01-03T10:00:00.000Z',
      escalatedDate: '2026-01-05T10:00:00.000Z',
      onHoldDate: '2026-01-06T10:00:00.000Z',
      updatedDate: '2026-01-07T10:00:00.000Z',
    });
    const steps = list.getAllByRole('listitem').map((li) => li.getAttribute('data-status'));
    expect(steps).toEqual(['rejected', 'escalated', 'on_hold']);
    expect(within(screen.getByTestId('other-dates')).getByText('updatedDate')).toBeInTheDocument();
  });
});
