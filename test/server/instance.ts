import { mkdtempSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createApiFromConfig } from '../../src/server/composition/api.ts';
import { createAppServer } from '../../src/server/composition/app-server.ts';
import { type Environment, parseConfig } from '../../src/server/config/config.ts';
import type { ConfigFile } from '../../src/server/config/file-schema.ts';
import { createHealthRoutes } from '../../src/server/ops/health.ts';
import { createLogger } from '../../src/server/log/log.ts';
import { createMetrics, type Metrics } from '../../src/server/ops/metrics.ts';
import type { Middleware } from '../../src/server/composition/api-handler.ts';
import { resolveUpstream } from '../../src/server/composition/resolve-upstream.ts';
import type { EventStreamOptions } from '../../src/server/live/event-stream.ts';
import type { LiveHub } from '../../src/server/live/live-hub.ts';
import type { RedisIntakeOptions } from '../../src/server/live/delivery-intake-redis.ts';
import { listen, type RawResponse, rawRequest } from './http.ts';

export { freePort } from '../../scripts/free-port.mjs';

export interface Instance {
  port: number;
  url: string;
  /** The server's log as written: JSON lines (pino), warnings and a line per API request among them. */
  logs: string[];
  metrics: Metrics;
  auditLog: string;
  /** The live updates' hub, to publish as the webhook receiver would. */
  hub: LiveHub;
  /** Ends the event streams, as the server does when it stops. */
  endStreams(): void;
  request(path: string, options?: Parameters<typeof rawRequest>[2]): Promise<RawResponse>;
  close(): Promise<void>;
}

/**
 * One instance of the production server as `npm start` builds it from its environment (configuration,
 * shared store, access control, API, health routes and static files), on a free port. `env` and `file` (CONFIG_FILE's
 * content) may depend on the port, for settings that name this server's own address (signIn.redirectUrl). Failed sign-ins wait
 * `signInDelayMs` (doubling; default 1 ms rather than 250) so that tests can fail ten.
 */
export async function startInstance(
  env: Environment | ((port: number) => Environment),
  options: {
    signInDelayMs?: number;
    port?: number;
    file?: ConfigFile | ((port: number) => ConfigFile);
    eventStreams?: EventStreamOptions;
    crawl?: boolean;
    /** The webhook queue's timings in Redis (a dead instance's deliveries taken sooner than 60 s). */
    webhookIntake?: RedisIntakeOptions;
    /** The live hub's clock, by which its replay's age is measured. */
    liveNow?: () => number;
  } = {},
): Promise<Instance> {
  let api: Middleware = (_req, res) => {
    res.writeHead(503);
    res.end();
  };
  let health: (req: http.IncomingMessage, res: http.ServerResponse) => boolean = () => false;
  const { port, close: closeServer } = await listen(
    createAppServer({ api: (req, res, next) => api(req, res, next), health: (req, res) => health(req, res), staticDir: 'public' }),
    options.port,
  );
  const auditLog = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-instance-')), 'audit.jsonl');
  const file = typeof options.file === 'function' ? options.file(port) : options.file;
  const config = parseConfig({ AUDIT_LOG: auditLog, ...(typeof env === 'function' ? env(port) : env) }, file);
  const upstream = await resolveUpstream(config);
  const logs: string[] = [];
  const metrics = createMetrics();
  const configured = createApiFromConfig(config, upstream, {
    metrics,
    logger: createLogger({ write: (text: string) => void logs.push(text.trimEnd()) }),
    access: { signInDelayMs: options.signInDelayMs ?? 1 },
    eventStreams: options.eventStreams,
    // The queue's crawler reads the service only in the tests that ask (`crawl`).
    queueCrawl: { start: options.crawl === true },
    ...(options.webhookIntake ? { webhookIntake: options.webhookIntake } : {}),
    ...(options.liveNow ? { liveNow: options.liveNow } : {}),
  });
  api = configured.handler;
  health = createHealthRoutes(configured.checks);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    logs,
    metrics,
    auditLog: config.auditLog,
    hub: configured.hub,
    endStreams: configured.endStreams,
    request: (path, options) => rawRequest(port, path, options),
    async close() {
      await closeServer();
      await Promise.all([configured.close(), upstream.close()]);
    },
  };
}

/** The `name=value` part of a Set-Cookie header for `name`, or undefined. */
export function cookieFrom(res: RawResponse, name: string): string | undefined {
  const header = res.headers['set-cookie']?.find((line) => line.startsWith(`${name}=`));
  return header?.split(';')[0];
}
