import { type DashboardLink, parseDashboardLink } from '../../kyc/view/dashboard-link.ts';
import { cleanId, describeRemoved, type IdList, splitIdList } from '../../kyc/view/id-input.ts';
import { type AppLink, parseAppLink } from '../routes.ts';

export type Pasted =
  | { type: 'link'; link: AppLink }
  | { type: 'dashboard'; link: DashboardLink }
  | { type: 'list'; list: IdList }
  | { type: 'id'; id: string; removed: string | undefined };

/**
 * What a paste into the search box means: a link of the service's dashboard (a recordId, or why it
 * cannot be read), a link of this app (its kind, id and environment), a list of
 * ids (two or more: offer a batch), or one id, cleaned of invisible characters and outer whitespace.
 */
/**
 * One id after a label, as a customer's mail or a ticket gives it ("Reference ID: cust_000482",
 * "refId: cust_000482"): the id, not a list of the label's words and the id. A label is a few words
 * without digits before a colon; the id, one run of characters after it.
 */
const LABELLED = /^([A-Za-z][A-Za-z ._-]{0,30}):\s+(\S+)$/;

export function interpretPaste(text: string): Pasted {
  const cleaned = cleanId(text);
  const dashboard = parseDashboardLink(cleaned.id);
  if (dashboard) return { type: 'dashboard', link: dashboard };
  const link = parseAppLink(cleaned.id);
  if (link) return { type: 'link', link };
  const labelled = LABELLED.exec(cleaned.id);
  if (labelled) {
    // What follows the label is read as a paste of its own (a link after "Link:"), the sentence's full stop left out.
    const inner = interpretPaste(labelled[2]!.replace(/[.,;]+$/, ''));
    if (inner.type !== 'id') return inner;
    const removed = [describeRemoved(cleaned.removed), `the label "${labelled[1]}:"`].filter(Boolean).join(' and ');
    return { type: 'id', id: inner.id, removed };
  }
  const list = splitIdList(text);
  if (list.ids.length >= 2) return { type: 'list', list };
  // A column's heading and one id under it: that id.
  if (list.ids.length === 1 && list.heading !== undefined)
    return { type: 'id', id: list.ids[0]!, removed: `the column's heading "${list.heading}"` };
  return { type: 'id', id: cleaned.id, removed: describeRemoved(cleaned.removed) };
}
