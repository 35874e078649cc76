import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicantsPageSchema, statusDateField } from '../../src/kyc/contract/applicants.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { type RawResponse, startTestApp } from './http.ts';
import { startListUpstream } from './list-upstream.ts';

/**
 * The list's one rule, as a property over real HTTP: only `status` and one id are required of a list
 * record. Whatever else a valid record lacks, or has of the wrong type, the page is answered, that
 * record in it with its status and ids, and its neighbours with it.
 */

const gateway = () => createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] });
const ROLES = {
  support: { 'x-user': 'sam', 'x-role': 'support' },
  compliance: { 'x-user': 'ana', 'x-role': 'compliance' },
};

let upstream: Awaited<ReturnType<typeof startListUpstream>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  upstream = await startListUpstream([]);
  // The status key lets the crawler check the rows an earlier run listed (404: gone), so each run's list is what the index holds.
  app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'client', apiKey: 'full-key', statusApiKey: 'status-key' },
    access: gateway(),
  });
});
afterAll(async () => {
  await app.close();
  await upstream.close();
});

const idText = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 1, maxLength: 24 });
const timestamp = fc.integer({ min: 0, max: 10 ** 11 }).map((ms) => new Date(1.6e12 + ms).toISOString());
const STATUSES = ['waiting', 'inreview', 'approved', 'rejected', 'blocked', 'review_requested', 'incomplete', 'some_new_status'];

/** A whole record of the current documentation, with its recordId under either name or none, and its refId unless the recordId stands alone. */
const validRecord = fc
  .record({
    status: fc.constantFrom(...STATUSES),
    recordId: idText,
    idField: fc.constantFrom('_id', 'recordId', undefined),
    refId: idText,
    withRefId: fc.boolean(),
    isArchived: fc.boolean(),
    blockPassID: idText,
    submitCount: fc.nat(9),
    waitingDate: timestamp,
    ownDate: timestamp,
    given: fc.string({ maxLength: 12 }),
    family: fc.string({ maxLength: 12 }),
  })
  .map((r) => ({
    status: r.status,
    ...(r.idField ? { [r.idField]: r.recordId } : {}),
    ...(r.withRefId || !r.idField ? { refId: r.refId } : {}),
    isArchived: r.isArchived,
    blockPassID: r.blockPassID,
    submitCount: r.submitCount,
    waitingDate: r.waitingDate,
    [statusDateField(r.status)]: r.ownDate,
    customFields: { riskLevel: 'low' },
    identities: {
      given_name: { type: 'string', value: r.given },
      family_name: { type: 'string', value: r.family },
      email: { type: 'string', value: 'someone@example.org' },
    },
    certs: { 'onfido-service-cert': '{"@context":[]}' },
  }));

const ID_FIELDS = new Set(['status', '_id', 'recordId', 'refId']);
const optionalFields = (record: Record<string, unknown>) => Object.keys(record).filter((field) => !ID_FIELDS.has(field));

/** Values of a type no optional field has (or, for a date, a text that is no timestamp). */
const WRONG = [42, -1.5, 'text', '', ['a'], { a: 1 }, false, true];
/** Whether `value` is of the field's type, so that it is no type error there. */
function fits(field: string, value: unknown): boolean {
  if (field === 'isArchived') return typeof value === 'boolean';
  if (field === 'blockPassID') return typeof value === 'string' && value !== '';
  if (field.endsWith('Date')) return false;
  if (field === 'submitCount') return typeof value === 'number';
  return typeof value === 'object' && !Array.isArray(value);
}

/** The fields the list reads (the others pass by unread, identities too: the index keeps no name): a wrong one is named on it. */
function isRead(field: string, status: string): boolean {
  return field === 'isArchived' || field === 'blockPassID' || field === statusDateField(status);
}

const change = fc.oneof(
  fc.record({ kind: fc.constant('remove' as const), pick: fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }) }),
  fc.record({ kind: fc.constant('wrong' as const), at: fc.nat(), value: fc.constantFrom(...WRONG) }),
);

let run = 0;
const pageOf = (res: RawResponse) => {
  expect(res.status, res.body).toBe(200);
  return applicantsPageSchema.parse(JSON.parse(res.body)).data;
};

describe('a list record, read tolerantly', () => {
  it('without any subset of its optional fields, or with any one of them of the wrong type, never fails the list: the record is shown with its ids and status, and so is the rest of the page', async () => {
    await fc.assert(
      fc.asyncProperty(validRecord, change, fc.constantFrom('support' as const, 'compliance' as const), async (valid, how, role) => {
        run += 1;
        // Ids of their own each run: the queue index must not lend a date from an earlier run.
        const record: Record<string, unknown> = Object.fromEntries(
          Object.entries(valid).map(([field, value]) => [field, ID_FIELDS.has(field) && field !== 'status' ? `${value}-${run}` : value]),
        );
        const fields = optionalFields(record);
        let wrongField: string | undefined;
        if (how.kind === 'remove') {
          fields.forEach((field, index) => {
            if (how.pick[index]) delete record[field];
          });
        } else {
          wrongField = fields[how.at % fields.length]!;
          if (fits(wrongField, how.value)) return;
          record[wrongField] = how.value;
        }
        const before = { status: 'approved', _id: `before-${run}`, refId: `ref-before-${run}`, isArchived: false };
        const after = { status: 'waiting', _id: `after-${run}`, isArchived: true };
        upstream.state.records = [before, record, after];
        // The crawler reads the list into the index (issue 32); the view reads the index.
        await app.crawl();
        const page = pageOf(await app.get('/api/applicants?skip=0&limit=100', ROLES[role]));
        expect(page.skipped).toBeUndefined();
        const idOf = (row: (typeof page.records)[number]) => row.recordId ?? row.refId;
        const ids = new Set(page.records.map(idOf));
        expect(ids.has(`before-${run}`) && ids.has(`after-${run}`)).toBe(true);
        const row = page.records.find((one) => one.refId === record.refId && one.recordId === (record.recordId ?? record._id))!;
        expect(row).toBeDefined();
        expect(row.status).toBe(record.status);
        // Absent is absent, never an error; a wrong field is named on that field, and on nothing else.
        const named = Object.keys(row.unreadable ?? {});
        expect(named).toEqual(wrongField && isRead(wrongField, String(record.status)) ? [wrongField] : []);
        if (!('isArchived' in record) || wrongField === 'isArchived') expect(row.isArchived).toBeUndefined();
        expect(row.name).toBeUndefined();
      }),
      { numRuns: 100 },
    );
    // 100 crawls and views: a few seconds on a quiet machine, and it once passed 20 s under load 10.
  }, 60_000);
});
