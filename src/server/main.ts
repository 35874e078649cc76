import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig, orExit } from './config.ts';
import { createApiFromConfig, describeAccess } from './api.ts';
import { createAppServer } from './app-server.ts';
import { resolveUpstream } from './upstream.ts';
import { requestLogger } from './log.ts';
import { isLoopbackHost } from './loopback.ts';

/** `npm start`: the built SPA and the proxy on HOST:PORT. */
async function main(): Promise<void> {
  const config = await orExit(() => loadConfig());
  const upstream = await orExit(() => resolveUpstream(config));
  for (const line of upstream.banner) console.log(line);

  console.log(describeAccess(config));
  const api = await orExit(() => createApiFromConfig(config, upstream, requestLogger()));
  const server = createAppServer({ api, staticDir: path.resolve(import.meta.dirname, '../client') });
  server.on('error', (error: NodeJS.ErrnoException) => {
    console.error(`Cannot listen on ${config.host}:${config.port}: ${error.code ?? error.message}`);
    process.exit(1);
  });
  server.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    console.log(`Candidate Lookup is running at http://${host}:${port}/`);
    if (!isLoopbackHost(config.host)) console.log(`Listening on ${config.host}: reachable from other machines.`);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: finishing in-flight requests, then stopping.`);
    // In-flight lookups may finish; idle keep-alive connections are closed now, the rest after 10 s.
    const force = setTimeout(() => server.closeAllConnections(), 10_000);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      void upstream.close().then(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

await main();
