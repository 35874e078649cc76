import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { PARTS_ACCEPT } from '../../src/kyc/contract/picture-parts.ts';
import type { AuditEntry } from '../../src/server/audit/audit.ts';
import { RECORD } from './hostile-upstream.ts';
import { APP_HEADERS, type RawResponse } from './http.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { serviceAndApp } from './service-app.ts';

/**
 * Who looked at whom, as it ended: a full answer whose status line had left and that was then cut short
 * (the service stating an error after its record, its answer breaking off, the client leaving) used to
 * leave only its first line, a 200, in the trail. A second line of the same request now says it was cut,
 * and why (lookup/answer-end.ts).
 */

const audit = memoryAuditLog();
const { upstream, app } = await serviceAndApp((baseUrl) => ({
  upstream: { baseUrl, clientId: 'client_cut', apiKey: 'cut-key-5e81a7c3' },
  audit,
}));

/** A record larger than what arrives with the answer's start: its status line leaves before the end is read. */
const LARGE = JSON.stringify({ ...RECORD, identities: { passport: { type: 'base64', value: 'QUJD'.repeat(200_000) } } });
const LATE_ERROR = ',"status":"error","message":"Resource not Found","code":404}';

/** A 200 whose body comes in these pieces, 50 ms apart; `then` decides how it ends (by default, it ends). */
function answerInPieces(pieces: string[], then: (res: http.ServerResponse) => void = (res) => res.end()) {
  upstream.behave = async (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    for (const piece of pieces) {
      res.write(piece);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    then(res);
  };
}

/** The audit lines of the request that answered `res`, in the order written. */
const linesOf = (res: RawResponse) =>
  audit.lines.filter((line) => 'requestId' in line && line.requestId === res.headers['x-request-id']) as AuditEntry[];

/** What each line of that request says: status, code, level, and why it was cut when it was. */
const outcomes = (res: RawResponse) =>
  linesOf(res).map((line) => `${line.status} ${line.code} ${line.level}${line.cut ? ` cut: ${line.cut}` : ''}`);

describe('a full answer cut short after its status line left', () => {
  it('attack: a plain answer whose service states an error after a large record is written as cut, with the error it stated, not as a lone 200', async () => {
    answerInPieces([`{"data":${LARGE}`, LATE_ERROR]);
    const res = await app.get('/api/candidates/refId/r', { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.cut).toBe(true);
    await expect.poll(() => outcomes(res)).toEqual(['200 null full', '404 not_found full cut: service_error']);
    const [first, cut] = linesOf(res);
    expect(cut).toMatchObject({ kind: 'refId', id: 'r', upstreamStatus: 200, user: first!.user });
  });

  it('the service breaking off mid-record: cut, as the answer it could not send whole (502 upstream_error)', async () => {
    answerInPieces([`{"data":${LARGE.slice(0, 400_000)}`], (res) => res.destroy());
    const res = await app.get('/api/candidates/refId/r', { accept: 'application/json' });
    expect(res.cut).toBe(true);
    await expect.poll(() => outcomes(res)).toEqual(['200 null full', '502 upstream_error full cut: answer_fault']);
  });

  it('the client going away mid-answer: cut, as cancelled by the client (499)', async () => {
    let release = () => {};
    answerInPieces([`{"data":${LARGE.slice(0, 400_000)}`], (res) => {
      release = () => res.end(`${LARGE.slice(400_000)}}`);
    });
    const requestId = await new Promise<string>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port: app.port, path: '/api/candidates/refId/r', headers: { ...APP_HEADERS, accept: 'application/json' } },
        (res) => {
          // Some of the record has arrived: the reader leaves.
          res.once('data', () => {
            resolve(String(res.headers['x-request-id']));
            req.destroy();
          });
        },
      );
      req.on('error', (error) => (error.message === 'socket hang up' ? undefined : reject(error)));
    });
    const mine = () => audit.lines.filter((line) => 'requestId' in line && line.requestId === requestId) as AuditEntry[];
    await expect
      .poll(() => mine().map((line) => `${line.status} ${line.code} ${line.cut ?? ''}`))
      .toEqual(['200 null ', '499 cancelled client_left']);
    release();
  });

  it('in parts: a status given again after a large record, once the status part has left, is written as cut (502 not_a_record)', async () => {
    answerInPieces([`{"status":"success","data":${LARGE}`, ',"status":"error"}']);
    const res = await app.get('/api/candidates/refId/r', { accept: PARTS_ACCEPT });
    expect(res.status).toBe(200);
    expect(res.cut).toBe(true);
    await expect.poll(() => outcomes(res)).toEqual(['200 null full', '502 not_a_record full cut: answer_fault']);
  });

  it('an answer that arrives whole, plain or in parts, keeps its one line', async () => {
    answerInPieces([`{"status":"success","data":${LARGE}`, '}']);
    const answers: RawResponse[] = [];
    for (const accept of ['application/json', PARTS_ACCEPT, 'application/json']) {
      answers.push(await app.get('/api/candidates/refId/r', { accept }));
    }
    // Each answer's close came before the next lookup's line (the one after it marks where a cut line would be).
    for (const res of answers) expect(res.cut).toBe(false);
    expect(answers.slice(0, 2).map(outcomes)).toEqual([['200 null full'], ['200 null full']]);
  });
});
