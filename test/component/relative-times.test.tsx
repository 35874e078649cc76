import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { envelope, json, renderWithProviders, stubApi } from './render.tsx';
import { inTimeZone } from './in-time-zone.ts';

/**
 * One date, one wording: the summary strip, the status history, the freshness line and Copy summary say
 * how long ago a moment was by the one rule (calendar days in the zone the page shows).
 */

// Singapore (UTC+8, no daylight saving): 23:55 there is 15:55 UTC, so its calendar and UTC's disagree.
inTimeZone('Asia/Singapore');
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  localStorage.clear();
});

const FETCHED = new Date('2026-11-24T15:55:00.000Z'); // 23:55 on 24 Nov in Singapore
const AFTER_MIDNIGHT = new Date('2026-11-24T16:10:00.000Z'); // 00:10 on 25 Nov in Singapore, 15 minutes on

function record(blockedDate: string): CandidateRecord {
  return { status: 'blocked', refId: 'ref-1', isArchived: false, blockPassID: 'bp', waitingDate: '2025-10-20T03:00:00.000Z', blockedDate };
}

/** The page at FETCHED, with the clock (Date and the page's minute ticks) in the test's hands. */
async function showAt(candidate: CandidateRecord) {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: FETCHED });
  stubApi({ candidates: { '/api/candidates/refId/ref-1': envelope(candidate), '/api/export': () => json({ status: 'success' }) } });
  renderWithProviders('/candidates/refId/ref-1');
  await screen.findByRole('region', { name: 'Decision summary' });
}

/** Moves the clock to `to` and lets the page's ticks (every 15 and 30 s) see it. */
function clockTo(to: Date) {
  act(() => {
    vi.setSystemTime(new Date(to.getTime() - 30_000));
    vi.advanceTimersByTime(30_000);
  });
}

const lastParenthesis = (element: Element) => /\(([^()]+)\)$/.exec(element.textContent ?? '')?.[1];

const strip = () => lastParenthesis(screen.getByTestId('summary-status'));
const timeline = () =>
  lastParenthesis(
    within(screen.getByRole('list', { name: 'Status changes, oldest first' }))
      .getByRole('listitem', { current: 'step' })
      .querySelector('time')!.parentElement!.parentElement!,
  );
const freshness = () => lastParenthesis(screen.getByTestId('fetched-at'));
const historyStep = (status: string) =>
  screen.getByRole('list', { name: 'Status changes, oldest first' }).querySelector(`[data-status="${status}"]`)!;

async function copiedStatusLine(): Promise<string | undefined> {
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  const writeText = vi.spyOn(navigator.clipboard, 'writeText');
  writeText.mockClear();
  await user.click(screen.getByRole('button', { name: 'Copy summary' }));
  await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
  return /\nStatus: .+ \(([^()]+)\)\n/.exec(writeText.mock.calls[0]![0])?.[1];
}

describe('relative times on the candidate page agree', { timeout: 20_000 }, () => {
  it('says "yesterday" everywhere for a moment before midnight, seen after it, and the same count in UTC', async () => {
    await showAt(record('2026-11-24T15:53:00.000Z')); // 23:53 on 24 Nov in Singapore
    expect([strip(), timeline(), freshness()]).toEqual(['2 minutes ago', '2 minutes ago', 'just now']);

    clockTo(AFTER_MIDNIGHT);
    expect(strip()).toBe('yesterday');
    expect(timeline()).toBe('yesterday');
    expect(freshness()).toBe('yesterday');
    expect(await copiedStatusLine()).toBe('yesterday');

    // In UTC both moments are on 24 Nov: hours and minutes, alike on the strip, the timeline and the summary.
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(screen.getByRole('button', { name: 'UTC times' }));
    expect(strip()).toBe('17 minutes ago');
    expect(timeline()).toBe('17 minutes ago');
    expect(freshness()).toBe('15 minutes ago');
    expect(await copiedStatusLine()).toBe('17 minutes ago');
  });

  it('gives a date weeks or a year back the same count of days on the strip, the timeline and the summary', async () => {
    await showAt(record('2025-10-22T01:00:00.000Z')); // 09:00 on 22 Oct 2025 in Singapore: 398 days before 24 Nov 2026
    clockTo(AFTER_MIDNIGHT);
    expect(strip()).toBe('399 days ago');
    expect(timeline()).toBe('399 days ago');
    expect(await copiedStatusLine()).toBe('399 days ago');
    expect(historyStep('waiting').textContent).toContain('(401 days ago)');
  });
});
