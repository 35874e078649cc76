import { readFileSync } from 'node:fs';
import net from 'node:net';
import { expect, it } from 'vitest';
import { freePort } from '../../scripts/free-port.mjs';

const ephemeralStart = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

/** Listens on `port` and stops again; rejects as listen does (EADDRINUSE). */
const occupy = (port: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });

it('picks a port below the range the kernel hands out for listen(0), so another test cannot be handed it before its server starts', async () => {
  const picked = new Set<number>();
  for (let i = 0; i < 20; i++) {
    const port = await freePort();
    expect(port).toBeGreaterThanOrEqual(10_000);
    expect(port).toBeLessThan(ephemeralStart);
    picked.add(port);
  }
  // At random, not one port for every caller: two files picking at once get different ports.
  expect(picked.size).toBeGreaterThan(15);
  const port = await freePort();
  const server = await occupy(port);
  await new Promise((resolve) => server.close(resolve));
  // What listen(0) hands out lies above it.
  const ephemeral = await occupy(0);
  expect((ephemeral.address() as net.AddressInfo).port).toBeGreaterThanOrEqual(ephemeralStart);
  await new Promise((resolve) => ephemeral.close(resolve));
});
