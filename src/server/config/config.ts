import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { isPlainHttpToRemote } from './config-fields.ts';
import { type EnvVars, envSchema } from './config-schema.ts';
import { DEFAULT_REPLIES, mergeReplyTemplates, replyTemplatesFileSchema, type ReplyTemplate } from '../../kyc/contract/replies.ts';
import { readEnvironmentsFile, SANDBOX_ENVIRONMENT, type EnvironmentConfig } from './environments.ts';
import { OIDC_VARIABLES, type OidcConfig, oidcOf } from './oidc-config.ts';
import { isLoopbackHost } from '../http/loopback.ts';
import type { LogFormat, LogLevel } from '../log/log.ts';

export type { EnvironmentConfig, RemoteUpstream } from './environments.ts';

/**
 * Where the server keeps its state when AUDIT_LOG is not set, relative to the working directory: one
 * directory that git (and so Biome) ignores, not files strewn in the project root, where a finding's
 * unformatted JSON failed `npm test`'s format check.
 */
export const DEFAULT_STATE_DIR = '.candidate-lookup';
export const DEFAULT_AUDIT_LOG = `${DEFAULT_STATE_DIR}/audit.jsonl`;

/**
 * The server's configuration, read once at start from the environment and from a `.env` file in the
 * project root (the environment wins). Every variable is documented in docs/configuration.md and .env.example.
 */
export interface Config {
  host: string;
  port: number;
  timeoutMs: number;
  maxResponseBytes: number;
  /** The bytes all answers in parts being built may hold at once (parts-budget.ts). */
  partsMemoryBytes: number;
  /** Where lookups go; the first is the default. The single-service KYC_* variables make a list of one. */
  environments: EnvironmentConfig[];
  /**
   * `hostile`: add a candidate made of hostile content (browser tests only). `testControls`: a route that
   * changes a candidate's status (browser tests only; never with a real service). `host`: where `npm run
   * sandbox` listens, loopback unless SANDBOX_HOST says otherwise (never HOST: its keys are documented).
   */
  sandbox: { dataFile?: string; largeImages: boolean; host: string; port: number; hostile: boolean; testControls: boolean };
  auth: AuthConfig;
  /** Proxies (CIDRs) whose X-Forwarded-For and -Proto are believed; in proxy mode the identity-aware one too. */
  trustedProxies: string[];
  /** Where every lookup is recorded, one JSON line each. */
  auditLog: string;
  /**
   * Set when AUDIT_LOG is not: the server's own directory (DEFAULT_STATE_DIR), made at start, that holds
   * the audit log and, without Redis, the archive-after-extract findings beside it.
   */
  defaultStateDir?: string;
  /** The least level of the server's log lines written (LOG_LEVEL). */
  logLevel: LogLevel;
  /** Text for a person or JSON lines (LOG_FORMAT); undefined: text when stdout is a terminal. */
  logFormat?: LogFormat;
  /** Lookups per minute per user (per client address in local mode); 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Ids per minute per user in batch lookups, a budget of their own; 0 turns it off. */
  rateLimitBatchPerMinute: number;
  /** Each user's requests to the KYC service under way at once; 0 turns the bound off. */
  maxInFlightPerUser: number;
  /** Support users' "Copy reply" texts per status: the defaults, replaced per status by REPLY_TEMPLATES_FILE. */
  replyTemplates: Record<string, ReplyTemplate>;
  /**
   * What to do once the key is seen to archive identity data after each full lookup ("archive after
   * extract"): refuse further full lookups (the default), or accept and go on.
   */
  keyArchivesOnExtract: 'refuse' | 'accept';
  /** Under this many free bytes where the audit log is written, a warning is logged and /readyz says so. */
  auditMinFreeBytes: number;
  /** `/metrics` on a port of its own; undefined: no metrics server. */
  metrics?: { host: string; port: number };
  /** Sessions, sign-in locks and rate limits in Redis, shared by every instance; in memory without it. */
  redisUrl?: string;
  /** The candidate page: decision custom fields in its summary, and whether it opens masked. */
  display: { summaryFields: string[]; privacyMaskDefault: boolean };
}

export type AuthConfig =
  | { mode: 'local'; allowUnauthenticated: boolean }
  | { mode: 'users'; usersFile: string; sessionMaxAgeMinutes: number; sessionIdleMinutes: number }
  | { mode: 'proxy'; userHeader: string; roleHeader: string; trusted: string[] }
  | { mode: 'oidc'; oidc: OidcConfig; sessionMaxAgeMinutes: number; sessionIdleMinutes: number };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const SIGN_IN_HINT =
  '  Set AUTH_USERS_FILE, AUTH_PROXY_USER_HEADER or OIDC_ISSUER, or ALLOW_UNAUTHENTICATED=1 if something else guards access.';

export type Environment = Record<string, string | undefined>;

