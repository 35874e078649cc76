import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiFromConfig, describeAccess, describeSharedState, describeState } from './api.ts';
import { createAppServer } from './app-server.ts';
import { type Config, type Environment, loadConfig } from '../config/config.ts';
import { createHealthRoutes, watchAuditFreeSpace } from '../ops/health.ts';
import type { Logger } from '../log/log.ts';
import { isLoopbackHost } from '../http/loopback.ts';
import { createMetrics, createMetricsServer, type Metrics } from '../ops/metrics.ts';
import { createServerOutput, type Stdout } from '../log/server-output.ts';
import { resolveUpstream } from './resolve-upstream.ts';

export interface StartOptions {
  /** The variables the server reads (process.env for `npm start`). */
  env: Environment;
  /** Where `.env` is looked for. */
  cwd: string;
  /** Where it prints: its start-up lines and its log. */
  stdout: Stdout;
  /** The built SPA. */
  staticDir: string;
  /** The queue's crawlers (default: started with the server; tests of something else keep them off). */
  queueCrawl?: { start?: boolean };
}

export interface RunningServer {
  /** The address the app answers on, with its trailing slash. */
  url: string;
  /**
   * Stops as on a signal: in-flight requests may finish, idle keep-alive connections are closed now, the
   * rest after DRAIN_MS. Resolves once the server, the upstream and the API's stores are closed; a second
   * call gives the same promise.
   */
  stop(signal: string): Promise<void>;
  /** The server's log, for what the process says about itself (main.ts: a stop that overran). */
  logger: Logger;
}

/** Time in-flight requests are given to finish once a stop begins; then their connections are closed. */
export const DRAIN_MS = 10_000;
/**
 * Time a stop may take in all, from the signal: the drain, then closing the upstream and the stores (the
 * audit log's last lines among them). main.ts ends the process past it, whatever still holds it.
 */
export const STOP_DEADLINE_MS = DRAIN_MS + 2_000;

/** Said (logged) already: the process ends with a failure and nothing more to print. */
export class ListenError extends Error {
  override name = 'ListenError';
}

/**
 * What `npm start` runs (main.ts gives it the process's environment and stdout, and the signals): the
 * configuration read, the upstream resolved, the app and metrics servers listening. A configuration
 * problem rejects with its ConfigError; a port that cannot be listened on is logged and rejects with a
 * ListenError.
 */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const config = loadConfig(options.env, options.cwd);
  const output = createServerOutput(config.logLevel, config.logFormat, options.stdout);
  const { logger } = output;
  const upstream = await resolveUpstream(config);
  output.say([...upstream.banner, describeAccess(config), describeSharedState(config), describeState(config)]);

  const metrics = createMetrics({ processMetrics: Boolean(config.metrics) });
  const crawl = options.queueCrawl ? { queueCrawl: options.queueCrawl } : {};
  const api = await orClose(() => createApiFromConfig(config, upstream, { metrics, logger, ...crawl }), [upstream]);
  const server = createAppServer({
    api: api.handler,
    staticDir: options.staticDir,
    health: createHealthRoutes(api.checks),
    logger,
    trustedProxies: config.trustedProxies,
    connections: config.connections,
    metrics,
  });
  const freeSpace = watchAuditFreeSpace(config.auditLog, config.auditMinFreeBytes, logger, {
    onFree: (bytes) => metrics.auditFreeBytes.set(bytes),
    volume: api.auditVolume,
  });
  void freeSpace.check();

  const url = await orClose(() => listenOrSay(server, config.host, config.port, logger), [freeSpace, api, upstream]);
  output.listening(url);
  upstream.listening?.(url);
  if (!isLoopbackHost(config.host)) logger.info(`Listening on ${config.host}: reachable from other machines.`);
  const metricsServer = config.metrics ? await startMetrics(config.metrics, metrics, logger) : undefined;

  let stopped: Promise<void> | undefined;
  const stop = (signal: string) => {
    stopped ??= new Promise<void>((resolve) => {
      logger.info(`${signal} received: finishing in-flight requests, then stopping.`);
      freeSpace.stop();
      metricsServer?.close();
      // Open event streams never end by themselves: ended now, so they do not hold the stop for 10 s.
      api.endStreams();
      const force = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        void Promise.all([upstream.close(), api.close()]).then(() => resolve());
      });
      server.closeIdleConnections();
    });
    return stopped;
  };
  return { url, stop, logger };
}

/** A step after others started something: when it fails, that is closed (main.ts ends the process; a test's goes on). */
async function orClose<T>(step: () => T | Promise<T>, started: Array<{ close(): unknown } | { stop(): unknown }>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await Promise.all(started.map((part) => ('close' in part ? part.close() : part.stop())));
    throw error;
  }
}

/** Resolves with the URL once `server` listens; logs why it cannot and rejects with a ListenError. */
function listenOrSay(server: http.Server, host: string, port: number, logger: Logger): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const message = `Cannot listen on ${host}:${port}: ${error.code ?? error.message}`;
      logger.error(message);
      reject(new ListenError(message));
    });
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      resolve(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}/`);
    });
  });
}

async function startMetrics(where: NonNullable<Config['metrics']>, metrics: Metrics, logger: Logger): Promise<http.Server> {
  const server = createMetricsServer(metrics);
  const url = await listenOrSay(server, where.host, where.port, logger);
  logger.info(`Metrics (Prometheus) at ${url}metrics`);
  return server;
}
