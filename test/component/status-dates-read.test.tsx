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

describe('status dates that could not be read', () => {
  const UNREADABLE = {
    status: 'inreview',
    refId: 'ref-unreadable-dates',
    inreviewDate: '2026-01-12 09:30:00',
    waitingDate: 1736500000000,
  };

  it('shows each on the timeline as sent, says there are no readable ones, and gives the summary its since as sent', async () => {
    const list = await show(UNREADABLE);
    const steps = list.getAllByRole('listitem');
    expect(steps.map((li) => li.getAttribute('data-unread-date'))).toEqual(['inreviewDate', 'waitingDate']);
    expect(steps[0]).toHaveTextContent('inreviewDate: 2026-01-12 09:30:00, as sent: not an ISO 8601 time');
    expect(steps[0]).toHaveAttribute('aria-current', 'step');
    expect(steps[1]).toHaveTextContent('waitingDate: 1736500000000, as sent: not an ISO 8601 time');
    expect(screen.getByText('The response carries no readable status dates.')).toBeInTheDocument();
    expect(screen.queryByText('The response carries no status dates.')).not.toBeInTheDocument();
    const strip = screen.getByRole('region', { name: 'Decision summary' });
    expect(within(strip).getByTestId('summary-status')).toHaveTextContent('since 2026-01-12 09:30:00 (as sent: not an ISO 8601 time)');
  });

  it('attack: a date field holding a name is said unreadable by its kind, never shown', async () => {
    const list = await show({ status: 'approved', refId: 'ref-named-date', approvedDate: 'Ada Lovelace' });
    expect(list.getAllByRole('listitem')[0]).toHaveTextContent('approvedDate: could not be read (text found, not a time)');
    expect(screen.queryByText(/Ada Lovelace/)).not.toBeInTheDocument();
  });
});

describe('a current status that a later status date follows', () => {
  it('still marks the current status, and flags its since as doubtful on the timeline and in the decision summary', async () => {
    const list = await show({
      status: 'approved',
      refId: 'ref-later-date',
      waitingDate: '2026-01-10T10:00:00.000Z',
      approvedDate: '2026-01-11T10:00:00.000Z',
      inreviewDate: '2026-01-13T10:00:00.000Z',
    });
    const steps = list.getAllByRole('listitem');
    expect(steps.map((li) => li.getAttribute('data-status'))).toEqual(['waiting', 'approved', 'inreview']);
    expect(steps[1]).toHaveAttribute('aria-current', 'step');
    expect(within(steps[1]!).getByTestId('later-date')).toHaveTextContent(
      "a later status date exists: the service's order of events is unclear",
    );
    expect(within(steps[2]!).queryByTestId('later-date')).not.toBeInTheDocument();
    const strip = screen.getByRole('region', { name: 'Decision summary' });
    expect(within(strip).getByTestId('summary-status')).toHaveTextContent(
      "(a later status date exists: the service's order of events is unclear)",
    );
  });

  it('says nothing of the kind when the current status is the latest', async () => {
    await show({
      status: 'approved',
      refId: 'ref-in-order',
      waitingDate: '2026-01-10T10:00:00.000Z',
      approvedDate: '2026-01-11T10:00:00.000Z',
    });
    expect(screen.queryByTestId('later-date')).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Decision summary' })).not.toHaveTextContent('a later status date exists');
  });
});
