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

describe('the caps on connections nobody signed in on', () => {
  it('never hold more than either cap, never close a signed-in connection, and always let a new one in under its address cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(step, { maxLength: 120 }),
        (perAddress, anonymous, steps) => {
          const server = new EventEmitter();
          guardConnections(server as unknown as http.Server, { headersTimeoutMs: 1000, requestTimeoutMs: 1000, perAddress, anonymous });
          const later: Array<() => void> = [];
          const sockets: FakeSocket[] = [];
          const signedIn = new Set<FakeSocket>();
          const left = new Set<FakeSocket>();
          const responses = new Map<FakeSocket, EventEmitter>();
          const anonymousOpen = () => sockets.filter((s) => !s.destroyed && !signedIn.has(s));
          for (const next of steps) {
            const socket = 'socket' in next ? sockets[next.socket % Math.max(1, sockets.length)] : undefined;
            if (next.kind === 'connect') {
              const address = `203.0.113.${next.address}`;
              const before = anonymousOpen().filter((s) => s.remoteAddress === address).length;
              const added = new FakeSocket(address, later);
              sockets.push(added);
              server.emit('connection', added);
              // Under its address's cap, a new connection always gets in (the oldest makes room if need be).
              expect(added.destroyed).toBe(before >= perAddress);
            } else if (socket && !socket.destroyed) {
              const req = { socket } as unknown as http.IncomingMessage;
              if (next.kind === 'request' && !responses.has(socket)) {
                const res = new EventEmitter();
                responses.set(socket, res);
                server.emit('request', req, res);
              } else if (next.kind === 'answered') {
                responses.get(socket)?.emit('close');
                responses.delete(socket);
              } else if (next.kind === 'signIn') {
                noteSignedIn(req);
                signedIn.add(socket);
              } else if (next.kind === 'leave') {
                left.add(socket);
                socket.destroy();
              }
            }
            for (const run of later.splice(0)) run();
            const open = anonymousOpen();
            expect(open.length).toBeLessThanOrEqual(anonymous);
            for (let a = 0; a < 4; a++)
              expect(open.filter((s) => s.remoteAddress === `203.0.113.${a}`).length).toBeLessThanOrEqual(perAddress);
          }
          // Only the guard or the client closed anything, and the guard never a signed-in connection.
          for (const socket of signedIn) expect(socket.destroyed && !steps.some((s) => s.kind === 'leave')).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});
