import { describe, expect, it } from 'vitest';
import { batchRowOf, currentStatusDate } from '../../src/kyc/contract/batch.ts';
import { DEFAULT_REPLIES, mergeReplyTemplates, repliesFor, replyTemplatesFileSchema } from '../../src/kyc/contract/replies.ts';

/** The status's first template, as the page offers it first. */
const replyFor = (...args: Parameters<typeof repliesFor>) => repliesFor(...args)[0]!;
import { type CandidateRecord, candidateEnvelopeSchema } from '../../src/kyc/contract/schema.ts';
import { batchCsv, batchFileName, batchHtml, batchTsv, type BatchLine } from '../../src/kyc/view/batch-export.ts';
import { candidateSummary } from '../../src/kyc/view/summary.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';

const NOW = new Date('2026-11-22T14:03:00Z');
const samples = await sampleCandidates({ now: NOW });
const byRef = (refId: string) => samples.find((s) => s.record.refId === refId)!.record;

describe('current status date', () => {
  it('is the latest date of the current status', () => {
    const record = {
      status: 'inreview',
      isArchived: false,
      blockPassID: 'b',
      waitingDate: '2026-01-01T00:00:00.000Z',
      inreviewDate: '2026-01-02T00:00:00.000Z',
      reviewRequestedDate: '2026-01-03T00:00:00.000Z',
    } as CandidateRecord;
    expect(currentStatusDate(record)).toBe('2026-01-02T00:00:00.000Z');
    expect(currentStatusDate({ ...record, status: 'review_requested' })).toBe('2026-01-03T00:00:00.000Z');
    expect(currentStatusDate({ ...record, status: 'approved' })).toBeUndefined();
  });

  it('makes a status-level row with nothing else', () => {
    const row = batchRowOf(3, byRef('user-7781'));
    expect(Object.keys(row).sort()).toEqual([
      'index',
      'isArchived',
      'ok',
      'recordId',
      'refId',
      'status',
      'statusDate',
      'submitCount',
      'type',
    ]);
    expect(row).toMatchObject({ index: 3, ok: true, status: 'blocked', refId: 'user-7781', isArchived: false });
    // An archived candidate says so (its identity data is gone); an answer without the flag, nothing.
    expect(batchRowOf(0, byRef('legacy-2019-0031'))).toMatchObject({ status: 'approved', isArchived: true });
    const { isArchived: _flag, ...unflagged } = byRef('user-7781');
    expect(batchRowOf(0, unflagged)).not.toHaveProperty('isArchived');
  });
});

const LINES: BatchLine[] = [
  {
    line: 1,
    id: 'cust_000482',
    row: {
      type: 'row',
      index: 0,
      ok: true,
      status: 'inreview',
      statusDate: '2026-11-20T10:00:00.000Z',
      submitCount: 2,
      isArchived: true,
      refId: 'cust_000482',
      recordId: '65f1c2a9e4b0d3a1f0c9b802',
    },
  },
  { line: 2, id: 'nobody', row: { type: 'row', index: 1, ok: false, code: 'not_found', message: 'No candidate with refId "nobody".' } },
  {
    line: 4,
    id: '=HYPERLINK("http://x","y")',
    row: { type: 'row', index: 2, ok: false, code: 'not_found', message: 'No, "quoted"\nline' },
  },
  { line: 5, id: 'later' },
];

