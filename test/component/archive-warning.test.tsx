import { cleanup, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ApiMeta } from '../../src/kyc/contract/api.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { formatUtcMoment } from '../../src/app/candidate/archive-warning.tsx';
import { apiError, envelope, json, renderWithProviders, stubApi, testMeta } from './render.tsx';

const PATH = '/api/candidates/refId/ref-1';
const base: CandidateRecord = {
  status: 'waiting',
  refId: 'ref-1',
  recordId: 'rec-1',
  isArchived: false,
  blockPassID: 'bp-1',
  waitingDate: '2026-11-20T10:00:00.000Z',
  identities: { given_name: { type: 'string', value: 'Ada' }, family_name: { type: 'string', value: 'Lovelace' } },
};

function show(record: CandidateRecord, meta?: ApiMeta) {
  const api = stubApi({ candidates: { [PATH]: () => envelope(record) }, ...(meta ? { meta } : {}) });
  return { ...api, ...renderWithProviders('/candidates/refId/ref-1') };
}

const hhmmss = (date: Date) => `${date.toISOString().slice(11, 19)} UTC`;

describe('the archive-after-extract warning', () => {
  it('says the key archives after each lookup, with the exact time and a countdown', async () => {
    const at = new Date(Date.now() + 10_000);
    const { requests } = show({ ...base, willArchiveAtDate: at.toISOString() });
    const warning = await screen.findByTestId('archive-warning');
    expect(warning).toHaveAttribute('role', 'alert');
    expect(warning).toHaveTextContent(
      `This API key archives identity data after each lookup: the service deletes this candidate's identity data at ${hhmmss(at)} (in `,
    );
    // Ten seconds ahead when the record was made; a second or two may pass before the page shows it.
    const countdown = () => Number(/\(in (\d+) s\)/.exec(warning.textContent ?? '')?.[1]);
    expect(countdown()).toBeGreaterThanOrEqual(7);
    expect(countdown()).toBeLessThanOrEqual(10);
    const first = countdown();
    expect(warning.querySelector('time')).toHaveAttribute('datetime', at.toISOString());
    expect(warning).toHaveTextContent('Candidate Lookup now refuses further full lookups');
    expect(warning).toHaveTextContent('KYC_KEY_ARCHIVES_ON_EXTRACT=accept');
    // The record is still shown: the damage is done, the reviewer may as well see it.
    expect(screen.getByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
    // It counts down.
    await waitFor(() => expect(countdown()).toBeLessThan(first), { timeout: 3000 });
    // And /api/meta is asked again, so that the home page learns of it.
    await waitFor(() => expect(requests.filter((url) => url === '/api/meta').length).toBeGreaterThanOrEqual(2));
  });

  it('says plainly that this lookup started the deletion, and that it cannot be undone', async () => {
    show({ ...base, willArchiveAtDate: new Date(Date.now() + 10_000).toISOString() });
    const warning = await screen.findByTestId('archive-warning');
    expect(warning).toHaveTextContent('This lookup started the deletion; it cannot be undone.');
  });

  it.each([
    ['ten minutes ahead', 10 * 60_000],
    ['ten minutes behind', -10 * 60_000],
    ['a day behind', -24 * 3600_000],
  ])("counts from the server's clock (its Date header) when the browser's runs %s", async (_name, skewMs) => {
    const serverNow = new Date(Date.now() - skewMs);
    const at = new Date(serverNow.getTime() + 10_000);
    const answer = () =>
      json({ status: 'success', data: { ...base, willArchiveAtDate: at.toISOString() } }, 200, { date: serverNow.toUTCString() });
    stubApi({ candidates: { [PATH]: answer } });
    renderWithProviders('/candidates/refId/ref-1');
    const warning = await screen.findByTestId('archive-warning');
    // Ten seconds from the server's "now" (which the header gives to the whole second), not ten minutes or a day off.
    const countdown = Number(/\(in (\d+) s\)/.exec(warning.textContent ?? '')?.[1]);
    expect(countdown).toBeGreaterThanOrEqual(7);
    expect(countdown).toBeLessThanOrEqual(11);
    expect(warning).toHaveTextContent(hhmmss(at));
  });

  it('tells that the administrator accepted it, when /api/meta says so', async () => {
    const at = new Date(Date.now() + 10_000);
    show(
      { ...base, willArchiveAtDate: at.toISOString() },
      testMeta({ archivingKey: { detectedAt: new Date().toISOString(), accepted: true } }),
    );
    const warning = await screen.findByTestId('archive-warning');
    await waitFor(() => expect(warning).toHaveTextContent('The administrator has accepted this'));
  });

  it('says when the time has passed', async () => {
    const at = new Date(Date.now() - 30_000);
    show({ ...base, willArchiveAtDate: at.toISOString() });
    const warning = await screen.findByTestId('archive-warning');
    expect(warning).toHaveTextContent(`was due to delete this candidate's identity data at ${hhmmss(at)} (30 s ago)`);
  });

  it('stays away for an ordinary archive date (a day or more after the lookup) and for none', async () => {
    show({ ...base, willArchiveAtDate: new Date(Date.now() + 20 * 24 * 3600_000).toISOString() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.queryByTestId('archive-warning')).not.toBeInTheDocument();
  });

  it('a refused lookup explains why, without a retry', async () => {
    const message =
      "This server's API key archives identity data after each full lookup, so full lookups are refused. Set KYC_KEY_ARCHIVES_ON_EXTRACT=accept to allow them.";
    stubApi({ candidates: { [PATH]: apiError(409, 'archiving_key', message) } });
    renderWithProviders('/candidates/refId/ref-1');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveAttribute('data-error-kind', 'archiving_key');
    expect(screen.getByRole('heading', { name: 'Full lookups are refused: this API key deletes identity data' })).toBeInTheDocument();
    expect(alert).toHaveTextContent(message);
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('the home page shows compliance users a banner once /api/meta says so; support users get none', async () => {
    const archivingKey = { detectedAt: '2026-11-22T14:02:00.000Z', accepted: false };
    stubApi({ meta: testMeta({ archivingKey }) });
    renderWithProviders('/');
    const banner = await screen.findByTestId('archiving-key-banner');
    expect(banner).toHaveTextContent("This server's API key archives identity data after each full lookup");
    expect(banner).toHaveTextContent('Full lookups are refused until an administrator');
    expect(banner.querySelector('time')).toHaveAttribute('datetime', archivingKey.detectedAt);
    // A status key is configured: support users' lookups do not use this key.
    expect(banner).not.toHaveTextContent('KYC_API_KEY_STATUS');
    cleanup();
    stubApi({ meta: testMeta({ archivingKey }), session: { mode: 'proxy', user: 'sam', role: 'support' } });
    renderWithProviders('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Look up a candidate' })).toBeInTheDocument();
    // The header's badge comes from the same /api/meta answer that would show the banner.
    expect(await screen.findByTestId('environment-badge')).toHaveTextContent('Production');
    expect(screen.queryByTestId('archiving-key-banner')).not.toBeInTheDocument();
  });

  it('tells operators that support users need KYC_API_KEY_STATUS when they look with this key too', async () => {
    stubApi({ meta: testMeta({ archivingKey: { detectedAt: '2026-11-22T14:02:00.000Z', accepted: false, supportUsesFullKey: true } }) });
    renderWithProviders('/');
    const banner = await screen.findByTestId('archiving-key-banner');
    expect(banner).toHaveTextContent('Support users look candidates up with this key too');
    expect(banner).toHaveTextContent('support users need KYC_API_KEY_STATUS');
  });

  it('formats the moment with the date when it is not today (UTC)', () => {
    const now = new Date('2026-11-20T23:59:55.000Z');
    expect(formatUtcMoment(new Date('2026-11-20T23:59:59.400Z'), now)).toBe('23:59:59 UTC');
    expect(formatUtcMoment(new Date('2026-11-21T00:00:05.000Z'), now)).toBe('2026-11-21 00:00:05 UTC');
  });
});
