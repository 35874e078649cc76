import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Connect, Logger as ViteLogger, Plugin } from 'vite';
import { API_PREFIX } from '../../kyc/contract/api.ts';
import { WEBHOOK_PATH } from '../../kyc/contract/live-events.ts';
import { type Config, loadConfig } from '../config/config.ts';
import { createApiFromConfig, describeAccess, describeSharedState, describeState } from './api.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { sendFailure } from '../http/http-reply.ts';
import type { Middleware } from './api-handler.ts';
import { createLogger, formatLine, type Logger } from '../log/log.ts';
import { resolveUpstream, type ResolvedUpstream } from './resolve-upstream.ts';

/** Not the KYC service's fault: this server's own API never started (the reason is in the dev server's output). */
export const API_NOT_STARTED =
  'The Candidate Lookup API did not start, so nothing can be looked up. Why is in the output of the dev server (npm run dev); fix it and restart.';

/** The server's one log, each line written as text to Vite's output at its level. */
export function throughVite(viteLogger: ViteLogger, config: Pick<Config, 'logLevel'>): Logger {
  const write = (text: string) => {
    const line = formatLine(text);
    if (line.level === 'error' || line.level === 'fatal') viteLogger.error(line.text);
    else if (line.level === 'warn') viteLogger.warn(line.text);
    else viteLogger.info(line.text);
  };
  return createLogger({ write }, config.logLevel);
}

/**
 * Mounts the same API handler as the production server in `vite` (dev) and `vite preview`.
 * Deliberately not Vite's `server.proxy`: that forwards any path and method, and production could not reuse it.
 */
export function candidateLookupApi(): Plugin {
  const mount = (middlewares: Connect.Server, httpServer: http.Server | null | undefined, viteLogger: ViteLogger) => {
    // A bad configuration stops the dev server at start, naming the variable.
    const config = loadConfig();
    const logger = throughVite(viteLogger, config);
    const ready: Promise<{ api: Middleware; upstream: ResolvedUpstream; closeApi: () => Promise<void> }> = resolveUpstream(config).then(
      (upstream) => {
        for (const line of [...upstream.banner, describeAccess(config), describeSharedState(config), describeState(config)])
          logger.info(line);
        const { handler: api, close } = createApiFromConfig(config, upstream, { logger });
        return { api, upstream, closeApi: close };
      },
    );
    ready.catch((error: Error) => logger.error(`Candidate Lookup API could not start: ${error.message}`));
    // The embedded sandbox sends its webhooks to this dev server's own receiver, once it listens.
    httpServer?.once('listening', () => {
      const origin = originOf(httpServer.address());
      if (origin)
        void ready.then(
          ({ upstream }) => upstream.listening?.(origin),
          () => {},
        );
    });
    httpServer?.once(
      'close',
      () =>
        void ready.then(
          ({ upstream, closeApi }) => Promise.all([upstream.close(), closeApi()]),
          () => {},
        ),
    );

    middlewares.use((req, res, next) => {
      if (!req.url?.startsWith(API_PREFIX) && !req.url?.startsWith(WEBHOOK_PATH)) return next();
      ready.then(
        ({ api }) => api(req, res, next),
        () => sendFailure(res, new ApiFailure('api_not_started', API_NOT_STARTED)),
      );
    });
  };
  return {
    name: 'candidate-lookup-api',
    configureServer(server) {
      mount(server.middlewares, server.httpServer as http.Server | null, server.config.logger);
    },
    configurePreviewServer(server) {
      mount(server.middlewares, server.httpServer as http.Server, server.config.logger);
    },
  };
}

/** Where this process reaches a server it listens with: a wildcard address is reached on the loopback. */
function originOf(address: string | AddressInfo | null): string | undefined {
  if (!address || typeof address === 'string') return undefined;
  const host = address.address === '::' || address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/`;
}
