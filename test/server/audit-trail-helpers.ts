import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import {
  type ActivityAnswer,
  activityAnswerSchema,
  AUDIT_PATHS,
  type AuditQuery,
  type AuditRow,
  type AuditSearchAnswer,
  auditSearchAnswerSchema,
} from '../../src/kyc/contract/audit-search.ts';
import { type AuditStatus, auditStatusSchema } from '../../src/kyc/contract/audit-status.ts';
import type { Role } from '../../src/kyc/contract/api.ts';
import type { ConfigFile } from '../../src/server/config/file-schema.ts';
import type { Environment } from '../../src/server/config/config.ts';
import { SANDBOX_KEYS, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import type { RawResponse } from './http.ts';
import { type Instance, startInstance } from './instance.ts';

/** The audit page's tests (issue 34): instances signed in by gateway headers, and the page's calls. */

export const GATEWAY: ConfigFile = {
  signIn: { mode: 'proxy', userHeader: 'X-User', roleHeader: 'X-Role', trustedProxies: ['127.0.0.1/32'] },
  limits: { lookupsPerMinute: 0 },
};

export const as = (user: string, role: Role) => ({ 'x-user': user, 'x-role': role });
export const LEAD = as('lena', 'lead');

/** An instance of the production composition on the sandbox, behind the gateway, with `env` beside. */
export function gatewayInstance(sandbox: RunningSandbox, env: Environment = {}, file: ConfigFile = {}): Promise<Instance> {
  return startInstance(
    {
      KYC_BASE_URL: sandbox.url,
      KYC_CLIENT_ID: sandbox.clientId,
      KYC_API_KEY: SANDBOX_KEYS.full,
      KYC_API_KEY_STATUS: SANDBOX_KEYS.status,
      ...env,
    },
    { file: { ...GATEWAY, ...file } },
  );
}

export function postJson(at: Instance, path: string, body: unknown, headers: Record<string, string> = LEAD): Promise<RawResponse> {
  return at.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

export async function search(at: Instance, query: AuditQuery = {}, headers: Record<string, string> = LEAD): Promise<AuditSearchAnswer> {
  const res = await postJson(at, AUDIT_PATHS.search, query, headers);
  expect(res.status, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return auditSearchAnswerSchema.parse(JSON.parse(res.body));
}

/** Every row of a search, page after page. */
export async function searchAll(at: Instance, query: AuditQuery = {}): Promise<AuditRow[]> {
  const rows: AuditRow[] = [];
  let cursor: string | undefined;
  do {
    const page = await search(at, { ...query, limit: 200, ...(cursor ? { cursor } : {}) });
    rows.push(...page.rows);
    cursor = page.next;
  } while (cursor);
  return rows;
}

export async function status(at: Instance): Promise<AuditStatus> {
  const res = await at.request(AUDIT_PATHS.status, { headers: LEAD });
  expect(res.status, res.body).toBe(200);
  return auditStatusSchema.parse(JSON.parse(res.body));
}

export async function activity(
  at: Instance,
  ids: { refId?: string; recordId?: string },
  headers: Record<string, string>,
): Promise<ActivityAnswer> {
  const res = await postJson(at, '/api/activity', ids, headers);
  expect(res.status, res.body).toBe(200);
  return activityAnswerSchema.parse(JSON.parse(res.body));
}

/** The lines of an audit file, parsed, oldest first. */
export function fileLines(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function lookUp(at: Instance, refId: string, headers: Record<string, string>): Promise<RawResponse> {
  return at.request(`/api/candidates/refId/${encodeURIComponent(refId)}`, { headers });
}

/** RFC 4180, as a spreadsheet reads it. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = text.startsWith('\ufeff') ? 1 : 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted || (c !== ',' && c !== '\r')) cell += c;
    else if (c === ',') endCell();
    else {
      endCell();
      rows.push(row);
      row = [];
      i++; // the \n of \r\n
    }
  }
  return rows;
}

/** The CSV export's rows as objects by its header's names. */
export function csvRecords(text: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(text);
  return rows.map((cells) => Object.fromEntries(header!.map((name, index) => [name, cells[index]!])));
}

/**
 * The CSV's `shown` cell read back as a spreadsheet user would split it: candidates by `; `, each
 * `refId/recordId`, an empty side no id, `%XX` an escaped character of the id; a leading apostrophe is the
 * spreadsheet's formula guard, not part of the id.
 */
export function shownOfCell(cell: string): Array<{ refId?: string; recordId?: string }> {
  if (cell === '') return [];
  return cell
    .replace(/^'(?=[=+\-@\t\r])/, '')
    .split('; ')
    .map((pair) => {
      const [refId, recordId, ...rest] = pair.split('/');
      expect(rest).toEqual([]);
      const id = (text: string | undefined) => (text ? decodeURIComponent(text) : undefined);
      return { ...(id(refId) ? { refId: id(refId) } : {}), ...(id(recordId) ? { recordId: id(recordId) } : {}) };
    });
}
