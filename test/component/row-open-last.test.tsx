import { act, renderHook } from '@testing-library/react';
import fc from 'fast-check';
import type { MouseEvent } from 'react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type PendingOpen, ROW_OPEN_DELAY_MS, useRowOpen } from '../../src/app/applicants/row-open.ts';

/**
 * The queue's rule, whatever the order and timing of a reviewer's clicks on its rows (within a row's wait,
 * or after it while the page it opened is still being drawn and the queue still shown): only the last row
 * clicked opens, one history entry is added for all of them, and only that row stays marked.
 */

afterEach(() => {
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

const ROWS = 3;
const cell = document.createElement('div');
/** A plain click of the mouse on a row's cell (not a control, not the second of a double-click). */
const click = { target: cell, detail: 1, button: 0, nativeEvent: { pointerType: 'mouse' } } as unknown as MouseEvent;

/**
 * The queue's rows, sharing one PendingOpen; each open goes to its row's page as the row's own open does,
 * counting the history entries it adds (not `history.length`: the jsdom a worker shares with other files
 * may still hold a traversal one of them queued, which moves back and drops the entry pushed here).
 */
function queueRows(added: { entries: number }) {
  return renderHook(() => {
    const queue: PendingOpen = useRef(undefined);
    return Array.from({ length: ROWS }, (_, row) =>
      useRowOpen((replace) => {
        if (!replace) added.entries += 1;
        window.history[replace ? 'replaceState' : 'pushState'](null, '', `/candidates/row-${row}`);
      }, queue),
    );
  });
}

describe("the queue's rows clicked in any order and at any moment", () => {
  it('open only the last clicked, in one history entry, and leave only it marked', () => {
    const step = fc.record({ row: fc.nat({ max: ROWS - 1 }), after: fc.integer({ min: 0, max: 2 * ROW_OPEN_DELAY_MS }) });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 6 }), (steps) => {
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        window.history.replaceState(null, '', '/applicants');
        const added = { entries: 0 };
        const rows = queueRows(added);
        for (const { row, after } of steps) {
          act(() => rows.result.current[row]!.handlers.onClick(click));
          act(() => vi.advanceTimersByTime(after));
        }
        act(() => vi.advanceTimersByTime(ROW_OPEN_DELAY_MS));
        const last = steps.at(-1)!.row;
        expect(window.location.pathname).toBe(`/candidates/row-${last}`);
        expect(added.entries).toBe(1);
        expect(rows.result.current.map((shown) => shown.chosen)).toEqual(Array.from({ length: ROWS }, (_, row) => row === last));
        rows.unmount();
        vi.useRealTimers();
      }),
      { numRuns: 60 },
    );
  });
});
