import { EventEmitter } from 'node:events';
import type http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressKey, defaultAnonymousConnections, guardConnections, noteSignedIn } from '../../src/server/http/connection-guard.ts';

/** Whether `b` is in the /64 of `a`, as Node's BlockList says. */
function sameSlash64(a: string, b: string): boolean {
  const list = new net.BlockList();
  list.addSubnet(a, 64, 'ipv6');
  return list.check(b, 'ipv6');
}

const hexGroup = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
/** IPv6 in any of its spellings, but not with an IPv4 tail (such an address counts as itself). */
const ipv6 = fc.ipV6().filter((address) => !address.includes('.'));

describe('what a connection counts as, for the per-address cap', () => {
  it('is one key for a whole IPv6 /64, and another for any other /64, however the address is written', () => {
    fc.assert(
      fc.property(ipv6, fc.array(hexGroup, { minLength: 4, maxLength: 4 }), ipv6, (a, suffix, other) => {
        const prefix = addressKey(a).replace(/::\/64$/, '');
        const sibling = `${prefix}:${suffix.join(':')}`;
        expect(sameSlash64(a, sibling)).toBe(true);
        expect(addressKey(sibling)).toBe(addressKey(a));
        expect(addressKey(other) === addressKey(a)).toBe(sameSlash64(a, other));
        expect(addressKey(a.toUpperCase())).toBe(addressKey(a));
      }),
      { numRuns: 500 },
    );
  });

  it('is the address itself for IPv4, also when the socket reports it IPv4-mapped', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('never throws, whatever a socket says', () => {
    fc.assert(fc.property(fc.string(), (text) => void addressKey(text)));
  });
});

describe('the cap on connections of all addresses, by default', () => {
  it('is half the open-file limit, at most 10 000, and 4096 where the limit cannot be read', () => {
    const limits = (soft: string) =>
      `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                 1048576              files\n`;
    expect(defaultAnonymousConnections(() => limits('1024'))).toBe(512);
    expect(defaultAnonymousConnections(() => limits('20000'))).toBe(10_000);
    expect(defaultAnonymousConnections(() => limits('unlimited'))).toBe(10_000);
    expect(defaultAnonymousConnections(() => undefined)).toBe(4096);
  });
});

/** A socket as the guard sees it: its address, `destroy`, and a `close` that comes a turn later, as Node's. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  constructor(
    readonly remoteAddress: string,
    private readonly later: Array<() => void>,
  ) {
    super();
  }
  destroy(): this {
    if (!this.destroyed) {
      this.destroyed = true;
      this.later.push(() => this.emit('close'));
    }
    return this;
  }
}

type Step =
  | { kind: 'connect'; address: number }
  | { kind: 'request'; socket: number }
  | { kind: 'answered'; socket: number }
  | { kind: 'signIn'; socket: number }
  | { kind: 'leave'; socket: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('connect' as const), address: fc.integer({ min: 0, max: 3 }) }) },
  ...(['request', 'answered', 'signIn', 'leave'] as const).map((kind) => fc.record({ kind: fc.constant(kind), socket: fc.nat(200) })),
);

/**
 * The guard on a server of events (no sockets): each step as the server would see it, and what the test
 * needs to judge it: which connections are open and nobody signed in on them, which have a request under
 * way, and the order each last began to wait (connected, or its request answered) or became busy.
 */
class Harness {
  readonly server = new EventEmitter();
  readonly sockets: FakeSocket[] = [];
  readonly signedIn = new Set<FakeSocket>();
  readonly responses = new Map<FakeSocket, EventEmitter>();
  /** When each began to wait, or its request began: a counter. */
  readonly since = new Map<FakeSocket, number>();
  private readonly later: Array<() => void> = [];
  private clock = 0;

  constructor(perAddress: number, anonymous: number) {
    guardConnections(this.server as unknown as http.Server, { headersTimeoutMs: 1000, requestTimeoutMs: 1000, perAddress, anonymous });
  }

  anonymousOpen(): FakeSocket[] {
    return this.sockets.filter((s) => !s.destroyed && !this.signedIn.has(s));
  }

  /** Applies a step; a new connection is returned. */
  apply(next: Step): FakeSocket | undefined {
    const socket = 'socket' in next ? this.sockets[next.socket % Math.max(1, this.sockets.length)] : undefined;
    let added: FakeSocket | undefined;
    if (next.kind === 'connect') {
      added = new FakeSocket(`203.0.113.${next.address}`, this.later);
      this.sockets.push(added);
      this.since.set(added, this.clock++);
      this.server.emit('connection', added);
    } else if (socket && !socket.destroyed) {
      const req = { socket } as unknown as http.IncomingMessage;
      if (next.kind === 'request' && !this.responses.has(socket)) {
        const res = new EventEmitter();
        this.responses.set(socket, res);
        this.since.set(socket, this.clock++);
        this.server.emit('request', req, res);
      } else if (next.kind === 'answered' && this.responses.has(socket)) {
        this.responses.get(socket)?.emit('close');
        this.responses.delete(socket);
        this.since.set(socket, this.clock++);
      } else if (next.kind === 'signIn') {
        noteSignedIn(req);
        this.signedIn.add(socket);
      } else if (next.kind === 'leave') {
        socket.destroy();
      }
    }
    for (const run of this.later.splice(0)) run();
    return added;
  }
}

/** A cap per address, a cap of all, and the steps. */
const sequences = fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 12 }), fc.array(step, { maxLength: 120 }));

