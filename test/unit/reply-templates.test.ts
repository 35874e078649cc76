import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REPLIES,
  fillTemplate,
  mergeReplyTemplates,
  type ReplyTemplate,
  repliesFor,
  replyTemplatesFileSchema,
} from '../../src/kyc/contract/replies.ts';

/** The status's first template, as the page offers it first. */
const replyFor = (...args: Parameters<typeof repliesFor>) => repliesFor(...args)[0]!;
import { KNOWN_STATUSES, statusInfo } from '../../src/kyc/contract/status.ts';

/**
 * Copy reply's templates (issue 24): placeholders, the rule for one without a value, and every built-in
 * reply agreeing with what the candidate page says of its status.
 */

const ALL = { refId: 'cust_1', recordId: 'r-9', status: 'Rejected', since: '3 November 2026' };

describe('filling a template', () => {
  it('fills every placeholder, support fields included', () => {
    const text = 'Ref {refId} ({recordId}) is {status} since {since}. Reason: {field:rejectionReason}';
    expect(fillTemplate(text, { ...ALL, fields: { rejectionReason: 'Blurred photo' } })).toBe(
      'Ref cust_1 (r-9) is Rejected since 3 November 2026. Reason: Blurred photo',
    );
    expect(fillTemplate('Flag: {field:ok}. Score: {field:n}.', { fields: { ok: true, n: 0 } })).toBe('Flag: yes. Score: 0.');
  });

  it('leaves out the sentence of a placeholder with no value, and a line left empty', () => {
    const text = 'Hello. Since {since}. Bye!\nReason: {field:rejectionReason}\nWhat to do: {field:resubmitHint}\n\nRef: {refId}';
    expect(fillTemplate(text, { fields: { rejectionReason: 'Blurred', resubmitHint: null } })).toBe('Hello. Bye!\nReason: Blurred');
    expect(fillTemplate(text, { since: 'today', refId: 'x', fields: { resubmitHint: '  ' } })).toBe('Hello. Since today. Bye!\n\nRef: x');
    // A "." inside a placeholder's name or value is no sentence's end.
    expect(fillTemplate('See {field:a.b}. Done.', { fields: { 'a.b': 'v. 2' } })).toBe('See v. 2. Done.');
    expect(fillTemplate('See {field:a.b}. Done.', {})).toBe('Done.');
  });

  it('never shows a placeholder, "undefined" or "null", whichever values are missing', () => {
    const names = ['refId', 'recordId', 'status', 'since', 'field:rejectionReason', 'field:resubmitHint'];
    const value = fc.option(
      fc.oneof(
        fc.string({ minLength: 1 }).filter((t) => !/[{}]/.test(t)),
        fc.constant(''),
      ),
      { nil: undefined },
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...names), fc.constantFrom('. ', '! ', '\n', ' ', '\n\n')), { maxLength: 8 }),
        fc.record({ refId: value, recordId: value, status: value, since: value, a: value, b: value }),
        (parts, v) => {
          const text = parts.map(([name, after]) => `Text {${name}}${after}`).join('');
          const filled = fillTemplate(text, { ...v, fields: { rejectionReason: v.a ?? null, resubmitHint: v.b ?? null } });
          expect(filled).not.toMatch(/\{(refId|recordId|status|since|field:[A-Za-z.]+)\}/);
          if (!Object.values(v).some((x) => x?.includes('undefined'))) expect(filled).not.toContain('undefined');
          expect(filled).not.toMatch(/\n{3}/);
          expect(filled).toBe(filled.trim());
        },
      ),
      { numRuns: 500 },
    );
  });

  it('accepts {status} and {field:<name>} in the file, and refuses an unknown placeholder', () => {
    expect(replyTemplatesFileSchema.safeParse({ rejected: 'Status {status}: {field:rejectionReason}' }).success).toBe(true);
    expect(replyTemplatesFileSchema.safeParse({ rejected: 'Dear {name}' }).success).toBe(false);
  });
});

/** What each built-in reply must say (and must not), from the page's description of the status (status.ts). */
const AGREES: Record<string, { page: RegExp; says: RegExp; never?: RegExp }> = {
  incomplete: { page: /checks are still pending/, says: /checks are still running/, never: /finish|form|remaining steps/i },
  waiting: { page: /waiting for an operator/, says: /waiting to be reviewed/ },
  inreview: { page: /reviewing the submission/, says: /being reviewed right now/ },
  review_requested: { page: /new review was requested/, says: /reviewed again/ },
  approved: { page: /approved/, says: /has been approved/, never: /review/ },
  rejected: { page: /must resubmit/, says: /submitted again/, never: /instructions we sent/ },
};

describe('the built-in replies', () => {
  it.each(Object.keys(AGREES))('%s says what the page says of the status', (status) => {
    const rule = AGREES[status]!;
    expect(statusInfo(status).description).toMatch(rule.page);
    const reply = repliesFor(DEFAULT_REPLIES, status, ALL)[0]!.reply!;
    expect(reply).toMatch(rule.says);
    if (rule.never) expect(reply).not.toMatch(rule.never);
  });

  it('covers every known status, and each offers the same "since" date the page shows, and the reference', () => {
    for (const status of KNOWN_STATUSES) {
      const reply = replyFor(DEFAULT_REPLIES, status, ALL);
      if (status === 'blocked') {
        expect(reply.reply).toBeNull();
        continue;
      }
      expect(Object.keys(AGREES)).toContain(status);
      expect(reply.reply, status).toContain(ALL.since);
      expect(reply.reply, status).toContain(ALL.refId);
    }
  });

  it('reads cleanly with nothing known but the status', () => {
    for (const status of KNOWN_STATUSES) {
      const reply = replyFor(DEFAULT_REPLIES, status, {}).reply;
      if (reply === null) continue;
      expect(reply).not.toMatch(/\{|\}|undefined|Your reference|since\s*\.|The reason|What to do/);
      expect(reply).toMatch(/\.$/);
    }
  });

  it('gives the rejected candidate the recorded reason and what to do, when the environment shows them', () => {
    const reply = replyFor(DEFAULT_REPLIES, 'rejected', {
      ...ALL,
      fields: { rejectionReason: 'The passport photo is blurred.', resubmitHint: 'Take a new photo in daylight.' },
    }).reply!;
    expect(reply).toContain('The reason: The passport photo is blurred.\nWhat to do: Take a new photo in daylight.\n');
  });
});

