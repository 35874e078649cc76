import { describe, expect, it } from 'vitest';
import { PARTS_ACCEPT } from '../../src/kyc/contract/picture-parts.ts';
import { notARecord } from '../../src/server/answer/not-a-record.ts';
import { RECORD } from './hostile-upstream.ts';
import type { RawResponse } from './http.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { serviceAndApp } from './service-app.ts';

const NOT_A_RECORD = notARecord({ cause: 'unknown' });

/**
 * The envelope's `status` and `data` read the same at every level (envelope-members.ts): the full answer
 * used to decide from its opening bytes, the status level from the last `status` (JSON.parse's), so one
 * answer was a record at one level and an error at the other.
 */

const audit = memoryAuditLog();
const { upstream, app } = await serviceAndApp((baseUrl) => ({
  upstream: { baseUrl, clientId: 'client_envelope', apiKey: 'envelope-key-7c2d91e4' },
  audit,
}));

/** A 200 with this body; given in pieces, each goes after a pause, so that the app reads them apart. */
function answer(body: string | string[]) {
  const pieces = typeof body === 'string' ? [body] : body;
  upstream.behave = async (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(pieces.join('')) });
    for (const piece of pieces.slice(0, -1)) {
      res.write(piece);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    res.end(pieces.at(-1));
  };
}

type Level = 'full' | 'in parts' | 'status level';
const ask: Record<Level, () => Promise<RawResponse>> = {
  full: () => app.get('/api/candidates/refId/r', { accept: 'application/json' }),
  'in parts': () => app.get('/api/candidates/refId/r', { accept: PARTS_ACCEPT }),
  'status level': () => app.get('/api/status/refId/r', { accept: 'application/json' }),
};
const LEVELS = Object.keys(ask) as Level[];

/** A record with an identity: an answer in parts sends its status part at `identities`, before the rest. */
const DATA = JSON.stringify({ ...RECORD, identities: { passport: { type: 'base64', value: 'QUJD' } } });

/** What a level answered: a whole 200 (a record), cut after its status line, or the error's code and message. */
function outcome(res: RawResponse): string {
  if (res.cut) return 'cut';
  if (res.status === 200) return 'record';
  const { code, message } = JSON.parse(res.body).error as { code: string; message: string };
  return `${res.status} ${code}: ${message}`;
}

const STATED = '502 upstream_error: The KYC service answered with an error.';
/** The service's error envelope saying "Resource not Found", code 404: as a 404 of the service is answered. */
const NOT_FOUND = '404 not_found: No candidate with refId "r".';
const RESOURCE_NOT_FOUND = '"message":"Resource not Found","code":404';

/** What the audit line of the last lookup says came of it: its status, code and level. */
function audited(): string {
  const line = audit.lines.at(-1) as { status: number; code: string | null; level: string | null };
  return `${line.status} ${line.code} ${line.level}`;
}
const repeated = (member: string) =>
  `502 not_a_record: The KYC service's answer gives its envelope's "${member}" more than once, so it cannot be told whether it is a record or an error: it was refused. If it keeps happening, tell whoever runs Candidate Lookup.`;

