import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import type { Applicant } from '../../src/kyc/contract/applicants.ts';
import { renderWithProviders, stubApi } from './render.tsx';

/**
 * Issue 32: the queue page's toggles, "Over SLA only" (a tab of a status with an SLA) and "Certificate
 * needs attention" (compliance users), asked of the server as `overSla=1` and `attention=1`, kept in
 * the address like the tab and the page.
 */

const COMPLIANCE: SessionInfo = { mode: 'proxy', user: 'ana', role: 'compliance' };
const SUPPORT: SessionInfo = { mode: 'proxy', user: 'sam', role: 'support' };
const LEAD: SessionInfo = { mode: 'proxy', user: 'lena', role: 'lead' };
const applicants: Applicant[] = ['waiting', 'waiting', 'approved'].map((status, i) => ({
  status,
  recordId: `rec-${i}`,
  refId: `ref-${i}`,
}));

function showQueue(session: SessionInfo, path: string) {
  const api = stubApi({ session, applicants, queueExtras: { waiting: { slaHours: 24, overSla: 1 } } });
  const utils = renderWithProviders(path);
  const views = () => api.requests.filter((url) => url.startsWith('/api/applicants'));
  return { ...utils, views };
}

describe('the queue’s toggles', () => {
  it('"Over SLA only" and "Certificate needs attention" are labelled checkboxes that ask the server and stay in the address', async () => {
    const user = userEvent.setup();
    const { router, views } = showQueue(COMPLIANCE, '/applicants?status=waiting');
    const over = await screen.findByRole('checkbox', { name: 'Over SLA only' });
    expect(screen.getByRole('group', { name: 'Show only' })).toContainElement(over);
    // What the SLA is, said where it is offered (the view's slaHours).
    expect(over).toHaveAccessibleDescription('In this status for more than 24 hours.');
    expect(over).not.toBeChecked();
    await user.click(over);
    await waitFor(() => expect(router.state.location.search).toBe('?status=waiting&overSla=1'));
    await waitFor(() => expect(views()).toContain('/api/applicants?status=waiting&skip=0&limit=50&counts=1&overSla=1'));
    expect(screen.getByRole('checkbox', { name: 'Over SLA only' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Certificate needs attention' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=waiting&overSla=1&attention=1'));
    await waitFor(() => expect(views()).toContain('/api/applicants?status=waiting&skip=0&limit=50&counts=1&overSla=1&attention=1'));
    expect(screen.getByRole('checkbox', { name: 'Certificate needs attention' })).toBeChecked();
    const results = await axe.run(screen.getByTestId('queue-filters'), { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });

  it('a tab without an SLA offers no "Over SLA only", and leaves it out of its address; attention stays across tabs', async () => {
    const user = userEvent.setup();
    const { router, views } = showQueue(COMPLIANCE, '/applicants?status=waiting&overSla=1&attention=1');
    await screen.findByRole('table');
    await user.click(screen.getByRole('tab', { name: /^Approved/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=approved&attention=1'));
    await waitFor(() => expect(views()).toContain('/api/applicants?status=approved&skip=0&limit=50&counts=1&attention=1'));
    expect(screen.queryByRole('checkbox', { name: 'Over SLA only' })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Certificate needs attention' })).toBeChecked();
  });

  it('a lead has "Certificate needs attention" as a compliance user has, and a link that asks for it asks the server', async () => {
    const { views } = showQueue(LEAD, '/applicants?status=waiting&attention=1');
    expect(await screen.findByRole('checkbox', { name: 'Certificate needs attention' })).toBeChecked();
    await waitFor(() => expect(views()).toContain('/api/applicants?status=waiting&skip=0&limit=50&counts=1&attention=1'));
  });

  it('support users have no "Certificate needs attention", and a link that asks for it shows the tab whole', async () => {
    const { views } = showQueue(SUPPORT, '/applicants?status=waiting&attention=1');
    await screen.findByRole('table');
    expect(await screen.findByRole('checkbox', { name: 'Over SLA only' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: /attention/ })).not.toBeInTheDocument();
    expect(views().some((url) => url.includes('attention'))).toBe(false);
  });

  it('an empty filtered page says what the toggles left out, not that the tab is empty', async () => {
    const api = stubApi({ session: COMPLIANCE, applicants: [], queueExtras: { waiting: { slaHours: 24, overSla: 0 } } });
    renderWithProviders('/applicants?status=waiting&overSla=1');
    expect(await screen.findByText('No candidates of this tab are over the SLA.')).toBeInTheDocument();
    expect(within(screen.getByTestId('queue-filters')).getByRole('checkbox', { name: 'Over SLA only' })).toBeChecked();
    expect(api.requests).toContain('/api/applicants?status=waiting&skip=0&limit=50&counts=1&overSla=1');
  });

  it('says the certificates are known only for candidates opened in the app, on the toggle and on an empty page', async () => {
    stubApi({ session: COMPLIANCE, applicants: [], queueExtras: { waiting: { slaHours: 24, overSla: 0 } } });
    renderWithProviders('/applicants?status=waiting&overSla=1&attention=1');
    const empty = await screen.findByText(/^No candidates of this tab/);
    expect(empty).toHaveTextContent(
      'No candidates of this tab are over the SLA and have a certificate that needs attention, of those opened in this app.',
    );
    const toggle = screen.getByRole('checkbox', { name: 'Certificate needs attention' });
    expect(toggle).toHaveAccessibleDescription(
      'Known for candidates opened in this app: the queue does not read certificates from the list.',
    );
  });
});
