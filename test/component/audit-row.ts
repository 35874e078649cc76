import type { AuditRow } from '../../src/kyc/contract/audit-search.ts';

/** A line of the trail as the audit page and a candidate's Activity show it: ben's full lookup of cust-204 now, unless told otherwise. */
export function auditRow(overrides: Partial<AuditRow>): AuditRow {
  return {
    time: new Date().toISOString(),
    instance: 'app1',
    hash: Math.random().toString(16).slice(2).padEnd(64, '0'),
    action: 'lookup',
    user: 'ben',
    role: 'compliance',
    env: 'default',
    kind: 'refId',
    id: 'cust-204',
    level: 'full',
    status: 200,
    code: null,
    client: '10.0.0.7',
    requestId: null,
    detail: null,
    ...overrides,
  };
}