describe('replies say what the record says (issue 33)', () => {
  it('gives the review-requested candidate the recorded review reason and what to do, when the environment shows them', () => {
    const reply = replyFor(DEFAULT_REPLIES, 'review_requested', {
      ...ALL,
      fields: { reviewReason: 'Address changed', resubmitHint: 'Upload a proof of address from the last three months.' },
    }).reply!;
    expect(reply).toContain('The reason: Address changed\nWhat to do: Upload a proof of address from the last three months.\n');
    expect(reply).toMatch(/reviewed again/);
  });

  it('lets every status use the recorded reason and hint, and leaves them out where the record has none', () => {
    const fields = { reviewReason: 'Address changed', resubmitHint: 'Upload a proof of address.', rejectionReason: 'Blurred photo.' };
    const file = replyTemplatesFileSchema.parse({
      waiting: 'We are checking. Reason: {field:reviewReason}\nHint: {field:resubmitHint}',
      approved: { reply: 'Approved.\nEarlier: {field:rejectionReason}' },
    });
    const templates = mergeReplyTemplates(file);
    expect(replyFor(templates, 'waiting', { fields }).reply).toBe(
      'We are checking. Reason: Address changed\nHint: Upload a proof of address.',
    );
    expect(replyFor(templates, 'approved', { fields }).reply).toBe('Approved.\nEarlier: Blurred photo.');
    expect(replyFor(templates, 'waiting', {}).reply).toBe('We are checking.');
  });

  it("offers a status's own template first, then its others by name; blocked's neutral reply says nothing of the reason", () => {
    const blocked = repliesFor(DEFAULT_REPLIES, 'blocked', ALL);
    expect(blocked.map((reply) => [reply.template, reply.name, reply.reply === null])).toEqual([
      ['blocked', 'Standard', true],
      ['blocked:neutral', 'Neutral', false],
    ]);
    expect(blocked[1]!.reply).toContain(ALL.refId);
    expect(blocked[1]!.reply).not.toMatch(/reason|blocked|suspend|fraud|sanction/i);
    expect(blocked[1]!.note).toBe('Do not disclose the reason; escalate to compliance.');
  });

  it('replaces every built-in template of a status the file names, and adds another template beside the built-in ones', () => {
    const file = replyTemplatesFileSchema.parse({
      blocked: null,
      'rejected:short': { name: 'Short', reply: 'Please submit again. {refId}' },
      '*:later': 'We will get back to you.',
    });
    const templates = mergeReplyTemplates(file);
    expect(repliesFor(templates, 'blocked', {}).map((reply) => reply.template)).toEqual(['blocked']);
    expect(
      repliesFor(templates, 'rejected', { refId: 'r1' }).map((reply) => [reply.template, reply.name, reply.reply?.slice(0, 20)]),
    ).toEqual([
      ['rejected', 'Standard', 'We could not complet'],
      ['rejected:short', 'Short', 'Please submit again.'],
    ]);
    expect(repliesFor(templates, 'mystery', {}).map((reply) => [reply.template, reply.name])).toEqual([
      ['*', 'Standard'],
      ['*:later', 'Later'],
    ]);
  });

  it('refuses a template key that is neither a status nor another template of one', () => {
    for (const key of ['blocked:', 'blocked:Neutral', 'a:b:c', ':x', 'Blocked']) {
      expect(replyTemplatesFileSchema.safeParse({ [key]: 'x' }).success, key).toBe(false);
    }
    expect(replyTemplatesFileSchema.safeParse({ 'blocked:neutral-2': 'x' }).success).toBe(true);
  });

  it("always offers at least one template, the status's own first when it has one, and only the fallback's when it has none", () => {
    const status = fc.constantFrom('waiting', 'blocked', 'approved', 'mystery', '*');
    const key = fc
      .tuple(status, fc.option(fc.constantFrom('a', 'b', 'neutral'), { nil: undefined }))
      .map(([s, v]) => (v ? `${s}:${v}` : s));
    const template: fc.Arbitrary<ReplyTemplate> = fc.record({ reply: fc.option(fc.constantFrom('Hi {refId}.', 'Ok.'), { nil: null }) });
    fc.assert(
      fc.property(fc.dictionary(key, template), status, (templates, asked) => {
        const offered = repliesFor(templates, asked, { refId: 'r' });
        expect(offered.length).toBeGreaterThan(0);
        const owners = new Set(offered.map((reply) => reply.template.split(':')[0]));
        const own = Object.keys(templates).some((k) => k.split(':')[0] === asked);
        expect([...owners]).toEqual([own ? asked : '*']);
        if (Object.hasOwn(templates, asked)) expect(offered[0]!.template).toBe(asked);
        expect(new Set(offered.map((reply) => reply.template)).size).toBe(offered.length);
      }),
      { numRuns: 500 },
    );
  });
});
