import type { LookupKind } from '../../kyc/contract/lookup.ts';

/** A lookup as the search box read it: `chosen`, its kind was chosen for it (the switch, a pasted link). */
export interface BoxLookup {
  kind: LookupKind;
  id: string;
  environment: string | undefined;
  chosen: boolean;
}

/**
 * What Enter in the search box looks up, on the candidate page `page` (in `pageEnvironment`). The page's id
 * as read from the box, in the page's environment, with no kind chosen for it, is the page's lookup once more
 * (`again`): under the page's kind, and with what the page says of how it was looked up (what it was tried
 * as), as its Retry and Refresh are. Before, it went as a new lookup without that: on a page that had found the
 * id under neither kind, one Enter sent both lookups again (two audit lines). A changed id, a kind chosen or
 * another environment is a new lookup, of the box's kind.
 */
export function pageAgain(
  box: BoxLookup,
  page: { kind: LookupKind; id: string } | undefined,
  pageEnvironment: string | undefined,
): { kind: LookupKind; again: boolean } {
  if (!page || box.chosen || box.id !== page.id || box.environment !== pageEnvironment) return { kind: box.kind, again: false };
  return { kind: page.kind, again: true };
}
