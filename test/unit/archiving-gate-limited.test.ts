import { describe, expect, it } from 'vitest';
import { createGate, SERVICE_AWAY_SAID_MS, UNSTATED_LIMIT_MS } from '../../src/server/archiving/archiving-gate.ts';
import { ApiFailure } from '../../src/server/http/api-failure.ts';

/**
 * A key check the service answered 429 (archiving-gate.ts): the service said when it takes requests again,
 * so the gate keeps that failure for that wait only (a minute when it named none, two at most), says it
 * with what is left of the wait, and past it lets a lookup try again. Before, a 429 stood as any failure
 * of the service did, for two minutes, said with the wait it named at first: lookups that had waited
 * behind the check were refused "try again in 30 s" a minute and a half after the wait had ended.
 */

const limited = (seconds?: number) =>
  new ApiFailure(
    'upstream_rate_limited',
    `The KYC service is limiting requests (HTTP 429). ${seconds === undefined ? 'Wait a minute, then try again.' : `Try again in ${seconds} s.`}`,
    seconds === undefined ? {} : { retryAfterSeconds: seconds },
  );

/** A gate on a clock the test moves, whose first check ended, `afterMs` after it began, with `failure`. */
async function gateFailedWith(failure: ApiFailure, afterMs = 0) {
  const clock = { at: 1_000_000 };
  const gate = createGate(() => clock.at);
  const since = clock.at;
  const hold = await gate.enter({ since, until: since + 1000 });
  if (hold === 'gone' || !('done' in hold)) throw new Error('the first lookup holds the check');
  clock.at += afterMs;
  hold.done({ opened: false, failure });
  return { clock, gate, since };
}

describe("a key check's 429 stands for the wait it named", () => {
  it('the queue is told it with the seconds left of its wait, and not once the wait is over', async () => {
    const { clock, gate } = await gateFailedWith(limited(30));
    expect(gate.serviceFailure()).toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 30 });
    clock.at += 10_000;
    const said = gate.serviceFailure();
    expect(said).toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 20 });
    expect(said?.message).toMatch(/Try again in 20 s\.$/);
    clock.at += 19_999;
    expect(gate.serviceFailure()?.retryAfterSeconds).toBe(1);
    clock.at += 1;
    expect(gate.serviceFailure()).toBeUndefined();
  });

  it(`a 429 that named no wait stands for ${UNSTATED_LIMIT_MS / 1000} s, said as it came (no wait made up)`, async () => {
    const failure = limited();
    const { clock, gate } = await gateFailedWith(failure);
    clock.at += UNSTATED_LIMIT_MS - 1;
    expect(gate.serviceFailure()).toBe(failure);
    clock.at += 1;
    expect(gate.serviceFailure()).toBeUndefined();
  });

  it(`a 429 that asked for more than ${SERVICE_AWAY_SAID_MS / 60_000} minutes stands for them at most, its seconds left counted from its own wait`, async () => {
    const { clock, gate } = await gateFailedWith(limited(300));
    clock.at += 60_000;
    expect(gate.serviceFailure()?.retryAfterSeconds).toBe(240);
    clock.at += SERVICE_AWAY_SAID_MS - 60_001;
    expect(gate.serviceFailure()?.retryAfterSeconds).toBe(181);
    clock.at += 1;
    expect(gate.serviceFailure()).toBeUndefined();
  });

  it('a lookup waiting since before the 429 is told the seconds left, and once the wait is over it holds the next check', async () => {
    const { clock, gate, since } = await gateFailedWith(limited(30), 5000);
    clock.at += 10_000;
    const told = await gate.enter({ since, until: clock.at + 1000 });
    expect(told).toMatchObject({ failure: { code: 'upstream_rate_limited', retryAfterSeconds: 20 }, waited: false });
    expect(gate.heldBack(since)).toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 20 });
    clock.at += 20_000;
    expect(gate.heldBack(since)).toBeUndefined();
    const after = await gate.enter({ since, until: clock.at + 1000 });
    expect(after !== 'gone' && 'done' in after).toBe(true);
  });

  it('any other failure of the service still stands for the lookups that waited behind it, as it came', async () => {
    const away = new ApiFailure('upstream_unreachable', 'The KYC service could not be reached.');
    const { clock, gate, since } = await gateFailedWith(away, 5000);
    clock.at += SERVICE_AWAY_SAID_MS + 1;
    expect(await gate.enter({ since, until: clock.at + 1000 })).toEqual({ failure: away, waited: false });
    expect(gate.serviceFailure()).toBeUndefined();
  });
});
