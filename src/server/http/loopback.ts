/**
 * `localhost`, `127.x.x.x` or `::1` (also IPv4-mapped, in brackets, or with a port): a listening address,
 * a URL's host, a Host header or a socket's remote address. One rule for the configuration checks (HOST,
 * plain http to KYC_BASE_URL) and for local mode's loopback-only answers.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  let name = (host ?? '').toLowerCase().replace(/^::ffff:/, '');
  if (!name.includes('::') || name.startsWith('[')) name = name.replace(/:\d+$/, '');
  name = name.replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}
