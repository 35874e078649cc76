import net from 'node:net';

/** `10.0.0.0/8`, `::1/128` or a bare address (a /32 or /128). */
export function isCidr(text: string): boolean {
  const [address, bits, ...rest] = text.split('/');
  if (rest.length > 0 || !address) return false;
  const family = net.isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  const prefix = Number(bits);
  return /^\d+$/.test(bits) && prefix >= 0 && prefix <= (family === 4 ? 32 : 128);
}

/** Matches client addresses against CIDRs, IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) as IPv4. */
export function addressMatcher(cidrs: string[]): (address: string | undefined) => boolean {
  const list = new net.BlockList();
  for (const cidr of cidrs) {
    const [address, bits] = cidr.split('/') as [string, string | undefined];
    const type = net.isIP(address) === 4 ? 'ipv4' : 'ipv6';
    list.addSubnet(address, bits === undefined ? (type === 'ipv4' ? 32 : 128) : Number(bits), type);
  }
  return (address) => {
    if (!address) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    const plain = mapped ? mapped[1]! : address;
    const family = net.isIP(plain);
    if (family === 0) return false;
    return list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  };
}
