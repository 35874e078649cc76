import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { apiError, envelope, renderWithProviders, stubApi } from './render.tsx';

/**
 * The candidate page's hand-off row sits above the name on a wide screen and under the decision summary on
 * a phone (below 640 px). A tablet turned, or a window resized across 640 px, moved it by unmounting it and
 * mounting a new one: what it held (the note under its buttons, here a copy refused) was gone. It is moved
 * now, the same element with what it holds.
 */
const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const blocked = samples.find((r) => r.refId === 'user-7781')!;
const COMPLIANCE: SessionInfo = { mode: 'proxy', user: 'ana', role: 'compliance' };
const TOO_OLD = "This page's lookup is too old to record a copy: press Refresh, then copy again.";

/** A window whose width is below 640 px or not, as the test says: matchMedia's answer and its change events. */
function fakeWidth() {
  const listeners = new Set<() => void>();
  let phone = false;
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return query === '(width < 40rem)' && phone;
    },
    media: query,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  }));
  return (next: boolean) => {
    phone = next;
    act(() => {
      for (const listener of listeners) listener();
    });
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the hand-off row across 640 px (a tablet turned, a window resized)', { timeout: 60_000 }, () => {
  it('keeps its note and its buttons, moved under the decision summary and back, whatever the turns', async () => {
    const setPhone = fakeWidth();
    stubApi({
      session: COMPLIANCE,
      candidates: {
        [`/api/candidates/refId/${blocked.refId}`]: () => envelope(blocked),
        '/api/export': () => apiError(409, 'not_looked_up', TOO_OLD),
      },
    });
    renderWithProviders(`/candidates/refId/${blocked.refId}`);
    const heading = await screen.findByRole('heading', { level: 1 });
    const copy = screen.getByRole('button', { name: 'Copy summary' });
    await userEvent.setup().click(copy);
    await waitFor(() => expect(screen.getByTestId('hand-off-note')).toHaveTextContent(TOO_OLD));
    const above = () => Boolean(copy.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING);
    expect(above()).toBe(true);

    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }), (turns) => {
        for (const phone of turns) {
          setPhone(phone);
          // The note still said, by the same button (not a new one), where the layout puts it (under the name on a phone).
          expect(screen.getByTestId('hand-off-note')).toHaveTextContent(TOO_OLD);
          expect(screen.getByRole('button', { name: 'Copy summary' })).toBe(copy);
          expect(above()).toBe(!phone);
        }
        setPhone(false);
      }),
      { numRuns: 10 },
    );
  });
});
