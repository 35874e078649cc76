import net from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressKey, defaultAnonymousConnections } from '../../src/server/http/connection-guard.ts';

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
