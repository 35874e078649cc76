import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { answeredOther } from '../../src/kyc/contract/answered-id.ts';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { AskedIdWatch } from '../../src/server/answer/asked-id-watch.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { getBytes } from './parts.ts';
import { startTestApp } from './http.ts';

/**
 * The record's id of the kind asked, in another form than text: a number is compared by its JSON text as
 * sent; an object, a list or true/false cannot be shown to be the asked candidate's id, and is refused.
 * Before, any of them skipped the check, and compliance saw another candidate's identity as the asked one.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const NAME = 'Marguerite Oyelaran';
const bodyWith = (kind: 'refId' | 'recordId', rawId: string) =>
  `{"status":"success","data":{"status":"approved","${kind}":${rawId},"${kind === 'refId' ? 'recordId' : 'refId'}":"x-other","identities":{"given_name":{"type":"string","value":"${NAME}"}}}}`;

async function appAnswering(body: string) {
  const upstream = await startFakeUpstream();
  upstream.behave = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    settings: { keyArchivesOnExtract: 'accept' },
  });
  cleanups.push(app.close, upstream.close);
  return app;
}

const COMPLIANCE = { 'x-user': 'ana', 'x-role': 'compliance' };
const FORMS = { plain: { ...COMPLIANCE, accept: 'application/json' }, parts: COMPLIANCE } as const;

describe('attack: an answer whose id is a number or no text skips the "another candidate" guard', () => {
  for (const [form, headers] of Object.entries(FORMS)) {
    for (const kind of ['refId', 'recordId'] as const) {
      it(`a number that is another id is refused (${kind}, ${form})`, async () => {
        const app = await appAnswering(bodyWith(kind, '12345'));
        const res = await getBytes(app.port, `/api/candidates/${kind}/num-refId`, headers);
        expect(res.status).toBe(502);
        expect(res.body.toString()).not.toContain(NAME);
        expect(JSON.parse(res.body.toString()).error).toMatchObject({ code: 'other_candidate', answeredId: '12345' });
      });

      it(`an object, a list or true is refused as not provably the asked one (${kind}, ${form})`, async () => {
        for (const raw of ['{"id":"num-refId"}', '["num-refId"]', 'true']) {
          const app = await appAnswering(bodyWith(kind, raw));
          const res = await getBytes(app.port, `/api/candidates/${kind}/num-refId`, headers);
          expect(res.status).toBe(502);
          expect(res.body.toString()).not.toContain(NAME);
          const error = JSON.parse(res.body.toString()).error;
          expect(error.code).toBe('other_candidate');
          expect(error.message).toMatch(/not an id, so it cannot be shown to be the candidate looked up/);
        }
      });
    }
  }

  it('a number whose text as sent is the asked id is the candidate: shown', async () => {
    const app = await appAnswering(bodyWith('refId', '12345'));
    const res = await getBytes(app.port, '/api/candidates/refId/12345', FORMS.plain);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain(NAME);
  });

  it('a number JavaScript would write otherwise is compared as sent: 1e3 is not the id 1000', async () => {
    const app = await appAnswering(bodyWith('refId', '1e3'));
    const res = await getBytes(app.port, '/api/candidates/refId/1000', FORMS.plain);
    expect(res.status).toBe(502);
  });
});

/** What the streamed watch says of the record whose id is this JSON value, asked for `asked`. */
function watched(value: unknown, asked: string) {
  const scan = new AnswerScan();
  const watch = new AskedIdWatch(scan.path, { kind: 'refId', id: asked });
  scan.add(watch);
  scan.write(Buffer.from(JSON.stringify({ status: 'success', data: { status: 'approved', refId: value } })));
  scan.end();
  return watch.other;
}

/** Whether the id, as the answer sent it (its JSON text for a number), reads as the asked one. */
const readsAs = (value: unknown, asked: string) => {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? JSON.stringify(value) : undefined;
  return text !== undefined && text.normalize('NFC').trim().toLowerCase() === asked.normalize('NFC').trim().toLowerCase();
};

describe('the record is shown only when its id reads as the asked id', () => {
  it('for any id value and asked id: refused unless it reads as the asked id (null, absent or blank text: no id)', () => {
    const asked = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.integer().map(String));
    const value = fc.oneof(fc.jsonValue(), fc.integer(), asked);
    fc.assert(
      fc.property(value, asked, (id, askedId) => {
        fc.pre(askedId.trim() !== '');
        const noId = id === null || (typeof id === 'string' && id.trim() === '');
        const shown = watched(id, askedId) === undefined;
        expect(shown).toBe(noId || readsAs(id, askedId));
        // The contract's rule, on a value already parsed, never shows more than the streamed watch.
        if (answeredOther(id, askedId) === undefined) expect(shown).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
