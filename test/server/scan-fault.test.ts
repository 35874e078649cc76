import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AnswerGuardError, createAnswerGuard } from '../../src/server/answer/answer-guard.ts';
import { AnswerScan, QuietReader, ScanFault } from '../../src/server/answer/answer-scan.ts';
import { readValue } from '../../src/server/answer/answer-value.ts';
import { keySearch } from '../../src/server/answer/key-watch.ts';
import { ListPageReader } from '../../src/server/answer/list-page-reader.ts';
import { scanFaultFailure } from '../../src/server/answer/upstream-body.ts';
import { ApiFailure } from '../../src/server/http/api-failure.ts';
import { sendFailure } from '../../src/server/http/http-reply.ts';
import { createLogger, logFaultOf, startRequestLog } from '../../src/server/log/log.ts';

/**
 * A reader of an answer that throws (a bug, or a value it cannot take: a stack run out, as the queue's
 * triage did on JSON text nested 10,000 deep) stops the answer as this server's fault. The scan is fed
 * from a socket's events, where the throw went uncaught and the process exited, for every user.
 */

const KEYS = keySearch(['scan-fault-key-7c1e']);
const BODY = Buffer.from(JSON.stringify({ status: 'success', data: { status: 'approved', refId: 'r-1', certs: { a: 'x' } } }));

/** A reader that throws at the first string it reads (`at: 'text'`) or at the body's end. */
class Faulty extends QuietReader {
  constructor(private readonly at: 'text' | 'end') {
    super();
  }
  override startString(): void {
    if (this.at === 'text') throw new RangeError('Maximum call stack size exceeded');
  }
  override end(): void {
    if (this.at === 'end') throw new TypeError('broken reader');
  }
}

describe("a reader's fault while an answer is read", () => {
  it('stops the scan as a ScanFault carrying what was thrown, never throwing itself (mid-body or at its end)', () => {
    for (const at of ['text', 'end'] as const) {
      const scan = new AnswerScan();
      scan.add(new Faulty(at));
      const written = scan.write(BODY);
      const ended = scan.end();
      expect(written && ended).toBe(false);
      expect(scan.failure).toBeInstanceOf(ScanFault);
      expect((scan.failure!.cause as Error).name).toBe(at === 'text' ? 'RangeError' : 'TypeError');
      // Nothing more is read once it failed.
      expect(scan.write(BODY)).toBe(false);
    }
  });

  it("attack: a faulty reader of a full answer's scan fails the answer's guard as this server's fault, and nothing of the body passes", async () => {
    const scan = new AnswerScan();
    scan.add(new Faulty('text'));
    const body = Object.assign(new PassThrough(), { headers: {}, statusCode: 200, complete: true, scan });
    const guard = createAnswerGuard(body, KEYS);
    const passed: Buffer[] = [];
    guard.on('data', (chunk: Buffer) => passed.push(chunk));
    const failed = new Promise<unknown>((resolve) => guard.on('error', resolve));
    scan.write(BODY);
    guard.write(BODY);
    const error = await failed;
    expect(error).toBeInstanceOf(AnswerGuardError);
    expect((error as AnswerGuardError).problem).toBe('scan_fault');
    expect(((error as Error).cause as Error).name).toBe('RangeError');
    expect(Buffer.concat(passed).includes('r-1')).toBe(false);
  });

  it("refuses a value read whole (a list page, a support answer) with the server's own fault in words, its cause kept for the log", async () => {
    const notRead = new ApiFailure('upstream_error', 'not read');
    const scan = new AnswerScan();
    scan.add(new Faulty('text'));
    const body = Object.assign(Readable.from([BODY]), { headers: {}, statusCode: 200, complete: true, scan });
    const fed = new Promise<void>((resolve) => {
      body.on('data', (chunk: Buffer) => scan.write(chunk));
      body.on('end', () => {
        scan.end();
        resolve();
      });
    });
    const read = await readValue(body, { maxResponseBytes: 1 << 20, keys: KEYS }, (path) => new ListPageReader(path), {
      notJson: notRead,
      incomplete: notRead,
    });
    await fed;
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.failure.code).toBe('internal_error');
    expect(read.failure.message).toBe(
      "Candidate Lookup failed while reading the KYC service's answer (its own fault, recorded in its log). Try again; if it keeps happening, tell whoever runs Candidate Lookup.",
    );
    expect((read.failure.cause as Error).name).toBe('RangeError');
  });
});

describe("the answer of a reader's fault", () => {
  it('is logged once by where it was thrown (type and frames), never by its message', async () => {
    const lines: string[] = [];
    const logger = createLogger({ write: (text: string) => void lines.push(text) });
    const server = http.createServer((req, res) => {
      startRequestLog(req, res, logger, () => 0);
      sendFailure(res, scanFaultFailure(new RangeError('a message that could hold a candidate: Ana Silva')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    expect(answer.status).toBe(500);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('internal_error');
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const unexpected = lines
      .map((line) => JSON.parse(line) as { msg: string; error?: { type: string; stack: string[] } })
      .filter((line) => line.msg === 'unexpected error');
    expect(unexpected).toHaveLength(1);
    expect(unexpected[0]!.error!.type).toBe('RangeError');
    expect(unexpected[0]!.error!.stack.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain('Ana Silva');
  });
});

describe('a failure carrying a fault, where it is settled without an answer of its own (a batch row, the crawler)', () => {
  it('is logged by logFaultOf as an unexpected error, by type and frames; no other failure is', () => {
    const lines: string[] = [];
    const logger = createLogger({ write: (text: string) => void lines.push(text) });
    logFaultOf(logger, scanFaultFailure(new RangeError('Ana Silva')));
    logFaultOf(logger, new ApiFailure('upstream_error', 'The KYC service answered with an error (HTTP 500).'));
    logFaultOf(logger, new ApiFailure('internal_error', 'no cause'));
    logFaultOf(logger, undefined);
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; error: { type: string; stack: string[] } });
    expect(logged.map((line) => [line.msg, line.error.type])).toEqual([['unexpected error', 'RangeError']]);
    expect(logged[0]!.error.stack.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain('Ana Silva');
  });
});
