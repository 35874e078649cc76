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
export function interpretPaste(text: string): Pasted {
  const cleaned = cleanId(text);
  const dashboard = parseDashboardLink(cleaned.id);
  if (dashboard) return { type: 'dashboard', link: dashboard };
  const link = parseAppLink(cleaned.id);
  if (link) return { type: 'link', link };
  const list = splitIdList(text);
  if (list.ids.length >= 2) return { type: 'list', list };
  return { type: 'id', id: cleaned.id, removed: describeRemoved(cleaned.removed) };
}
