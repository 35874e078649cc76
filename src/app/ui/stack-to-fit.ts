import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * Whether a table (the queue's, the batch's results) is shown as stacked rows (the phone's layout: each
 * row a card) because it does not fit its card; the batch's Certificates column made it scroll at 768 px. At 200 % zoom (about 640 px) the table was 704 px wide in a 590 px card: it
 * scrolled sideways, and its ids broke mid-way ("cust_0004 / 82"). Measured rather than guessed from the
 * screen's width, as what the table needs depends on its columns (names, the dashboard) and its ids, which
 * it never breaks. The width it needed is kept, and the table comes back once the card is that wide; a new
 * page of rows is measured again. Both happen before the browser paints, so no frame scrolls sideways.
 */
export function useStackToFit(card: RefObject<HTMLElement | null>, rows: unknown): boolean {
  // The card's width, and the width the table needed the last time it did not fit (none: it fits).
  const [width, setWidth] = useState<number>();
  const [needed, setNeeded] = useState<number>();
  useLayoutEffect(() => {
    const box = card.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(box.clientWidth));
    observer.observe(box);
    return () => observer.disconnect();
  }, [card]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: other rows may need another width.
  useLayoutEffect(() => setNeeded(undefined), [rows]);
  const stacked = needed !== undefined && (width ?? 0) < needed;
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again whenever the card or the rows change.
  useLayoutEffect(() => {
    const box = card.current;
    if (stacked || !box || box.scrollWidth <= box.clientWidth) return;
    setWidth(box.clientWidth);
    setNeeded(box.scrollWidth);
  }, [card, stacked, width, rows]);
  return stacked;
}
