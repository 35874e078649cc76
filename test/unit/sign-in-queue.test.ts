import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_QUEUE_LIMITS, type Leave, type QueueLimits, SignInQueue } from '../../src/server/auth/sign-in-queue.ts';

/** The turns to check a sign-in: bounded per username, per client and in all, going round the clients waiting. */

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const flush = async () => {
  for (let i = 0; i < 4; i++) await Promise.resolve();
};

/** Clients 0 to 2 are IPv6 /64s (any address in them), 3 is IPv4, where each address is a client of its own. */
const addressOf = (client: number, host: number) => (client < 3 ? `2001:db8:0:${client}:${host.toString(16)}::1` : `198.51.100.${host}`);
const clientOf = (client: number, host: number) => (client < 3 ? `v6:${client}` : `v4:${host}`);

interface Entry {
  user: string;
  client: string;
  state: 'new' | 'waiting' | 'running' | 'over';
  leave?: Leave;
}

/** The queue's sign-ins as the test sees them, and the rules every step must keep. */
class Model {
  readonly entries: Entry[] = [];
  /** For each client waiting, how many turns each other client took since, while it had a sign-in that could have had one. */
  private readonly passed = new Map<string, Map<string, number>>();

  constructor(private readonly limits: QueueLimits) {}

  private runningBy(match: (entry: Entry) => boolean): number {
    return this.entries.filter((entry) => entry.state === 'running' && match(entry)).length;
  }

  free(entry: Entry): boolean {
    return (
      this.runningBy((other) => other.user === entry.user) < this.limits.user &&
      this.runningBy((other) => other.client === entry.client) < this.limits.address &&
      this.runningBy(() => true) < this.limits.all
    );
  }

  waiting(client?: string): Entry[] {
    return this.entries.filter((entry) => entry.state === 'waiting' && (client === undefined || entry.client === client));
  }

  admitted(entry: Entry, leave: Leave): void {
    for (const other of new Set(this.waiting().map((one) => one.client))) {
      if (other === entry.client || !this.waiting(other).some((one) => one !== entry && this.free(one))) continue;
      const passed = this.passed.get(other) ?? new Map<string, number>();
      passed.set(entry.client, (passed.get(entry.client) ?? 0) + 1);
      this.passed.set(other, passed);
      // Turns go round: no client takes two while another could have had one and had none.
      expect(passed.get(entry.client)).toBe(1);
    }
    Object.assign(entry, { state: 'running', leave });
    this.passed.delete(entry.client);
    expect(this.runningBy((other) => other.user === entry.user)).toBeLessThanOrEqual(this.limits.user);
    expect(this.runningBy((other) => other.client === entry.client)).toBeLessThanOrEqual(this.limits.address);
    expect(this.runningBy(() => true)).toBeLessThanOrEqual(this.limits.all);
  }

  refused(entry: Entry): void {
    entry.state = 'over';
    if (this.waiting(entry.client).length === 0) this.passed.delete(entry.client);
  }

  /** After each step: nobody waits for a turn that is free, and no client has more in line than it may. */
  settle(queue: SignInQueue): void {
    for (const entry of this.entries) if (entry.state === 'new') entry.state = 'waiting';
    for (const entry of this.waiting()) expect(this.free(entry)).toBe(false);
    for (const entry of this.waiting()) expect(this.waiting(entry.client).length).toBeLessThanOrEqual(this.limits.waitingPerAddress);
    expect(queue.waitingCount).toBe(this.waiting().length);
  }
}

// Mostly arrivals, so that lines form; a tick now and then, so that some time out (two ticks: maxWaitMs).
const step = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('enter' as const), user: fc.nat(3), client: fc.nat(3), host: fc.nat(5) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('leave' as const), index: fc.nat() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('tick' as const) }), weight: 1 },
);
const limits = fc.record({
  user: fc.integer({ min: 1, max: 2 }),
  address: fc.integer({ min: 1, max: 3 }),
  all: fc.integer({ min: 1, max: 4 }),
  waitingPerAddress: fc.integer({ min: 1, max: 4 }),
  maxWaitMs: fc.constant(100),
});

describe('the turns to check a sign-in', () => {
  it('property: limits never exceeded, nobody waits for a free turn, turns go round the clients (a /64 is one), every sign-in answered once', async () => {
    await fc.assert(
      fc.asyncProperty(limits, fc.array(step, { maxLength: 60 }), async (limits, steps) => {
        const queue = new SignInQueue(limits);
        const model = new Model(limits);
        const events: Array<[Entry, Leave | undefined]> = [];
        const running = () => model.entries.filter((entry) => entry.state === 'running');
        const leaveOne = (index: number) => {
          const entry = running()[index % running().length];
          if (!entry) return;
          entry.state = 'over';
          entry.leave!();
        };
        const apply = async (run: () => void) => {
          run();
          await flush();
          for (const [entry, leave] of events.splice(0)) {
            if (leave) model.admitted(entry, leave);
            else model.refused(entry);
          }
          model.settle(queue);
        };
        for (const one of steps) {
          await apply(() => {
            if (one.kind === 'leave') return leaveOne(one.index);
            if (one.kind === 'tick') return void vi.advanceTimersByTime(limits.maxWaitMs / 2);
            const entry: Entry = { user: `u${one.user}`, client: clientOf(one.client, one.host), state: 'new' };
            model.entries.push(entry);
            void queue.enter(`U${one.user}`, addressOf(one.client, one.host)).then((leave) => events.push([entry, leave]));
          });
        }
        while (running().length > 0 || model.waiting().length > 0)
          await apply(() => (running().length ? leaveOne(0) : vi.advanceTimersByTime(limits.maxWaitMs)));
        expect(model.entries.every((entry) => entry.state === 'over')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('attack: a line from rotating addresses of one /64 does not hold up another client: its sign-in has the next turn', async () => {
    const queue = new SignInQueue({ user: 1, address: 2, all: 2, waitingPerAddress: 8, maxWaitMs: 10_000 });
    const order: string[] = [];
    const enter = (name: string, address: string) =>
      queue.enter(name, address).then((leave) => {
        order.push(leave ? name : `${name} refused`);
        return leave;
      });
    const flood = Array.from({ length: 12 }, (_, i) => enter(`u${i}`, addressOf(0, i + 1)));
    await flush();
    // Two checked, eight in line: the /64's line is full, whichever of its addresses the rest came from.
    expect(order).toEqual(['u0', 'u1', 'u10 refused', 'u11 refused']);
    expect(queue.waitingCount).toBe(8);
    const colleague = enter('ana', '198.51.100.7');
    (await flood[0]!)!();
    await flush();
    // The /64 had its turn before she came; hers is next, then the /64's again.
    expect(order.slice(4)).toEqual(['u2']);
    (await flood[1]!)!();
    expect(await colleague).toBeDefined();
    expect(order.slice(4)).toEqual(['u2', 'ana']);
  });

  it("attack: scrypt checks at once leave libuv's threads free for the audit writes: two of its four, one per client", () => {
    expect(DEFAULT_QUEUE_LIMITS).toEqual({ user: 1, address: 1, all: 2, waitingPerAddress: 16, maxWaitMs: 10_000 });
  });
});
