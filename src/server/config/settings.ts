import type { Config } from './config.ts';

/**
 * What the API handler is set with: data only, every field resolved, no default below this point. In
 * production `settingsOf` builds it from the configuration; tests build it with test/server/settings.ts's
 * `testSettings`, which parses a configuration through the same schema. Each lookup step reads it whole
 * (`deps.settings`), so a limit added to CONFIG_FILE's schema (file-schema.ts's `limitsSchema`, with its
 * default) reaches every step as `deps.settings.limits.<name>` without a change to the wiring between.
 * The services the handler uses (the audit log, the stores, clocks, the logger) are not settings: they
 * are its runtime (composition/api-handler.ts's ApiRuntime).
 */
export type ApiSettings = Pick<Config, 'limits' | 'partsMemoryBytes' | 'replyTemplates' | 'display' | 'trustedProxies'> & {
  /** Refuse requests that came through a proxy: local mode without sign-in (signIn.allowUnauthenticated unset). */
  refuseProxied: boolean;
  /** A browser that reads nothing of an answer in parts is cut off after this (limits.upstreamTimeoutMs; tests make it short). */
  browserStallMs: number;
  /** Lookups of one batch under way at once. */
  batchConcurrency: number;
  /** Once an environment's key is seen to archive after extract: refuse its full lookups, or accept (each environment may say otherwise). */
  keyArchivesOnExtract: 'refuse' | 'accept';
};

/** Enough to keep a batch of 500 well under 10 s, and gentle on the service. */
const BATCH_CONCURRENCY = 8;

/** The API handler's settings as configured: the same for the production server and the Vite plugin. */
export function settingsOf(config: Config): ApiSettings {
  const { limits, partsMemoryBytes, replyTemplates, display, trustedProxies } = config;
  return {
    limits,
    partsMemoryBytes,
    replyTemplates,
    display,
    trustedProxies,
    refuseProxied: config.auth.mode === 'local' && !config.auth.allowUnauthenticated,
    browserStallMs: limits.upstreamTimeoutMs,
    batchConcurrency: BATCH_CONCURRENCY,
    keyArchivesOnExtract: 'refuse',
  };
}
