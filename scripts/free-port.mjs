// A loopback port for a server whose address must be known before it starts (an OpenID provider's
// registered callback, redis-server's or PostgreSQL's command line). A port the kernel hands out for
// `listen(0)` is in its ephemeral range, and between our check and the server's start another process
// of the same test run can be handed that very port (CI once failed so: EADDRINUSE). These ports are
// picked at random below the ephemeral range, where nothing is handed out, and checked free.
import { readFileSync } from 'node:fs';
import net from 'node:net';

const LOWEST = 10_000;

/** The first port of the kernel's ephemeral range (Linux), or the IANA one elsewhere. */
function ephemeralStart() {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST + 1000 ? low : 49_152;
  } catch {
    return 49_152;
  }
}

/** @param {number} port @returns {Promise<boolean>} */
function isFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port nothing listens on now and the kernel does not hand out to `listen(0)`. @returns {Promise<number>} */
export async function freePort() {
  const span = ephemeralStart() - LOWEST;
  for (let tries = 0; tries < 100; tries++) {
    const port = LOWEST + Math.floor(Math.random() * span);
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port found between ${LOWEST} and ${LOWEST + span}`);
}
