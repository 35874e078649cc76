import { appendFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { activityAnswerSchema } from '../../src/kyc/contract/audit-search.ts';
import { postJson } from './audit-trail-helpers.ts';
import { ANA, DAVE, candidates, sandboxOnly } from './queue-view-fixture.ts';

/**
 * A candidate's Activity reads the audit trail (this instance's files, without a database), up to two
 * seconds of the process's time each: one user's many reads are limited (limits.activityPerMinute), and
 * the reads under way at once are bounded and take turns among the people asking (trail-reads.ts).
 */
const amelie = candidates[0]!.record;
const { instance } = sandboxOnly();

/** `count` lines of other people's lookups, each read by every Activity's scan (none of them matches). */
function busyTrail(file: string, count: number): void {
  const time = new Date().toISOString();
  const line = (i: number) =>
    `{"prev":"${'0'.repeat(64)}","time":"${time}","kind":"lookup","user":"zed${i}","role":"compliance","env":"default","lookupKind":"refId","id":"user-${i}","level":"full","outcome":"found"}\n`;
  for (let start = 0; start < count; start += 10_000) {
    appendFileSync(file, Array.from({ length: Math.min(10_000, count - start) }, (_, i) => line(start + i)).join(''));
  }
}

describe("a candidate's Activity under one user's flood", () => {
  it("attack: one compliance user's 60 Activity requests at once are limited (429 with the wait past activityPerMinute), and another user's Activity is read within the first turns, not behind them", async () => {
    const app = await instance({}, { limits: { lookupsPerMinute: 0, activityPerMinute: 30 } });
    busyTrail(app.auditLog, 60_000);
    let answered = 0;
    let refusals = 0;
    let allRefused = () => {};
    const thirtyRefused = new Promise<void>((resolve) => {
      allRefused = resolve;
    });
    const ask = (headers: Record<string, string>) =>
      postJson(app, '/api/activity', { refId: amelie.refId }, headers).then((res) => {
        if (res.status === 429 && ++refusals === 30) allRefused();
        return { res, order: answered++ };
      });
    const flood = Array.from({ length: 60 }, () => ask(ANA));
    // The refusals come back at once (nothing is read for them); by then the other 30 are in line.
    await Promise.race([thirtyRefused, Promise.all(flood)]);
    const other = await ask(DAVE);
    const all = await Promise.all(flood);
    const refused = all.filter(({ res }) => res.status === 429);
    expect(refused).toHaveLength(30);
    expect(JSON.parse(refused[0]!.res.body).error).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused[0]!.res.headers['retry-after'])).toBeGreaterThan(0);
    const read = all.filter(({ res }) => res.status === 200);
    expect(read).toHaveLength(30);
    for (const { res } of [...read, other]) {
      expect(res.headers['cache-control']).toBe('no-store');
      activityAnswerSchema.parse(JSON.parse(res.body));
    }
    expect(other.res.status).toBe(200);
    // Dave's one read took its turn among the first few: at least 10 of Ana's 30 were answered after it (none, before).
    expect(read.filter(({ order }) => order > other.order).length).toBeGreaterThanOrEqual(10);
  });
});
