import type http from 'node:http';
import type { Connect, Logger, Plugin } from 'vite';
import { loadConfig } from './config.ts';
import { createApiFromConfig, describeAccess, describeSharedState } from './api.ts';
import { sendError } from './http-reply.ts';
import type { Middleware } from './proxy.ts';
import { formatRecord } from './log.ts';
import { resolveUpstream, type ResolvedUpstream } from './upstream.ts';

/**
 * Mounts the same API handler as the production server in `vite` (dev) and `vite preview`.
 * Deliberately not Vite's `server.proxy`: that forwards any path and method, and production could not reuse it.
 */
export function candidateLookupApi(): Plugin {
  const mount = (middlewares: Connect.Server, httpServer: http.Server | null | undefined, logger: Logger) => {
    // A bad configuration stops the dev server at start, naming the variable.
    const config = loadConfig();
    const ready: Promise<{ api: Middleware; upstream: ResolvedUpstream; closeApi: () => Promise<void> }> = resolveUpstream(config).then(
      (upstream) => {
        for (const line of [...upstream.banner, describeAccess(config), describeSharedState(config)]) logger.info(line);
        const { handler: api, close } = createApiFromConfig(config, upstream, {
          log: (record) => logger.info(formatRecord(record)),
          warn: (line) => logger.warn(line),
        });
        return { api, upstream, closeApi: close };
      },
    );
    ready.catch((error: Error) => logger.error(`Candidate Lookup API could not start: ${error.message}`));
    httpServer?.once(
      'close',
      () =>
        void ready.then(
          ({ upstream, closeApi }) => Promise.all([upstream.close(), closeApi()]),
          () => {},
        ),
    );

    middlewares.use((req, res, next) => {
      if (!req.url?.startsWith('/api')) return next();
      ready.then(
        ({ api }) => api(req, res, next),
        () => sendError(res, 502, 'upstream_unreachable', 'The API could not start: see the dev server output.'),
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
