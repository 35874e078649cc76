import { setFlagsFromString } from 'node:v8';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { envelope, json, renderWithProviders, stubApi } from './render.tsx';

/**
 * A certificate is read once per text for the page's life. The decision summary read each certificate on
 * every render (a live update, the relative time's tick every 30 s) and Copy summary on every press, with
 * the parse that keeps each number's text for one under 50,000 values: a large certificate cost its parse
 * each time. Counted here as the calls of JSON.parse given the certificate's own text. Source text access
 * on, as in Chromium (certificate-numbers.test.tsx), so that the parse is the slower one with a reviver.
 */
const withSourceText = (on: boolean) => setFlagsFromString(on ? '--harmony-json-parse-with-source' : '--no-harmony-json-parse-with-source');

/** A number whose text is kept (0.10000000000000001): read with the reviver. */
const READABLE = '{"Claim":{"reviewBody":{"result":"clear","score":0.10000000000000001}},"Organization":{"legalName":"Onfido Ltd"}}';
/** Not JSON: its chip is the worst result its text states. */
const BROKEN = '{"Claim":{"result":"consider",,';

const FETCHED = new Date('2026-11-24T15:55:00.000Z');

const record: CandidateRecord = {
  status: 'blocked',
  refId: 'cert-reads',
  isArchived: false,
  blockPassID: 'bp',
  blockedDate: '2026-11-24T15:54:00.000Z',
  certs: { 'onfido-service-cert': READABLE, 'complyadvantage-service-cert': BROKEN },
};

/** How often each certificate's text has been handed to JSON.parse since the spy began. */
function countReads() {
  const parse = vi.spyOn(JSON, 'parse');
  return () => ({
    readable: parse.mock.calls.filter(([text]) => text === READABLE).length,
    broken: parse.mock.calls.filter(([text]) => text === BROKEN).length,
  });
}

async function show() {
  stubApi({ candidates: { '/api/candidates/refId/cert-reads': envelope(record), '/api/export': () => json({ status: 'success' }) } });
  renderWithProviders('/candidates/refId/cert-reads');
  await screen.findByRole('region', { name: 'Decision summary' });
}

const chips = () =>
  within(screen.getByRole('list', { name: 'Certificate results' }))
    .getAllByRole('listitem')
    .map((chip) => chip.textContent);
const ago = () => /\(([^()]+)\)$/.exec(screen.getByTestId('summary-status').textContent ?? '')?.[1];

beforeEach(() => withSourceText(true));
afterEach(() => {
  withSourceText(false);
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('a certificate read once per text while the page shows it', { timeout: 20_000 }, () => {
  it('the decision summary reads no certificate again as the relative time ticks', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: FETCHED });
    const reads = countReads();
    await show();
    const chipsBefore = chips();
    expect(chipsBefore).toEqual([expect.stringContaining('clear'), expect.stringContaining('consider')]);
    const first = reads();
    expect(first.readable).toBeGreaterThan(0);
    expect(first.broken).toBeGreaterThan(0);

    for (let minute = 1; minute <= 4; minute++) {
      act(() => vi.advanceTimersByTime(60_000));
      // The page did render again: the strip's relative time moved on.
      expect(ago()).toBe(`${minute + 1} minutes ago`);
    }
    // Before: one more read of each certificate per render of the strip.
    expect(reads()).toEqual(first);
    expect(chips()).toEqual(chipsBefore);
  });

  it('Copy summary reads each certificate at most once however often it is pressed', async () => {
    const reads = countReads();
    await show();
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const shown = reads();
    for (let press = 1; press <= 3; press++) {
      await user.click(screen.getByRole('button', { name: 'Copy summary' }));
      await waitFor(() => expect(writeText).toHaveBeenCalledTimes(press));
    }
    const copied = writeText.mock.calls.map(([text]) => text);
    expect(copied[2]).toContain(
      [
        '\nCertificates:',
        '  Onfido: clear (at reviewBody.result)',
        '  ComplyAdvantage: consider (at result in a certificate that is not valid JSON)\n',
      ].join('\n'),
    );
    expect(new Set(copied.map((text) => text.replace(/\nLooked up: .*\n$/, ''))).size).toBe(1);
    // Before: each press read each certificate again (three more of each).
    const pressed = reads();
    expect(pressed.readable - shown.readable).toBeLessThanOrEqual(1);
    expect(pressed.broken - shown.broken).toBeLessThanOrEqual(1);
  });
});