/** Reads `<cwd>/.env` if present; variables already in `env` take precedence. */
export function environmentWithDotenv(env: Environment, cwd: string): Environment {
  const file = path.join(cwd, '.env');
  if (!existsSync(file)) return env;
  return { ...dotenv.parse(readFileSync(file)), ...env };
}

export function parseConfig(env: Environment): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${String(issue.path[0])} ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const vars = parsed.data;
  const problem = (text: string) => new ConfigError(`Invalid configuration:\n  ${text}`);
  const auth = authOf(vars, problem);
  if (auth.mode === 'local' && !auth.allowUnauthenticated) {
    const open = !isLoopbackHost(vars.HOST) && `HOST=${vars.HOST} would let anyone who reaches this machine read candidates`;
    const proxied = vars.TRUSTED_PROXIES && 'TRUSTED_PROXIES is set, but local mode answers this machine only';
    if (open || proxied) throw problem(`${open || proxied}, and no sign-in is configured.\n${SIGN_IN_HINT}`);
  }
  if (vars.METRICS_PORT !== undefined && vars.METRICS_PORT !== 0 && vars.METRICS_PORT === vars.PORT) {
    throw problem(`METRICS_PORT=${vars.METRICS_PORT} is the public PORT too: metrics are served on a port of their own.`);
  }
  const common = {
    host: vars.HOST,
    port: vars.PORT,
    timeoutMs: vars.KYC_TIMEOUT_MS,
    maxResponseBytes: vars.KYC_MAX_RESPONSE_BYTES,
    partsMemoryBytes: vars.PARTS_MEMORY_BYTES,
    sandbox: {
      dataFile: vars.SANDBOX_DATA,
      largeImages: vars.SANDBOX_LARGE_IMAGES,
      host: vars.SANDBOX_HOST,
      port: vars.SANDBOX_PORT,
      hostile: vars.SANDBOX_HOSTILE,
      testControls: vars.SANDBOX_TEST_CONTROLS,
    },
    auth,
    trustedProxies: [...(vars.TRUSTED_PROXIES ?? []), ...(auth.mode === 'proxy' ? auth.trusted : [])],
    auditLog: vars.AUDIT_LOG ?? DEFAULT_AUDIT_LOG,
    ...(vars.AUDIT_LOG === undefined ? { defaultStateDir: DEFAULT_STATE_DIR } : {}),
    logLevel: vars.LOG_LEVEL,
    ...(vars.LOG_FORMAT ? { logFormat: vars.LOG_FORMAT } : {}),
    rateLimitPerMinute: vars.RATE_LIMIT_PER_MINUTE,
    rateLimitBatchPerMinute: vars.RATE_LIMIT_BATCH_PER_MINUTE,
    maxInFlightPerUser: vars.UPSTREAM_MAX_IN_FLIGHT_PER_USER,
    replyTemplates: vars.REPLY_TEMPLATES_FILE ? readReplyTemplates(vars.REPLY_TEMPLATES_FILE) : DEFAULT_REPLIES,
    keyArchivesOnExtract: vars.KYC_KEY_ARCHIVES_ON_EXTRACT,
    auditMinFreeBytes: vars.AUDIT_MIN_FREE_MB * 1024 * 1024,
    ...(vars.METRICS_PORT !== undefined ? { metrics: { host: vars.METRICS_HOST ?? vars.HOST, port: vars.METRICS_PORT } } : {}),
    ...(vars.REDIS_URL ? { redisUrl: vars.REDIS_URL } : {}),
    display: { summaryFields: vars.SUMMARY_FIELDS, privacyMaskDefault: vars.PRIVACY_MASK_DEFAULT },
  };

  const environments = environmentsOf(vars, problem);
  if (vars.SANDBOX_TEST_CONTROLS && environments.some((environment) => environment.upstream.kind !== 'sandbox')) {
    throw problem('SANDBOX_TEST_CONTROLS=1 is for browser tests on the sandbox only: it is not allowed with a real KYC service.');
  }
  return { ...common, environments };
}

