import { cleanup, render, screen, within } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { isKnownStatus, KNOWN_STATUSES, statusInfo } from '../../src/kyc/contract/status.ts';
import { liveEventLabel } from '../../src/app/live/live-event-text.ts';
import { StatusBadge } from '../../src/app/ui/status-badge.tsx';
import { envelope, renderWithProviders, stubApi } from './render.tsx';

/** What must never reach a status's words: bidirectional overrides, isolates, embeddings and marks, and C0/C1 controls. */
const UNSAFE = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\p{Cc}]/u;

const KNOWN_LABELS = new Set(KNOWN_STATUSES.map((status) => statusInfo(status).label));

async function showCandidate(status: string) {
  const record: CandidateRecord = {
    status,
    refId: 'ctl',
    recordId: '65f1c2a9e4b0d3a1f0c9b8',
    isArchived: false,
    blockPassID: 'bp-1',
    waitingDate: '2026-11-01T10:00:00.000Z',
  };
  stubApi({ candidates: { '/api/candidates/refId/ctl': envelope(record) } });
  renderWithProviders('/candidates/refId/ctl');
  return screen.findByRole('region', { name: 'Decision summary' });
}

describe('a status this tool does not know is read one way, its invisible characters marked', () => {
  it('attack: a status with a right-to-left override reads as another word on the candidate page', async () => {
    // U+202E ahead of "devorppa" has it drawn as "approved"; "in\u202Ereview" as "inweiver".
    const strip = await showCandidate('\u202Edevorppa');
    const badges = [document.querySelector('header [data-status]')!, within(strip).getByTestId('summary-status')];
    const current = within(screen.getByRole('list', { name: 'Status changes, oldest first' }))
      .getAllByRole('listitem')
      .find((item) => item.getAttribute('aria-current') === 'step')!;
    for (const place of [...badges, current]) {
      expect(place.textContent).not.toMatch(UNSAFE);
      expect(place).toHaveTextContent('“⟦U+202E⟧devorppa”');
    }
    cleanup();
    const again = await showCandidate('in\u202Ereview\u0000');
    expect(document.querySelector('header [data-status]')).toHaveTextContent('“in⟦U+202E⟧review⟦U+0000⟧”');
    expect(within(again).getByTestId('summary-status').textContent).not.toMatch(UNSAFE);
  });

  it('an unknown status that is a word is shown as written', async () => {
    const strip = await showCandidate('on_hold');
    expect(within(strip).getByTestId('summary-status')).toHaveTextContent('on_hold');
    expect(statusInfo('on_hold').label).toBe('on_hold');
  });

  it('property: for any string, the status label holds no bidi or control character, and no unknown status reads as a known label', () => {
    const pieces = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.constantFrom(
        ...KNOWN_STATUSES,
        ...KNOWN_LABELS,
        '\u202E',
        '\u2066',
        '\u2069',
        '\u200F',
        '\u0000',
        '\u0085',
        '\u009B',
        '\u007F',
        '\uD800',
        ' ',
        '“',
        '”',
      ),
    );
    const status = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.array(pieces, { maxLength: 5 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(status, (raw) => {
        const label = statusInfo(raw).label;
        expect(label).not.toMatch(UNSAFE);
        if (raw) expect(liveEventLabel({ event: 'user.custom', status: raw } as Parameters<typeof liveEventLabel>[0])).toBe(label);
        if (!isKnownStatus(raw)) expect(KNOWN_LABELS.has(label), JSON.stringify(raw)).toBe(false);
      }),
      { numRuns: 1000 },
    );
    // As rendered: the badge every surface uses (the candidate page, the queue, the batch, recent lookups).
    fc.assert(
      fc.property(status, (raw) => {
        const { container, unmount } = render(<StatusBadge status={raw} />);
        expect(container.textContent).not.toMatch(UNSAFE);
        unmount();
      }),
      { numRuns: 100 },
    );
    // A thousand labels and a hundred renders: 20 s were not enough on a 2-core machine shared with other work.
  }, 120_000);
});
