import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiMeta } from '../../src/kyc/contract/api.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { apiError, envelope, json, renderWithProviders, stubApi, testMeta } from './render.tsx';
import { inTimeZone } from './in-time-zone.ts';

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

/**
 * The moment to the second as the page writes it (en-US, a 12-hour clock) with its zone: in Singapore, the
 * reader's zone in these tests, or in UTC once the header's toggle says so.
 */
function clockText(date: Date, zone: 'singapore' | 'utc'): RegExp {
  const iso = new Date(date.getTime() + (zone === 'utc' ? 0 : 8 * 3600_000)).toISOString();
  const hour = Number(iso.slice(11, 13));
  const label = zone === 'utc' ? 'UTC' : '(SGT|UTC\\+8)';
  return new RegExp(`, ${String(hour % 12 || 12).padStart(2, '0')}:${iso.slice(14, 19)}\\s${hour < 12 ? 'AM' : 'PM'} ${label}`);
}
const hhmmss = (date: Date) => clockText(date, 'singapore');

/** The warning's heading after its time: the countdown. */
function afterTime(warning: HTMLElement): string {
  const heading = warning.querySelector('h2')!.textContent ?? '';
  const time = warning.querySelector('time')!.textContent ?? '';
  return heading.slice(heading.indexOf(time) + time.length);
}

// A zone other than UTC, without daylight saving: the warning's time must be in it, like every other time.
inTimeZone('Asia/Singapore');
afterEach(() => localStorage.clear());

