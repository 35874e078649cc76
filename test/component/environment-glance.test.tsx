import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EnvironmentInfo } from '../../src/kyc/contract/api.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { envelope, pageStatus, renderWithProviders, stubApi, testMeta } from './render.tsx';

const production: EnvironmentInfo = { name: 'production', label: 'Production', clientId: 'acme_kyc', upstream: 'remote', tone: 'danger' };
const staging: EnvironmentInfo = { name: 'staging', label: 'Staging', clientId: 'acme_staging', upstream: 'remote', tone: 'warning' };
const plain: EnvironmentInfo = { name: 'qa', label: 'QA', clientId: 'acme_qa', upstream: 'remote' };
const sandbox: EnvironmentInfo = { name: 'sandbox', label: 'Sandbox', upstream: 'sandbox' };
const all = [production, staging, plain];
/** Each environment's meta path answers with that environment, as the server does. */
const metaOf = (url: string) => {
  const name = /^\/api\/e\/([^/]+)\/meta$/.exec(url)?.[1];
  return testMeta({ environment: all.find((e) => e.name === name) ?? production, environments: all });
};

describe('environments at a glance', { timeout: 20_000 }, () => {
  it.each([
    ['production', production, 'danger', ['border-red-300', 'bg-red-100', 'text-red-900'], ['border-t-4', 'border-t-red-600']],
    ['staging', staging, 'warning', ['border-amber-300', 'bg-amber-50', 'text-amber-900'], ['border-t-4', 'border-t-amber-500']],
    ['an environment without a tone', plain, 'neutral', ['border-slate-300', 'bg-slate-100', 'text-slate-800'], []],
    ['the sandbox', sandbox, 'sandbox', ['border-amber-400', 'bg-amber-100', 'text-amber-950', 'uppercase'], []],
  ])("%s: the badge takes the environment's tone, and so does the header's edge", async (_, environment, tone, badgeClasses, edge) => {
    stubApi({ meta: testMeta({ upstream: environment.upstream, environment, environments: [environment] }) });
    renderWithProviders('/');
    const badge = await screen.findByTestId('environment-badge');
    expect(badge).toHaveAttribute('data-tone', tone);
    for (const name of badgeClasses) expect(badge).toHaveClass(name);
    const header = screen.getByRole('banner');
    expect(header).toHaveAttribute('data-environment-tone', tone);
    for (const name of edge) expect(header).toHaveClass(name);
    if (edge.length === 0) expect(header.className).not.toMatch(/border-t-/);
  });

  it("switching environment on a candidate page opens the other environment's home with the id in the box, and looks up only on Enter", async () => {
    const record = (await sampleCandidates({ now: new Date() })).find((c) => c.record.refId === 'cust_000482')!.record;
    const { requests } = stubApi({
      meta: metaOf,
      candidates: {
        '/api/candidates/refId/cust_000482': envelope(record),
        '/api/e/staging/candidates/refId/cust_000482': envelope(record),
      },
    });
    const { router } = renderWithProviders('/candidates/refId/cust_000482');
    await screen.findByRole('heading', { level: 1, name: /王/ });
    fireEvent.change(screen.getByRole('combobox', { name: 'Environment' }), { target: { value: 'staging' } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/e/staging/'));
    const box = await screen.findByLabelText('refId to look up');
    expect(box).toHaveValue('cust_000482');
    await waitFor(() =>
      expect(pageStatus()).toHaveTextContent('Switched to the Staging environment: press Enter to look up refId cust_000482 here.'),
    );
    expect(await screen.findByTestId('environment-badge')).toHaveAttribute('data-tone', 'warning');
    expect(requests.filter((url) => url.startsWith('/api/e/staging/candidates/'))).toEqual([]);

    await waitFor(() => expect(box).toHaveFocus());
    await userEvent.setup().keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/e/staging/candidates/refId/cust_000482'));
    await screen.findByRole('heading', { level: 1, name: /王/ });
    expect(requests.filter((url) => url.startsWith('/api/e/staging/candidates/'))).toEqual(['/api/e/staging/candidates/refId/cust_000482']);
  });

  it('switching environment on another page keeps the page', async () => {
    stubApi({ meta: metaOf });
    const { router } = renderWithProviders('/batch');
    fireEvent.change(await screen.findByRole('combobox', { name: 'Environment' }), { target: { value: 'staging' } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/e/staging/batch'));
  });

  it('with two environments the switcher opens under Menu, after it in Tab order, and the badge stays in the row', async () => {
    stubApi({ meta: metaOf });
    renderWithProviders('/applicants');
    const switcher = await screen.findByRole('combobox', { name: 'Environment' });
    const menu = screen.getAllByRole('button', { name: 'Menu' }).find((button) => button.closest('#header-menu'));
    expect(switcher.closest('#header-menu')).not.toBeNull();
    expect(menu && menu.compareDocumentPosition(switcher) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByTestId('environment-badge').closest('#header-menu')).toBeNull();
    expect(screen.getByTestId('environment-badge')).toHaveTextContent('Production · acme_kyc');
  });
});
