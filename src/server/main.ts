import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createApiFromConfig, describeAccess, describeSharedState, describeState } from './api.ts';
import { createAppServer } from './app-server.ts';
import { type Config, loadConfig, orExit } from './config/config.ts';
import { createHealthRoutes, watchAuditFreeSpace } from './ops/health.ts';
import type { Logger } from './log/log.ts';
import { isLoopbackHost } from './http/loopback.ts';
import { createMetrics, createMetricsServer, type Metrics } from './ops/metrics.ts';
import { createServerOutput } from './log/server-output.ts';
import { resolveUpstream } from './resolve-upstream.ts';

/**
 * `npm start`: the built SPA and the proxy on HOST:PORT; metrics on METRICS_PORT when set. Logs are text
 * at a terminal and JSON lines elsewhere (LOG_FORMAT chooses).
 */
async function main(): Promise<void> {
  const config = await orExit(() => loadConfig());
  const output = createServerOutput(config.logLevel, config.logFormat);
  const { logger } = output;
  const upstream = await orExit(() => resolveUpstream(config));
  output.say([...upstream.banner, describeAccess(config), describeSharedState(config), describeState(config)]);

  const metrics = createMetrics({ processMetrics: Boolean(config.metrics) });
  const api = await orExit(() => createApiFromConfig(config, upstream, { metrics, logger }));
  const server = createAppServer({
    api: api.handler,
    staticDir: path.resolve(import.meta.dirname, '../client'),
    health: createHealthRoutes(api.checks),
    logger,
    trustedProxies: config.trustedProxies,
  });
  const freeSpace = watchAuditFreeSpace(config.auditLog, config.auditMinFreeBytes, logger, {
    onFree: (bytes) => metrics.auditFreeBytes.set(bytes),
    volume: api.auditVolume,
  });
  void freeSpace.check();

  listenOrExit(server, config.host, config.port, logger, (url) => {
    output.listening(url);
    upstream.listening?.(url);
    if (!isLoopbackHost(config.host)) logger.info(`Listening on ${config.host}: reachable from other machines.`);
  });
  const metricsServer = config.metrics ? startMetrics(config.metrics, metrics, logger) : undefined;

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received: finishing in-flight requests, then stopping.`);
    freeSpace.stop();
    metricsServer?.close();
    // In-flight lookups may finish; idle keep-alive connections are closed now, the rest after 10 s.
    const force = setTimeout(() => server.closeAllConnections(), 10_000);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      void Promise.all([upstream.close(), api.close()]).then(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

function listenOrExit(server: http.Server, host: string, port: number, logger: Logger, listening: (url: string) => void): void {
  server.on('error', (error: NodeJS.ErrnoException) => {
    logger.error(`Cannot listen on ${host}:${port}: ${error.code ?? error.message}`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    const address = server.address() as AddressInfo;
    listening(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}/`);
  });
}

function startMetrics(where: NonNullable<Config['metrics']>, metrics: Metrics, logger: Logger): http.Server {
  const server = createMetricsServer(metrics);
  listenOrExit(server, where.host, where.port, logger, (url) => logger.info(`Metrics (Prometheus) at ${url}metrics`));
  return server;
}

await main();