describe('the archive-after-extract warning', () => {
  it('says the key archives after each lookup, with the exact time and a countdown', async () => {
    const at = new Date(Date.now() + 10_000);
    const { requests } = show({ ...base, willArchiveAtDate: at.toISOString() });
    const warning = await screen.findByTestId('archive-warning');
    expect(warning).toHaveAttribute('role', 'alert');
    expect(warning).toHaveTextContent(
      "This API key archives identity data after each lookup: the service deletes this candidate's identity data at ",
    );
    expect(warning.querySelector('time')).toHaveTextContent(hhmmss(at));
    expect(afterTime(warning)).toMatch(/^ \(in \d+ s\)$/);
    // Ten seconds ahead when the record was made; a second or two may pass before the page shows it.
    const countdown = () => Number(/\(in (\d+) s\)/.exec(warning.textContent ?? '')?.[1]);
    expect(countdown()).toBeGreaterThanOrEqual(7);
    expect(countdown()).toBeLessThanOrEqual(10);
    const first = countdown();
    expect(warning.querySelector('time')).toHaveAttribute('datetime', at.toISOString());
    expect(warning).toHaveTextContent('Candidate Lookup now refuses further full lookups');
    expect(warning).toHaveTextContent('"archiveOnExtract": "accept"');
    // The record is still shown: the damage is done, the reviewer may as well see it.
    expect(screen.getByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
    // It counts down.
    await waitFor(() => expect(countdown()).toBeLessThan(first), { timeout: 15_000 });
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
    expect(warning).toHaveTextContent("was due to delete this candidate's identity data at ");
    expect(warning.querySelector('time')).toHaveTextContent(hhmmss(at));
    // 30 s ago when drawn; the page was drawn between the lookup and now, which a loaded machine makes a
    // second or more apart: the seconds said lie within that, never "in …" or another unit.
    const upTo = Math.floor((Date.now() - at.getTime()) / 1000);
    const said = /^ \((\d+) s ago\)$/.exec(afterTime(warning) ?? '');
    expect(said, afterTime(warning) ?? '').not.toBeNull();
    expect(Number(said![1])).toBeGreaterThanOrEqual(30);
    expect(Number(said![1])).toBeLessThanOrEqual(upTo);
  });

  it('stays away for an ordinary archive date (a day or more after the lookup) and for none', async () => {
    show({ ...base, willArchiveAtDate: new Date(Date.now() + 20 * 24 * 3600_000).toISOString() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.queryByTestId('archive-warning')).not.toBeInTheDocument();
  });

  it('a refused lookup explains why, without a retry', async () => {
    const message =
      'This server\'s API key archives identity data after each full lookup, so full lookups are refused. Set "archiveOnExtract": "accept" for this environment in CONFIG_FILE to allow them.';
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

  it('tells operators that support users need a status-level key when they look with this key too', async () => {
    stubApi({ meta: testMeta({ archivingKey: { detectedAt: '2026-11-22T14:02:00.000Z', accepted: false, supportUsesFullKey: true } }) });
    renderWithProviders('/');
    const banner = await screen.findByTestId('archiving-key-banner');
    expect(banner).toHaveTextContent('Support users look candidates up with this key too');
    expect(banner).toHaveTextContent('support users need a status-level key (statusApiKeyEnv or statusApiKeyFile');
  });

  it("shows its time in the page's zone, and in UTC when the header's toggle says so, keeping the countdown", async () => {
    const user = userEvent.setup();
    const at = new Date(Date.now() + 30_000);
    show({ ...base, willArchiveAtDate: at.toISOString() });
    const warning = await screen.findByTestId('archive-warning');
    const time = warning.querySelector('time')!;
    expect(time).toHaveTextContent(clockText(at, 'singapore'));
    expect(time.textContent).not.toMatch(/UTC$/);
    // The date as well, as every time on the page: no reader has to guess which day "14:02" is.
    expect(time.textContent).toMatch(/^\w{3} \d{1,2}, \d{4}, /);
    await user.click(screen.getByRole('button', { name: 'UTC times' }));
    expect(time).toHaveTextContent(clockText(at, 'utc'));
    expect(time.textContent).toMatch(/ UTC$/);
    expect(afterTime(warning)).toMatch(/^ \(in \d+ s\)$/);
    // The timeline's upcoming line says the same moment in the same zone.
    const upcoming = screen.getByRole('list', { name: 'Status changes, oldest first' }).querySelector('[data-status="will-archive"] time')!;
    expect(upcoming.getAttribute('datetime')).toBe(at.toISOString());
    expect(upcoming.textContent).toMatch(/ UTC$/);
  });

  it('attack: a willArchiveAtDate that is no ISO text (a number) still warns, with the value as sent and the time unknown', async () => {
    const { requests } = show({ ...base, willArchiveAtDate: 1764549409000 as never });
    const warning = await screen.findByTestId('archive-warning');
    expect(warning).toHaveAttribute('role', 'alert');
    expect(warning).toHaveTextContent(
      "This API key archives identity data after each lookup: the service will delete this candidate's identity data, at a time this answer does not give as a date (willArchiveAtDate: 1764549409000)",
    );
    expect(warning.querySelector('bdi code')).toHaveTextContent(/^1764549409000$/);
    expect(warning).toHaveTextContent('This lookup started the deletion; it cannot be undone.');
    expect(warning.querySelector('time')).toBeNull();
    await waitFor(() => expect(requests.filter((url) => url === '/api/meta').length).toBeGreaterThanOrEqual(2));
  });

  it('attack: text that is no date ("soon") or an object warns too, naming its kind, not its value; for a support user too', async () => {
    for (const [value, role] of [
      ['soon', 'compliance'],
      [{ at: 'soon' }, 'compliance'],
      ['soon', 'support'],
    ] as const) {
      stubApi({
        candidates: { [PATH]: () => envelope({ ...base, willArchiveAtDate: value as never }) },
        session: { mode: 'proxy', user: 'u', role },
      });
      renderWithProviders('/candidates/refId/ref-1');
      const warning = await screen.findByTestId('archive-warning');
      expect(warning).toHaveTextContent(/\(willArchiveAtDate: (text|an object), not shown\)/);
      expect(warning).not.toHaveTextContent('soon');
      cleanup();
    }
  });
});
