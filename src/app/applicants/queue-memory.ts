import { onVisitedCleared } from '../recent/visited.ts';

/**
 * What this tab remembers of the queue for "Back to queue": how far down each queue page was scrolled
 * when a row was opened, and the candidate last opened from it (or reached from there with Previous and
 * Next), whose row takes focus on return. Memory only: ids are candidate data, never written to storage.
 */
interface Opened {
  /** The queue page's address (`/applicants?status=waiting&page=2`, under `/e/<name>` elsewhere). */
  href: string;
  ids: readonly string[];
  /** Its row's place on that page, for when the candidate is no longer listed there. */
  index: number;
}

const scrolls = new Map<string, number>();
let opened: Opened | undefined;

/** A row of the queue page at `href` is being opened, with the page scrolled to `y`. */
export function rememberQueueScroll(href: string, y: number): void {
  scrolls.set(href, y);
}

/** The candidate page shows a candidate of the queue page at `href`. */
export function rememberOpened(href: string, ids: ReadonlyArray<string | null | undefined>, index: number): void {
  opened = { href, ids: ids.filter((id): id is string => Boolean(id)), index };
}

/**
 * Coming back to the queue page at `href`: where it was scrolled, and the candidate to focus, if it was
 * opened from this very page. Taken once: the next visit of the page starts at its top.
 */
export function takeQueueReturn(href: string): { scrollY: number | undefined; ids: readonly string[]; index: number } | undefined {
  if (opened?.href !== href) return undefined;
  const back = { scrollY: scrolls.get(href), ids: opened.ids, index: opened.index };
  opened = undefined;
  scrolls.delete(href);
  return back;
}

// Forgotten with the tab's opened candidates, at sign-in and sign-out.
onVisitedCleared(() => {
  scrolls.clear();
  opened = undefined;
});
