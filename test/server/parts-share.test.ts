import http from 'node:http';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { PARTS_ACCEPT } from '../../src/kyc/contract/picture-parts.ts';
import { createPartsBudget, OWN_SHARE_BUSY, PARTS_BUSY } from '../../src/server/answer/parts-budget.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { numberArrayBody, startHostileUpstream } from './hostile-upstream.ts';
import { APP_HEADERS, startTestApp } from './http.ts';

/**
 * An answer in parts holds its record's bytes until it is sent (parts-budget.ts). One user reading four
 * 64 MB answers slowly held the whole 256 MiB for minutes, and every other user's large answer was refused
 * 503 meanwhile (red team). Past their first answer, one person's answers hold at most a quarter.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
const MB = 1024 * 1024;
const gateway = () => createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] });

/** A lookup in parts whose answer is never read past its status line: it holds its bytes in the budget until cut. */
function unread(port: number, user: string): Promise<{ status: number; body: string; request: http.ClientRequest }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/candidates/refId/r',
        headers: { ...APP_HEADERS, accept: PARTS_ACCEPT, 'x-user': user, 'x-role': 'compliance' },
        agent: false,
      },
      (res) => {
        if (res.statusCode === 200) {
          res.pause();
          return resolve({ status: 200, body: '', request });
        }
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, request }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe("one person's answers in parts", () => {
  it("attack: one user's four large answers in parts, never read, hold at most their share once the bound is half held: another user's large answer is built, and the user's own past it are refused (503, with a wait)", async () => {
    // Four 20 MB records fill 80 MB of a 90 MiB budget: a fifth of anyone's did not fit.
    const body = numberArrayBody(20 * MB);
    const upstream = await startHostileUpstream(() => body);
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'live-key-3f9a-c27e81d0' },
      access: gateway(),
      settings: { partsMemoryBytes: 90 * MB, keyArchivesOnExtract: 'accept' },
    });
    cleanups.push(app.close, upstream.close);
    const mallory = await Promise.all(Array.from({ length: 4 }, () => unread(app.port, 'mallory')));
    try {
      // Her first two fit while half the bound is free; past it her share holds.
      expect(mallory.filter((res) => res.status === 200)).toHaveLength(2);
      const refused = mallory.filter((res) => res.status === 503);
      expect(refused).toHaveLength(2);
      expect(JSON.parse(refused[0]!.body).error).toMatchObject({
        code: 'server_busy',
        message: OWN_SHARE_BUSY.message,
        retryAfterSeconds: 5,
      });
      const ana = await unread(app.port, 'ana');
      ana.request.destroy();
      expect(ana.status).toBe(200);
    } finally {
      for (const res of mallory) res.request.destroy();
    }
  }, 60_000);
});

describe('the budget of answers in parts', () => {
  it("refuses a person's answer past their share once they hold one, and lets their first take up to the whole bound", () => {
    const budget = createPartsBudget(100);
    const first = budget.hold('mallory');
    expect(first.reserve(60)).toBe(true);
    const second = budget.hold('mallory');
    expect(second.reserve(10)).toBe(false);
    expect(second.refusal).toBe(OWN_SHARE_BUSY);
    const ana = budget.hold('ana');
    expect(ana.reserve(41)).toBe(false);
    expect(ana.refusal).toBe(PARTS_BUSY);
    expect(ana.reserve(40)).toBe(true);
    first.release();
    expect(second.reserve(25)).toBe(true);
    expect(budget.held()).toBe(65);
  });

  it("property: the bound holds; a person's oldest answer is refused only at the bound; a later one also past the share, once half the bound is held; every release gives back what was held", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('open', 'take', 'release'), fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 0, max: 60 })), {
          maxLength: 80,
        }),
        (steps) => {
          const budget = createPartsBudget(100);
          // Every holding still held, in the order they were made (a refused one is released at once, as full-answer.ts does).
          const open: Array<{ owner: string; holding: ReturnType<typeof budget.hold>; bytes: number; reserved: number }> = [];
          for (const [step, owner, bytes] of steps) {
            const theirs = open.filter((one) => one.owner === owner);
            if (step === 'release') {
              const last = theirs.at(-1);
              if (last) {
                open.splice(open.indexOf(last), 1);
                last.holding.release();
              }
            } else {
              const taking = step === 'take' && theirs.length > 0;
              const one = taking ? theirs.at(-1)! : { owner, holding: budget.hold(owner), bytes: 0, reserved: 0 };
              if (!taking) open.push(one);
              // A take comes out of what was reserved first: only the rest is new.
              const extra = bytes - (taking ? Math.min(bytes, one.reserved) : 0);
              if (taking) one.reserved -= Math.min(bytes, one.reserved);
              const oldest = open.find((other) => other.owner === owner) === one;
              const held = open.filter((other) => other.owner === owner).reduce((sum, other) => sum + other.bytes, 0);
              const overShare = !oldest && held + extra > 25 && budget.held() + extra > 50;
              const overBound = budget.held() + extra > 100;
              const granted = taking ? one.holding.take(bytes) : one.holding.reserve(bytes);
              // A take met by the reservation alone asks nothing more of the budget.
              expect(granted).toBe((taking && extra === 0) || (!overShare && !overBound));
              if (granted) {
                one.bytes += extra;
                if (!taking) one.reserved = bytes;
              } else {
                expect(one.holding.refusal).toBe(overShare ? OWN_SHARE_BUSY : PARTS_BUSY);
                if (!taking) {
                  open.splice(open.indexOf(one), 1);
                  one.holding.release();
                }
              }
            }
            expect(budget.held()).toBe(open.reduce((sum, one) => sum + one.bytes, 0));
            expect(budget.held()).toBeLessThanOrEqual(100);
          }
          for (const one of open) one.holding.release();
          expect(budget.held()).toBe(0);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