function readReplyTemplates(file: string): Record<string, ReplyTemplate> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  REPLY_TEMPLATES_FILE: cannot read ${file} as JSON: ${(error as Error).message}`);
  }
  const parsed = replyTemplatesFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `    ${issue.path.map(String).join('.') || 'the file'} ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  REPLY_TEMPLATES_FILE (${file}):\n${problems.join('\n')}`);
  }
  return mergeReplyTemplates(parsed.data);
}

const SINGLE_SERVICE_VARS = [
  'KYC_BASE_URL',
  'KYC_CLIENT_ID',
  'KYC_API_KEY',
  'KYC_API_KEY_STATUS',
  'KYC_ENVIRONMENT_LABEL',
  'KYC_DASHBOARD_URL',
] as const;

function environmentsOf(vars: EnvVars, problem: (text: string) => ConfigError): EnvironmentConfig[] {
  if (vars.KYC_ENVIRONMENTS_FILE) {
    const mixed = SINGLE_SERVICE_VARS.filter((name) => vars[name] !== undefined);
    if (mixed.length > 0) {
      throw problem(
        `KYC_ENVIRONMENTS_FILE and ${mixed.join(', ')} are both set: list every service in the file, or use the KYC_* variables alone.`,
      );
    }
    const result = readEnvironmentsFile(vars.KYC_ENVIRONMENTS_FILE, { allowHttp: vars.KYC_ALLOW_HTTP });
    if (!result.ok) {
      throw new ConfigError(
        `Invalid configuration:\n  KYC_ENVIRONMENTS_FILE (${vars.KYC_ENVIRONMENTS_FILE}):\n${result.problems.map((p) => `    ${p}`).join('\n')}`,
      );
    }
    return result.environments;
  }
  if (!vars.KYC_BASE_URL) {
    const stray = (['KYC_CLIENT_ID', 'KYC_API_KEY', 'KYC_API_KEY_STATUS'] as const).filter((name) => vars[name] !== undefined);
    if (stray.length > 0) {
      throw problem(
        `${stray.join(' and ')} ${stray.length > 1 ? 'are' : 'is'} set but KYC_BASE_URL is not.\n` +
          '  Set KYC_BASE_URL to use that service, or unset them to use the embedded sandbox.',
      );
    }
    return [SANDBOX_ENVIRONMENT];
  }
  const missing = (['KYC_CLIENT_ID', 'KYC_API_KEY'] as const).filter((name) => vars[name] === undefined);
  if (missing.length > 0) throw problem(`KYC_BASE_URL is set, so ${missing.join(' and ')} must be set too.`);
  if (isPlainHttpToRemote(vars.KYC_BASE_URL) && !vars.KYC_ALLOW_HTTP) {
    throw problem(
      'KYC_BASE_URL uses http:// to another machine: the API key would cross the network unencrypted.\n' +
        '  Use https://, or set KYC_ALLOW_HTTP=1 if the connection is protected otherwise.',
    );
  }
  return [
    {
      name: 'default',
      // Without a label, the service's host name still tells production from staging.
      label: vars.KYC_ENVIRONMENT_LABEL ?? new URL(vars.KYC_BASE_URL).hostname,
      upstream: {
        kind: 'remote',
        baseUrl: vars.KYC_BASE_URL.replace(/\/+$/, ''),
        clientId: vars.KYC_CLIENT_ID!,
        apiKey: vars.KYC_API_KEY!,
        ...(vars.KYC_API_KEY_STATUS ? { statusApiKey: vars.KYC_API_KEY_STATUS } : {}),
      },
      ...(vars.KYC_DASHBOARD_URL ? { dashboardUrl: vars.KYC_DASHBOARD_URL } : {}),
    },
  ];
}

function authOf(vars: EnvVars, problem: (text: string) => ConfigError): AuthConfig {
  const proxyVars = (['AUTH_PROXY_USER_HEADER', 'AUTH_PROXY_ROLE_HEADER', 'AUTH_PROXY_TRUSTED'] as const).filter(
    (name) => vars[name] !== undefined,
  );
  const oidcVars = OIDC_VARIABLES.filter((name) => vars[name] !== undefined);
  const chosen = [vars.AUTH_USERS_FILE ? ['AUTH_USERS_FILE'] : [], proxyVars, oidcVars].filter((names) => names.length > 0);
  if (chosen.length > 1) {
    throw problem(
      `${chosen.map((names) => names.join(', ')).join(' and ')} are set together: choose one way to sign in ` +
        '(built-in users, an identity-aware proxy, or OpenID Connect).',
    );
  }
  const sessions = { sessionMaxAgeMinutes: vars.SESSION_MAX_AGE_MINUTES, sessionIdleMinutes: vars.SESSION_IDLE_MINUTES };
  if (vars.AUTH_USERS_FILE) return { mode: 'users', usersFile: vars.AUTH_USERS_FILE, ...sessions };
  if (oidcVars.length > 0) {
    return { mode: 'oidc', oidc: oidcOf(vars, problem), ...sessions };
  }
  if (proxyVars.length > 0) {
    const missing = (['AUTH_PROXY_USER_HEADER', 'AUTH_PROXY_ROLE_HEADER', 'AUTH_PROXY_TRUSTED'] as const).filter(
      (name) => vars[name] === undefined,
    );
    if (missing.length > 0) throw problem(`${proxyVars.join(' and ')} set, so ${missing.join(' and ')} must be set too.`);
    return {
      mode: 'proxy',
      userHeader: vars.AUTH_PROXY_USER_HEADER!,
      roleHeader: vars.AUTH_PROXY_ROLE_HEADER!,
      trusted: vars.AUTH_PROXY_TRUSTED!,
    };
  }
  return { mode: 'local', allowUnauthenticated: vars.ALLOW_UNAUTHENTICATED };
}

/** A start-up step: a configuration problem ends the process with its message, not a stack trace. */
export async function orExit<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

export function loadConfig(env: Environment = process.env, cwd: string = process.cwd()): Config {
  return parseConfig(environmentWithDotenv(env, cwd));
}
