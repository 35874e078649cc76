import { useMemo, useState } from 'react';
import { Button } from './button.tsx';

/**
 * A list put on the page `atOnce` items at a time (the pictures, the certificates): a record has a handful,
 * but the service may send thousands, and each item is a card the page must draw. The first `atOnce`, and
 * a setter for the next ones (ShowMore's button).
 */
export function useShownAtOnce<T>(items: readonly T[], atOnce: number): { shown: readonly T[]; showMore: () => void } {
  const [count, setCount] = useState(atOnce);
  const shown = useMemo(() => items.slice(0, count), [items, count]);
  return { shown, showMore: () => setCount((current) => current + atOnce) };
}

/**
 * Under a list longer than `atOnce`: "Showing 24 of 2,000 pictures", said as it changes, and "Show 24 more"
 * (or as many as are left) while any are left.
 */
export function ShowMore({
  shown,
  total,
  atOnce,
  noun,
  onMore,
}: {
  shown: number;
  total: number;
  atOnce: number;
  /** What the list holds, in the plural ("pictures"). */
  noun: string;
  onMore: () => void;
}) {
  if (total <= atOnce) return null;
  const more = Math.min(atOnce, total - shown);
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3 text-sm text-slate-700">
      <p role="status">
        Showing {shown.toLocaleString('en')} of {total.toLocaleString('en')} {noun}
      </p>
      {more > 0 && (
        <Button variant="secondary" size="sm" onClick={onMore}>
          Show {more.toLocaleString('en')} more
        </Button>
      )}
    </div>
  );
}