describe('the envelope read the same at every level', () => {
  it('attack: a repeated top-level status reads as a record at one level and an error at the other', async () => {
    // What comes after the record opened: the error when it arrives before the status line is out (a short
    // answer read in one piece), else the answer is cut short (the one signal left after the status line).
    const late = (error: string) => [error, 'cut'];
    const cases: Array<[string, Record<Level, string[]>]> = [
      // One status, after the record: the error envelope all the same.
      [`{"data":${DATA},"status":"error"}`, { full: late(STATED), 'in parts': [STATED], 'status level': [STATED] }],
      // Given twice, either way round: neither a record nor the error, at any level.
      [
        `{"status":"success","data":${DATA},"status":"error"}`,
        { full: late(repeated('status')), 'in parts': late(repeated('status')), 'status level': [repeated('status')] },
      ],
      [
        `{"status":"error","status":"success","data":${DATA}}`,
        { full: [repeated('status')], 'in parts': [repeated('status')], 'status level': [repeated('status')] },
      ],
      [
        `{"status":"success","data":${DATA},"data":${DATA}}`,
        { full: late(repeated('data')), 'in parts': late(repeated('data')), 'status level': [repeated('data')] },
      ],
    ];
    for (const [body, expected] of cases) {
      answer(body);
      for (const level of LEVELS) expect(expected[level], `${level}: ${body}`).toContain(outcome(await ask[level]()));
    }
  });

  it('a real record whose own status, or a custom field, holds "error" is still a record at every level', async () => {
    const own = JSON.stringify({ ...RECORD, status: 'error', customFields: { outcome: 'error', status: 'error' } });
    for (const body of [
      `{"status":"success","data":${own}}`,
      `{"data":${DATA},"status":"success"}`,
      `{"data":${own}}`,
      `{"status":"success","data":${JSON.stringify({ ...RECORD, customFields: { status: 'error' } })},"note":"error"}`,
    ]) {
      answer(body);
      for (const level of LEVELS) expect(outcome(await ask[level]()), `${level}: ${body}`).toBe('record');
    }
  });

  it('attack: an escaped envelope status reads differently at two levels', async () => {
    // JSON reads "\u0065rror" as "error" and "\u0073uccess" as "success": the full answer read the raw
    // bytes of its opening and refused both as not a record, while the status level read them decoded.
    const cases: Array<[string, string]> = [
      [`{"status":"\\u0065rror",${RESOURCE_NOT_FOUND}}`, NOT_FOUND],
      [`{"status":"\\u0065\\u0072ror",${RESOURCE_NOT_FOUND},"data":${DATA}}`, NOT_FOUND],
      [`{"code":200,"status":"\\u0073ucc\\u0065ss","data":${DATA}}`, 'record'],
      [`{"data":${DATA},"status":"\\u0065rror",${RESOURCE_NOT_FOUND}}`, NOT_FOUND],
    ];
    for (const [body, expected] of cases) {
      answer(body);
      for (const level of LEVELS) expect(outcome(await ask[level]()), `${level}: ${body}`).toBe(expected);
    }
  });

  it('attack: escaped member name st\\u0061tus', async () => {
    // JSON reads the member name "st\u0061tus" as "status" and "d\u0061ta" as "data": the full answer
    // compared the raw bytes of its opening's names and refused such an answer as not a record (or, after
    // `data`, missed the error it states), while the status level read the names decoded.
    const cases: Array<[string, string]> = [
      [`{"st\\u0061tus":"success","data":${DATA}}`, 'record'],
      [`{"status":"success","d\\u0061ta":${DATA}}`, 'record'],
      [`{"\\u0073\\u0074atus":"\\u0065rror",${RESOURCE_NOT_FOUND}}`, NOT_FOUND],
      [`{"c\\u006fde":200,"st\\u0061tus":"success","data":${DATA}}`, 'record'],
      [`{"st\\u0061tus":"error","status":"success","data":${DATA}}`, repeated('status')],
    ];
    for (const [body, expected] of cases) {
      answer(body);
      for (const level of LEVELS) expect(outcome(await ask[level]()), `${level}: ${body}`).toBe(expected);
    }
  });

  it('a record sent as text (encrypted: "data":"U2FsdGVkX1…") is not a readable record at every level, where the page was sent it and said "unexpected shape"', async () => {
    const NOT_READABLE = `502 not_a_record: ${NOT_A_RECORD.message}`;
    const said = (cause: 'text' | 'list' | 'unknown') => `502 not_a_record: ${notARecord({ cause }).message}`;
    const sealed = Buffer.from(DATA).toString('base64');
    for (const [body, expected] of [
      [`{"status":"success","data":"U2FsdGVkX1${sealed}"}`, said('text')],
      [`{"status":"success", "data" : "${sealed}"}`, said('text')],
      [[`{"status":"success","da`, `ta":"${sealed}"}`], said('text')],
      // No object either (the review: "unexpected shape" at status level, not a record at full level), each said as what it is.
      ['{"status":"success","data":[{"status":"approved","refId":"r"}]}', said('list')],
      ['{"status":"success","data":42}', NOT_READABLE],
    ] as const) {
      answer(body as string | string[]);
      for (const level of LEVELS) expect(outcome(await ask[level]()), `${level}: ${body}`).toBe(expected);
    }
    // A record whose data follows other members, or is an object, is still read.
    answer(`{"status":"success","data":${DATA}}`);
    for (const level of LEVELS) expect(outcome(await ask[level]()), level).toBe('record');
  });

  it('a record of the wrong shape at status level says what was wrong (the first issue, as the full answer does), never that it usually passes', async () => {
    const cases: Array<[string, string]> = [
      ['{"status":"success","data":{"refId":"r","isArchived":false}}', 'The record has no status. (at data.status)'],
      ['{"status":"success","data":{"status":7,"refId":"r"}}', 'The record’s status must be text, not a whole number. (at data.status)'],
      [
        '{"status":"success","data":{"status":"approved"}}',
        'The record has neither a refId nor a recordId that can be read. (at data.refId)',
      ],
    ];
    for (const [body, wrong] of cases) {
      answer(body);
      const res = await ask['status level']();
      expect(outcome(res), body).toBe(
        `502 not_a_record: The KYC service's answer does not have the expected shape, so it could not be reduced to status level. What was wrong: ${wrong} Asking again gets the same answer until the service's record changes: tell whoever runs Candidate Lookup.`,
      );
      expect(audited(), body).toBe('502 not_a_record stripped');
    }
  });

  it('"data":null is an answer that holds no record at every level, not one that may be encrypted', async () => {
    for (const body of [
      '{"status":"success","data":null}',
      '{"status":"success", "data" : null }',
      [`{"status":"success","da`, `ta":null}`],
    ]) {
      answer(body);
      for (const level of LEVELS) {
        expect(outcome(await ask[level]()), `${level}: ${body}`).toBe(
          "502 not_a_record: The KYC service's answer holds no record (data is null). If it keeps happening, tell whoever runs Candidate Lookup.",
        );
      }
    }
  });

  it('an error stated after the record is answered and audited as that error, with its code, at every level', async () => {
    const late = `{"data":${DATA},"status":"error",${RESOURCE_NOT_FOUND}}`;
    answer(late);
    for (const level of LEVELS) {
      expect(outcome(await ask[level]()), level).toBe(NOT_FOUND);
      expect(audited(), level).toBe(`404 not_found ${level === 'status level' ? 'stripped' : 'full'}`);
    }
    // Its members come in a piece of their own after a large record: an answer in parts has read the
    // record whole before its status line, so it can still say the error.
    const large = JSON.stringify({ ...RECORD, identities: { passport: { type: 'base64', value: 'QUJD'.repeat(50_000) } } });
    answer([`{"data":${large}`, ',"status":"error",', `${RESOURCE_NOT_FOUND}}`]);
    expect(outcome(await ask['in parts']())).toBe(NOT_FOUND);
    expect(audited()).toBe('404 not_found full');
  });
});
