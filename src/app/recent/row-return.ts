import { type RefObject, useLayoutEffect, useRef } from 'react';
import { onVisitedCleared } from './visited.ts';

/**
 * Back to a list a candidate was opened from (the queue, a batch's rows, the audit trail): the list
 * scrolls to where it was left and the row opened takes focus, not the page's heading, from which the
 * keyboard would walk every control above the rows again. This tab remembers how far down each list's
 * page was scrolled when a row was opened, and the row last opened (or reached from it with the
 * candidate page's Previous and Next). Memory only: its keys are candidate ids, never written to storage.
 */
interface OpenedRow {
  /** The list page's address (`/applicants?status=waiting&page=2`, `/batch`, under `/e/<name>` elsewhere). */
  href: string;
  /** What finds the row again: its candidate's ids, or a key of the row's own (a batch's line, an audit line's hash). */
  keys: readonly string[];
  /** Its place on that page, for when no row has its keys any more (a queue's candidate decided since). */
  index: number;
}

const scrolls = new Map<string, number>();
let opened: OpenedRow | undefined;

/** A row of the list page at `href` is being opened, with the page scrolled to `y`. */
export function rememberRowScroll(href: string, y: number): void {
  scrolls.set(href, y);
}

/** The row with these keys, at `index` of the list page at `href`, is the one opened. */
export function rememberOpenedRow(href: string, keys: ReadonlyArray<string | null | undefined>, index: number): void {
  opened = { href, keys: keys.filter((key): key is string => Boolean(key)), index };
}

/** A row being opened from this list page: both at once, for a list the candidate page knows nothing of. */
export function rememberRowOpening(href: string, keys: ReadonlyArray<string | null | undefined>, index: number): void {
  rememberRowScroll(href, window.scrollY);
  rememberOpenedRow(href, keys, index);
}

/**
 * Coming back to the list page at `href`: where it was scrolled, and the row to focus, if it was opened
 * from this very page. Taken once: the next visit of the page starts at its top.
 */
function takeRowReturn(href: string): { scrollY: number | undefined; keys: readonly string[]; index: number } | undefined {
  if (opened?.href !== href) return undefined;
  const back = { scrollY: scrolls.get(href), keys: opened.keys, index: opened.index };
  opened = undefined;
  scrolls.delete(href);
  return back;
}

// Forgotten with the tab's opened candidates, at sign-in and sign-out.
onVisitedCleared(() => {
  scrolls.clear();
  opened = undefined;
});

/** Focuses a row's link, scrolled into view unless the page's own scroll already shows it. */
export function focusRow(link: HTMLElement, keepScroll: boolean): void {
  link.focus({ preventScroll: true });
  const box = link.getBoundingClientRect();
  if (!keepScroll || box.top < 0 || box.bottom > window.innerHeight) link.scrollIntoView({ block: 'center' });
}

/**
 * Back on the list page at `href` from a row's candidate (a page's own Back link, `u`, or the browser's
 * Back): the scroll it was left at, and the row opened focused, its link being the first `a[data-open]`
 * of the `index`th `tbody > tr` in `container`. Once per visit of a page, when its `rows` are in.
 */
export function useRowReturn<Row>(
  href: string,
  rows: readonly Row[] | undefined,
  container: RefObject<HTMLElement | null>,
  keysOf: (row: Row) => ReadonlyArray<string | null | undefined>,
): void {
  const doneFor = useRef<string>(undefined);
  useLayoutEffect(() => {
    if (!rows || !container.current || doneFor.current === href) return;
    doneFor.current = href;
    const back = takeRowReturn(href);
    if (!back) return;
    const found = rows.findIndex((row) => keysOf(row).some((key) => key && back.keys.includes(key)));
    // Gone from this page since (a queue's candidate decided): the row now in its place.
    const index = found >= 0 ? found : Math.min(back.index, rows.length - 1);
    const row = container.current.querySelectorAll('tbody > tr')[index];
    const link = row?.querySelector<HTMLElement>('a[data-open]');
    if (back.scrollY !== undefined) window.scrollTo(0, back.scrollY);
    if (link) focusRow(link, back.scrollY !== undefined);
    // Once per visit: a `keysOf` made anew by each render does not run it again.
  }, [href, rows, container, keysOf]);
}
