import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { BatchEvent } from '../../src/kyc/contract/batch.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { KNOWN_STATUSES } from '../../src/kyc/contract/status.ts';
import { statusTone } from '../../src/kyc/view/status-tone.ts';
import { envelope, json, renderWithProviders, stubApi } from './render.tsx';

/** Every documented status, and one the tool does not know. */
const STATUSES = [...KNOWN_STATUSES, 'on_hold_custom'];

/** `review_requested` -> `reviewRequestedDate`. */
const dateField = (status: string) => `${status.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase())}Date`;

/** The badge looks as the one table (src/kyc/view/status-tone.ts) says: family, every class, icon, label. */
function expectTableLook(badge: Element | null | undefined, status: string) {
  const tone = statusTone(status);
  expect(badge, `a badge for ${status}`).toBeTruthy();
  expect(badge).toHaveAttribute('data-status', status);
  expect(badge).toHaveAttribute('data-tone', tone.family);
  for (const name of tone.chip.split(' ')) expect(badge!.classList, `${status}: ${name}`).toContain(name);
  expect(badge!.querySelector('[aria-hidden="true"]')!.textContent).toBe(tone.icon);
}

async function showCandidate(status: string) {
  const record: CandidateRecord = {
    status,
    refId: `tone-${status}`,
    isArchived: false,
    blockPassID: 'bp',
    waitingDate: '2026-11-01T10:00:00.000Z',
    ...(status === 'on_hold_custom' ? {} : { [dateField(status)]: '2026-11-20T10:00:00.000Z' }),
  };
  stubApi({ candidates: { [`/api/candidates/refId/tone-${status}`]: envelope(record) } });
  const view = renderWithProviders(`/candidates/refId/tone-${status}`);
  return { ...view, strip: await screen.findByRole('region', { name: 'Decision summary' }) };
}

describe('status chips on every surface read the one tone table', () => {
  it.each(STATUSES)('%s: the header, the decision summary and the status history', async (status) => {
    const { strip, container } = await showCandidate(status);
    expectTableLook(container.querySelector('header [data-status]'), status);
    expectTableLook(within(strip).getByTestId('summary-status').querySelector('[data-status]'), status);
    const current = within(screen.getByRole('list', { name: 'Status changes, oldest first' }))
      .getAllByRole('listitem')
      .find((item) => item.getAttribute('aria-current') === 'step')!;
    const marker = current.querySelector(':scope > span[aria-hidden="true"]')!;
    for (const name of statusTone(status).dot.split(' ')) expect(marker.classList).toContain(name);
  });

  it('the header tells waiting from in review, review requested and incomplete, and shows rejected and blocked in red', async () => {
    const looks: Record<string, { tone: string; className: string; icon: string }> = {};
    for (const status of KNOWN_STATUSES) {
      const { container, unmount } = await showCandidate(status);
      const badge = container.querySelector('header [data-status]')!;
      looks[status] = {
        tone: badge.getAttribute('data-tone')!,
        className: badge.className,
        icon: badge.querySelector('[aria-hidden="true"]')!.textContent!,
      };
      unmount();
    }
    for (const status of ['inreview', 'review_requested', 'incomplete']) {
      expect(looks[status]!.tone).not.toBe(looks.waiting!.tone);
      expect(looks[status]!.className).not.toBe(looks.waiting!.className);
      expect(looks[status]!.icon).not.toBe(looks.waiting!.icon);
    }
    for (const status of ['rejected', 'blocked']) {
      expect(looks[status]!.tone).toBe('negative');
      expect(looks[status]!.className).toMatch(/\bbg-red-\d+/);
    }
  });

  it('the applicants queue', async () => {
    const records = STATUSES.map((status, index) => ({
      status,
      isArchived: false,
      refId: `ref-${index}`,
      recordId: `rec-${index}`,
      blockPassID: `bp-${index}`,
    }));
    stubApi({
      candidates: {
        '/api/applicants?skip=0&limit=50&counts=1': () =>
          json({ status: 'success', data: { records, total: records.length, skip: 0, limit: 50 } }),
      },
    });
    renderWithProviders('/applicants');
    const table = await screen.findByRole('table');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(STATUSES.length + 1));
    for (const status of STATUSES) expectTableLook(table.querySelector(`[data-status="${status}"]`), status);
  });

  it('the batch table', async () => {
    const events: BatchEvent[] = [
      ...STATUSES.map((status, index) => ({
        type: 'row' as const,
        index,
        ok: true as const,
        status,
        statusDate: '2026-11-20T10:00:00.000Z',
        submitCount: 1,
        refId: `id-${index}`,
        recordId: `65f1c2a9e4b0d3a1f0c9b80${index}`,
      })),
      { type: 'done', found: STATUSES.length, failed: 0 },
    ];
    const body = events.map((event) => `${JSON.stringify(event)}\n`).join('');
    stubApi({ candidates: { '/api/batch': () => new Response(body, { headers: { 'content-type': 'application/x-ndjson' } }) } });
    renderWithProviders('/batch');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('textbox', { name: 'refIds to look up' }, { timeout: 10_000 }));
    await user.paste(STATUSES.map((_, index) => `id-${index}`).join('\n'));
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    await screen.findByText(/^Done:/);
    const table = screen.getByRole('table');
    for (const status of STATUSES) expectTableLook(table.querySelector(`[data-status="${status}"]`), status);
  });
});