describe('batch export', () => {
  it('writes CSV with a header, quoting, CRLF and a byte order mark', () => {
    const csv = batchCsv(LINES, 'refId', { zone: 'utc', locale: 'en-GB' });
    expect(
      csv.startsWith(
        '\ufeffline,id,status,statusText,statusDate,statusDateLocal,submitCount,archived,refId,recordId,repeatOf,error,message,unreadable,statusDateDoubt\r\n',
      ),
    ).toBe(true);
    const rows = csv.slice(1).split('\r\n');
    expect(rows[1]).toBe(
      '1,cust_000482,inreview,In review,2026-11-20T10:00:00.000Z,"20 Nov 2026, 10:00 UTC",2,yes,cust_000482,65f1c2a9e4b0d3a1f0c9b802,,,,,',
    );
    expect(rows[2]).toBe('2,nobody,,,,,,,,,,not_found,"No candidate with refId ""nobody"".",,');
    // A formula is defused, then quoted because of its quotes and comma.
    expect(rows[3]).toBe(`4,"'=HYPERLINK(""http://x"",""y"")",,,,,,,,,,not_found,"No, ""quoted""\nline",,`);
    expect(rows[4]).toBe('5,later,,,,,,,later,,,pending,Not looked up,,');
    expect(rows).toHaveLength(6);
  });

  it('writes a tab-separated table without breaks inside cells', () => {
    const tsv = batchTsv(LINES, 'refId').split('\n');
    expect(tsv[0]).toBe(
      'line\tid\tstatus\tstatusText\tstatusDate\tstatusDateLocal\tsubmitCount\tarchived\trefId\trecordId\trepeatOf\terror\tmessage\tunreadable\tstatusDateDoubt',
    );
    expect(tsv[3]!.split('\t')).toHaveLength(15);
    expect(tsv[3]).toContain('No, "quoted" line');
  });

  it('escapes every cell of the HTML table', () => {
    const html = batchHtml([{ line: 1, id: '<img src=x onerror=alert(1)>' }], 'recordId');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('names the file without any id, by the local clock and its offset from UTC', () => {
    const made = new Date(2026, 10, 22, 14, 3);
    const ahead = -made.getTimezoneOffset();
    const offset = `${ahead < 0 ? '-' : '+'}${String(Math.floor(Math.abs(ahead) / 60)).padStart(2, '0')}${String(Math.abs(ahead) % 60).padStart(2, '0')}`;
    expect(batchFileName('refId', made)).toBe(`candidates-refId-2026-11-22-1403${offset}.csv`);
  });
});

describe('candidate summary', () => {
  const full = byRef('user-7781');

  it('holds ids, status since when with its zone, submissions and the environment', () => {
    const text = candidateSummary({
      record: full,
      environment: 'Production · acme_kyc',
      role: 'support',
      now: NOW,
      timeZone: 'UTC',
      locale: 'en-GB',
    });
    expect(text).toContain('Candidate (Production · acme_kyc)');
    expect(text).toContain('refId: user-7781');
    expect(text).toContain(`recordId: ${full.recordId}`);
    expect(text).toMatch(/Status: Blocked since \d{1,2} \w{3} 2026, \d{2}:\d{2} UTC \(\d+ days?/);
    expect(text).toContain(`Submissions: ${full.submitCount}`);
    expect(text).toContain('Looked up: 22 Nov 2026, 14:03 UTC');
    // Support users: no certificate outcomes, no decision fields.
    expect(text).not.toContain('Certificates');
  });

  it('adds certificate outcomes and decision fields for compliance users', () => {
    const text = candidateSummary({
      record: full,
      environment: 'Sandbox',
      role: 'compliance',
      decisionFields: [
        ['screeningCase', 'CA-2026-00917'],
        ['riskScore', 87],
        ['reviewNote', null],
      ],
      now: NOW,
      timeZone: 'UTC',
    });
    // The chip's words, and where a reader of the ticket can check them.
    expect(text).toMatch(/Certificates:\n( {2}\S.*\n)* {2}ComplyAdvantage: potential_match \(at reviewBody\.matchStatus\)\n/);
    expect(text).toContain('Decision fields:\n  screeningCase: CA-2026-00917\n  riskScore: 87\n  reviewNote: (empty)\n');
  });

  it('says an id the answer lacks is "not in this response", as the page does, never "none assigned"; and one it held unreadable, so', () => {
    const { refId: _, ...withoutRefId } = full;
    const text = candidateSummary({ record: withoutRefId as CandidateRecord, environment: 'Sandbox', role: 'compliance', now: NOW });
    expect(text).toContain('refId: not in this response\n');
    expect(text).not.toContain('none assigned');
    // The service sent a refId of another kind (a fraction: a whole number is read as its digits): the page says "in the response, but not readable", and so does the summary.
    const unreadable = candidateEnvelopeSchema.parse({
      status: 'success',
      data: { ...withoutRefId, refId: 4410.5, isArchived: 'maybe' },
    }).data;
    const said = candidateSummary({ record: unreadable, environment: 'Sandbox', role: 'support', now: NOW });
    expect(said).toContain('refId: in the response, but not readable\n');
    expect(said).toContain('Archived: in the response, but not readable\n');
  });

  it('writes times as the page does: "UTC+8" where Intl says "GMT+8", and in UTC when the page is', () => {
    const input = { record: full, environment: 'Sandbox', role: 'support' as const, now: NOW, timeZone: 'Asia/Shanghai', locale: 'en-US' };
    const local = candidateSummary(input);
    expect(local).toMatch(/Looked up: Nov 22, 2026, 10:03\sPM UTC\+8\n/);
    expect(local).toMatch(/Status: Blocked since .+ UTC\+8 \(/);
    expect(local).not.toContain('GMT');
    const utc = candidateSummary({ ...input, zone: 'utc' });
    expect(utc).toMatch(/Looked up: Nov 22, 2026, 02:03\sPM UTC\n/);
    expect(utc).toMatch(/Status: Blocked since .+ \d{2}:\d{2}\s[AP]M UTC \(/);
  });

  it('never holds a picture, the address, the phone, the date of birth or the e-mail', () => {
    for (const { record } of samples) {
      const text = candidateSummary({ record, environment: 'Sandbox', role: 'compliance', now: NOW });
      for (const [name, attribute] of Object.entries(record.identities ?? {})) {
        if (['given_name', 'family_name'].includes(name)) continue;
        const probe = attribute.type === 'base64' ? attribute.value.slice(0, 40) : attribute.value;
        expect(text, `${record.refId} ${name}`).not.toContain(probe);
      }
    }
  });
});

describe('reply templates', () => {
  it('has a neutral reply for every known status, and for blocked a note beside a neutral reply that is not its own', () => {
    for (const status of ['incomplete', 'waiting', 'inreview', 'review_requested', 'approved', 'rejected']) {
      expect(replyFor(DEFAULT_REPLIES, status, {}).reply).toMatch(/\w/);
    }
    expect(replyFor(DEFAULT_REPLIES, 'blocked', {})).toEqual({
      template: 'blocked',
      name: 'Standard',
      reply: null,
      note: 'Do not disclose the reason; escalate to compliance.',
    });
    expect(replyFor(DEFAULT_REPLIES, 'mystery', { refId: 'r1' })).toEqual({
      template: '*',
      name: 'Standard',
      reply: DEFAULT_REPLIES['*']!.reply!.replace('{refId}', 'r1'),
    });
  });

  it('replaces defaults per status from the file, filling placeholders', () => {
    const file = replyTemplatesFileSchema.parse({
      approved: 'Approved on {since} for {refId}.',
      blocked: { reply: null, note: 'Call compliance.' },
      waiting: null,
    });
    const templates = mergeReplyTemplates(file);
    expect(replyFor(templates, 'approved', { refId: 'x1', since: '3 Nov' }).reply).toBe('Approved on 3 Nov for x1.');
    expect(replyFor(templates, 'blocked', {}).note).toBe('Call compliance.');
    expect(replyFor(templates, 'waiting', {}).reply).toBeNull();
    expect(replyFor(templates, 'inreview', { refId: 'r1', since: '3 Nov' })).toEqual({
      template: 'inreview',
      name: 'Standard',
      reply: DEFAULT_REPLIES.inreview!.reply!.replace('{refId}', 'r1').replace('{since}', '3 Nov'),
    });
  });

  it.each([
    [{ approved: 'Hello {name}' }, /placeholders/],
    [{ approved: '' }, /must not be empty/],
    [{ 'Not A Status': 'x' }, /must be a status/],
    [{ approved: 42 }, /./],
  ])('refuses %j', (file, message) => {
    const parsed = replyTemplatesFileSchema.safeParse(file);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toMatch(message);
  });
});

describe('a batch row of an answer with fields it could not read', () => {
  it('names them in the row and the CSV, rather than leaving them blank as if the service had not sent them', () => {
    const record = candidateEnvelopeSchema.parse({
      status: 'success',
      data: { status: 'approved', refId: 'bt1', isArchived: 'maybe', approvedDate: '2026-01-03 00:00:00', submitCount: 2 },
    }).data;
    const row = batchRowOf(0, record);
    expect(row).toMatchObject({ status: 'approved', submitCount: 2, unread: ['isArchived', 'approvedDate'] });
    expect(row).not.toHaveProperty('statusDate');
    const csv = batchCsv([{ line: 1, id: 'bt1', row }], 'refId', { zone: 'utc', locale: 'en-GB' }).split('\r\n');
    expect(csv[1]!.split(',').at(-2)).toBe('isArchived approvedDate');
  });
});
