import { checkId, decodeIdSegment } from '../contract/lookup.ts';
import { bareLink } from './bare-link.ts';

/**
 * A link copied from the KYC service's own operator dashboard, which opens a record at
 * `<base>/kyc/dashboard/index.html#/<clientId>/kyc_detail/<recordId>` (seen in integrations; also without
 * `index.html`, and with `#!/` as older hash routers write it). Support agents paste these all day.
 */
export type DashboardLink = { ok: true; clientId: string; recordId: string } | { ok: false; problem: string };

// `<base>` may have a path of its own before `/kyc/dashboard`.
const DASHBOARD_PATH = /\/kyc\/dashboard(?:\/|\/index\.html)?$/i;
// The hash route: `#/` or `#!/`, the client id, `kyc_detail`, the record id, an optional `/` or `?query`.
const DETAIL_ROUTE = /^#!?\/([^/?]*)\/kyc_detail\/([^?]*?)\/?(?:\?.*)?$/;

const PROBLEM = 'This dashboard link does not open a candidate';

/**
 * The client id and recordId of a dashboard link, or why it cannot be read; undefined when the text is
 * not a dashboard link at all (an id, a link of this app, another address).
 */
export function parseDashboardLink(text: string): DashboardLink | undefined {
  const trimmed = bareLink(text);
  if (!/^https?:\/\//i.test(trimmed) || !URL.canParse(trimmed)) return undefined;
  const url = new URL(trimmed);
  if (!DASHBOARD_PATH.test(url.pathname)) return undefined;
  const route = DETAIL_ROUTE.exec(url.hash);
  if (!route) return { ok: false, problem: `${PROBLEM}: it should end in #/<client id>/kyc_detail/<recordId>.` };
  const [, client, record] = route as unknown as [string, string, string];
  const clientId = decodeIdSegment(client);
  const recordId = decodeIdSegment(record);
  if (!recordId.ok) {
    const why = recordId.problem === 'not_one_segment' ? 'is more than one path segment' : 'is not correctly percent-encoded';
    return { ok: false, problem: `${PROBLEM}: its recordId ${why}.` };
  }
  if (!clientId.ok || clientId.id === '') return { ok: false, problem: `${PROBLEM}: its client id cannot be read.` };
  if (recordId.id === '') return { ok: false, problem: `${PROBLEM}: it names no recordId.` };
  const check = checkId(recordId.id);
  if (!check.ok) return { ok: false, problem: `${PROBLEM}: its recordId is not valid. ${check.message}` };
  return { ok: true, clientId: clientId.id, recordId: recordId.id };
}

/**
 * The console's page of a candidate, from the environment's template (`{recordId}`, `{refId}`, each
 * percent-encoded in place); none when the template needs an id the candidate has not got.
 */
export function dashboardHref(
  template: string | undefined,
  ids: { recordId?: string | null | undefined; refId?: string | null | undefined },
): string | undefined {
  if (!template) return undefined;
  if (template.includes('{recordId}') && !ids.recordId) return undefined;
  if (template.includes('{refId}') && !ids.refId) return undefined;
  return template
    .replaceAll('{recordId}', encodeURIComponent(ids.recordId ?? ''))
    .replaceAll('{refId}', encodeURIComponent(ids.refId ?? ''));
}