describe('the caps on connections nobody signed in on', () => {
  it('never hold more than either cap, never close a signed-in connection, and always let a new one in under its address cap', () => {
    fc.assert(
      fc.property(sequences, ([perAddress, anonymous, steps]) => {
        const guard = new Harness(perAddress, anonymous);
        for (const next of steps) {
          const address = next.kind === 'connect' ? `203.0.113.${next.address}` : undefined;
          const before = guard.anonymousOpen().filter((s) => s.remoteAddress === address).length;
          const added = guard.apply(next);
          // Under its address's cap, a new connection always gets in (another makes room if need be).
          if (added) expect(added.destroyed).toBe(before >= perAddress);
          const open = guard.anonymousOpen();
          expect(open.length).toBeLessThanOrEqual(anonymous);
          for (let a = 0; a < 4; a++)
            expect(open.filter((s) => s.remoteAddress === `203.0.113.${a}`).length).toBeLessThanOrEqual(perAddress);
        }
        // Only the guard or the client closed anything, and the guard never a signed-in connection.
        for (const socket of guard.signedIn) expect(socket.destroyed && !steps.some((s) => s.kind === 'leave')).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('make room from the address holding the most while any holds more than one, its longest waiting first; else the longest waiting of all', () => {
    fc.assert(
      fc.property(sequences, ([perAddress, anonymous, steps]) => {
        const guard = new Harness(perAddress, anonymous);
        for (const next of steps) {
          const open = guard.anonymousOpen();
          const added = guard.apply(next);
          const closed = open.filter(
            (s) => s.destroyed && !(next.kind === 'leave' && guard.sockets[next.socket % guard.sockets.length] === s),
          );
          if (!added || added.destroyed) {
            expect(closed).toEqual([]);
            continue;
          }
          if (open.length < anonymous) {
            expect(closed).toEqual([]);
            continue;
          }
          // At the cap: exactly one made room, the one the rule names.
          expect(closed).toHaveLength(1);
          const count = (s: FakeSocket) => open.filter((o) => o.remoteAddress === s.remoteAddress).length;
          const most = Math.max(...open.map(count));
          const candidates = most > 1 ? open.filter((s) => count(s) === most && s.remoteAddress === closed[0]!.remoteAddress) : open;
          const waiting = candidates.filter((s) => !guard.responses.has(s));
          const pool = waiting.length > 0 ? waiting : candidates;
          const oldest = Math.min(...pool.map((s) => guard.since.get(s)!));
          expect(most > 1 ? count(closed[0]!) : most).toBe(most);
          expect(guard.since.get(closed[0]!)).toBe(oldest);
        }
      }),
      { numRuns: 500 },
    );
  });
});
