import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { upstreamApplicantsEnvelopeSchema } from '../../src/kyc/contract/applicants.ts';
import { loadSandboxData } from '../../src/server/sandbox/data-file.ts';
import { sandboxOptions } from '../../src/server/sandbox/options.ts';
import { SANDBOX_CLIENT_ID, SANDBOX_KEYS, startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { rawRequest } from './http.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-sandbox-data-'));
const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};
const record = {
  status: 'waiting',
  refId: 'team-user-1',
  recordId: 'rec-1',
  isArchived: false,
  blockPassID: 'bp-1',
  waitingDate: '2026-01-02T03:04:05.678Z',
  identities: { given_name: { type: 'string', value: 'Ana' } },
};

describe('SANDBOX_DATA', () => {
  let close: (() => Promise<void>) | undefined;
  afterAll(() => close?.());

  it("replaces the built-in candidates with a team's own", async () => {
    const candidates = loadSandboxData(write('ok.json', [record]));
    expect(candidates).toEqual([{ record, summary: 'Waiting' }]);
    const sandbox = await startSandbox({ candidates });
    close = sandbox.close;
    const res = await rawRequest(Number(new URL(sandbox.url).port), `/kyc/1.0/connect/${SANDBOX_CLIENT_ID}/refId/team-user-1`, {
      headers: { authorization: SANDBOX_KEYS.status },
    });
    expect(JSON.parse(res.body)).toEqual({ status: 'success', data: { ...record, identities: undefined } });
  });

  it("lists only the file's candidates: no archive-after-extract demonstration in its Waiting tab (UX review)", async () => {
    const file = write('team.json', [record]);
    const sandbox = await startSandbox(await sandboxOptions({ dataFile: file, largeImages: false, hostile: false, testControls: false }));
    try {
      const port = Number(new URL(sandbox.url).port);
      const ask = (path: string) =>
        rawRequest(port, `/kyc/1.0/connect/${SANDBOX_CLIENT_ID}/${path}`, { headers: { authorization: SANDBOX_KEYS.status } });
      const waiting = await ask('applicants/waiting?limit=100');
      expect(waiting.status, waiting.body).toBe(200);
      const listed = upstreamApplicantsEnvelopeSchema.parse(JSON.parse(waiting.body)).data;
      // Before: 2, the file's one and `archive-after-extract-demo`.
      expect(listed.total).toBe(1);
      expect(listed.records.map((listedRecord) => (listedRecord as { refId?: string }).refId)).toEqual(['team-user-1']);
      expect((await ask('refId/archive-after-extract-demo')).status).toBe(404);
    } finally {
      await sandbox.close();
    }
  });

  it('serves an identity attribute sent as a number as the file wrote it, as the real service sends one', async () => {
    // Before: refused at start ("text expected, a number found → at [0].identities.document_number").
    const withNumber = { ...record, identities: { ...record.identities, document_number: { type: 'string', value: 42 } } };
    const sandbox = await startSandbox(
      await sandboxOptions({ dataFile: write('number.json', [withNumber]), largeImages: false, hostile: false, testControls: false }),
    );
    try {
      const res = await rawRequest(Number(new URL(sandbox.url).port), `/kyc/1.0/connect/${SANDBOX_CLIENT_ID}/refId/team-user-1`, {
        headers: { authorization: SANDBOX_KEYS.full },
      });
      expect(res.status, res.body).toBe(200);
      expect(JSON.parse(res.body).data.identities).toEqual(withNumber.identities);
    } finally {
      await sandbox.close();
    }
  });

  it('serves an identity number as JSON reads it, in the bytes served: 1.50 as 1.5, 1E5 as 100000, 1e21 as 1e+21', async () => {
    // Before: 1e21 (one significant digit) was refused as "at most 15 significant digits, a longer one found".
    const numbers = { a: '1.50', b: '1E5', c: '1e21', d: '9007199254740991', e: '-0.000123' };
    const written = JSON.stringify([
      { ...record, identities: Object.fromEntries(Object.keys(numbers).map((name) => [name, { type: 'string', value: 0 }])) },
    ]);
    const text = Object.entries(numbers).reduce(
      (file, [name, number]) => file.replace(`"${name}":{"type":"string","value":0}`, `"${name}":{"type":"string","value":${number}}`),
      written,
    );
    const sandbox = await startSandbox(
      await sandboxOptions({ dataFile: write('numbers.json', text), largeImages: false, hostile: false, testControls: false }),
    );
    try {
      const res = await rawRequest(Number(new URL(sandbox.url).port), `/kyc/1.0/connect/${SANDBOX_CLIENT_ID}/refId/team-user-1`, {
        headers: { authorization: SANDBOX_KEYS.full },
      });
      expect(res.status, res.body).toBe(200);
      expect(res.body).toContain(
        '"identities":{"a":{"type":"string","value":1.5},"b":{"type":"string","value":100000},"c":{"type":"string","value":1e+21},"d":{"type":"string","value":9007199254740991},"e":{"type":"string","value":-0.000123}}',
      );
    } finally {
      await sandbox.close();
    }
  });

  it.each([
    ['a missing file', () => path.join(dir, 'absent.json'), /cannot read .*absent\.json/],
    ['invalid JSON', () => write('bad.json', '[{'), /bad\.json is not valid JSON/],
    ['an empty list', () => write('empty.json', []), /holds no candidate/],
    ['a wrong-typed field', () => write('typed.json', [{ ...record, isArchived: 'no' }]), /→ at \[0\]\.isArchived/],
    [
      'a bad date',
      () => write('date.json', [{ ...record, waitingDate: 'yesterday' }]),
      /an ISO 8601 timestamp expected, text found\n {2}→ at \[0\]\.waitingDate/,
    ],
    ['no recordId', () => write('norecord.json', [{ ...record, recordId: undefined }]), /recordId/],
    ['a duplicate refId', () => write('dup.json', [record, { ...record, recordId: 'rec-2' }]), /duplicate refId "team-user-1"/],
    // The page shows such a value as its JSON, kept beside the record: served from the file it was lost (the UX review).
    [
      'an identity attribute sent as an object',
      () => write('object.json', [{ ...record, identities: { given_name: { type: 'string', value: { first: 'Ana' } } } }]),
      /text expected, an object found\n {2}→ at \[0\]\.identities\.given_name/,
    ],
    // JSON.parse reads them as 12345678901234567000 and 9007199254740992: served, they would not be the numbers the file wrote.
    ...['12345678901234567890', '9007199254740993', '0.30000000000000004'].map((number): [string, () => string, RegExp] => [
      `an identity attribute sent as a number JSON may read as another (${number})`,
      () =>
        write(
          'long.json',
          JSON.stringify([{ ...record, identities: { id_number: { type: 'string', value: 0 } } }]).replace(
            '"value":0',
            `"value":${number}`,
          ),
        ),
      /a number JSON reads as the number written expected .*, one it may read as another found\n {2}→ at \[0\]\.identities\.id_number/,
    ]),
    [
      'a custom field sent as a list',
      () => write('list.json', [{ ...record, customFields: { riskTags: ['pep', 'high'] } }]),
      /text expected, a list found\n {2}→ at \[0\]\.customFields\.riskTags/,
    ],
  ])('refuses %s with a message naming the problem', (_name, file, message) => {
    expect(() => loadSandboxData(file())).toThrow(message);
  });
});
