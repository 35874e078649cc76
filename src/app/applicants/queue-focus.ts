import type { RefObject } from 'react';
import type { Applicant } from '../../kyc/contract/applicants.ts';
import { useLocation } from '../navigation.tsx';
import { QUEUE_KEYS } from '../routes.ts';
import { usePageKeys } from '../ui/page-keys.ts';
import { focusRow, useRowReturn } from '../recent/row-return.ts';

/** The row links of the table in `container`, one per row that opens a candidate, and the row each is on. */
function rowLinks(container: HTMLElement): Array<{ row: Element; link: HTMLElement }> {
  return [...container.querySelectorAll('tbody > tr')].flatMap((row) => {
    const link = row.querySelector<HTMLElement>('a[data-open]');
    return link ? [{ row, link }] : [];
  });
}

/**
 * Back from a candidate opened on this page of the queue (Back to queue, `u`, or the browser's Back):
 * the page scrolls to where it was left and its row takes focus, found by its candidate's ids.
 */
export function useQueueReturn(href: string, records: Applicant[] | undefined, container: RefObject<HTMLElement | null>): void {
  useRowReturn(href, records, container, applicantIds);
}

const applicantIds = (applicant: Applicant) => [applicant.recordId, applicant.refId];

/** `j` and `k` move the focus to the next or previous row's link (the first or last when no row has it). */
export function useRowKeys(container: RefObject<HTMLElement | null>): void {
  const move = (by: 1 | -1) => {
    if (!container.current) return;
    const links = rowLinks(container.current);
    if (links.length === 0) return;
    const row = document.activeElement?.closest('tbody > tr');
    const at = links.findIndex((entry) => entry.row === row);
    const next = at < 0 ? (by > 0 ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, at + by));
    focusRow(links[next]!.link, true);
  };
  usePageKeys({ [QUEUE_KEYS.next]: () => move(1), [QUEUE_KEYS.previous]: () => move(-1) }, useLocation());
}
