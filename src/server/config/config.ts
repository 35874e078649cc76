import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { DEFAULT_SUMMARY_FIELDS } from '../../kyc/contract/api.ts';
import { DEFAULT_REPLIES, mergeReplyTemplates, type ReplyTemplate } from '../../kyc/contract/replies.ts';
import { type EnvVars, envSchema } from './config-schema.ts';
import type { EnvironmentConfig } from './environments.ts';
import type { CheckedConfigFile, Limits } from './file-schema.ts';
import { environmentsOf, inConfigFile, readConfigFile } from './read-config.ts';
import type { Environment } from './environment-variables.ts';
import { removedVariablesIn } from './removed-variables.ts';
import { withSecretFiles } from './secrets.ts';
import { type AuthConfig, authOf, checkLocalMode } from './sign-in.ts';
import type { LogFormat, LogLevel } from '../log/log.ts';
import type { ListShape } from './file-schema.ts';
import type { ConnectionLimits } from '../http/connection-guard.ts';

export type { EnvironmentConfig, RemoteUpstream } from './environments.ts';
export type { Environment } from './environment-variables.ts';

/**
 * Where the server keeps its state when AUDIT_LOG is not set, relative to the working directory: one
 * directory that git (and so Biome) ignores, not files strewn in the project root, where a finding's
 * unformatted JSON failed `npm test`'s format check.
 */
export const DEFAULT_STATE_DIR = '.candidate-lookup';
export const DEFAULT_AUDIT_LOG = `${DEFAULT_STATE_DIR}/audit.jsonl`;

/**
 * The server's configuration, read once at start from CONFIG_FILE, the environment and a `.env` file in
 * the working directory (the environment wins). All of it is documented in docs/configuration.md.
 */
export interface Config {
  host: string;
  port: number;
  /**
   * CONFIG_FILE's limits as its schema resolves them (file-schema.ts, where each default is written), with
   * the queue crawler's pace resolved here: its default depends on the environments.
   */
  limits: ResolvedLimits;
  /** The bytes all answers in parts being built may hold at once (PARTS_MEMORY_BYTES; parts-budget.ts). */
  partsMemoryBytes: number;
  /** Where lookups go; the first is the default. The quick-start KYC_* variables make a list of one. */
  environments: EnvironmentConfig[];
  /** The embedded sandbox (CONFIG_FILE's `sandbox`; sandbox/options.ts). */
  sandbox: SandboxSettings;
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
  /** Deadlines for a request's headers and whole body, and caps on connections nobody has signed in on (connection-guard.ts). */
  connections: ConnectionLimits;
  /** Support users' "Copy reply" texts per status: the defaults, replaced per status by display.replyTemplates. */
  replyTemplates: Record<string, ReplyTemplate>;
  /** Under this many free bytes where the audit log is written, a warning is logged and /readyz says so. */
  auditMinFreeBytes: number;
  /** `/metrics` on a port of its own; undefined: no metrics server. */
  metrics?: { host: string; port: number };
  /** Sessions, sign-in locks and rate limits in Redis, shared by every instance; in memory without it. */
  redisUrl?: string;
  /** The audit trail's table in PostgreSQL, shared by every instance; the audit page reads the files without it. */
  databaseUrl?: string;
  /** This instance's name in the audit table (AUDIT_INSTANCE, else the host name). */
  auditInstance: string;
  /** Days the audit table keeps a line (audit.retentionDays). */
  auditRetentionDays: number;
  /** The candidate page: decision custom fields in its summary, and whether it opens masked (an environment may say otherwise). */
  display: { summaryFields: string[]; privacyMaskDefault: boolean };
}

/**
 * `hostile`: add a candidate made of hostile content (browser tests only). `testControls`: a route that
 * changes a candidate's status (browser tests only; never with a real service).
 */
export interface SandboxSettings {
  dataFile?: string;
  largeImages: boolean;
  hostile: boolean;
  testControls: boolean;
  /** The shape the list operation answers in (sandbox/list-shapes.ts); the older notes' unless told. */
  listShape?: ListShape;
}

/** A year: the table is for questions about the recent past; the files are the record and are kept as long as the operator keeps them. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;

/** The machine's host name as an instance name: what AUDIT_INSTANCE allows of it. */
function defaultInstanceName(): string {
  return (
    os
      .hostname()
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 64) || 'instance'
  );
}

/** The limits, every one resolved: the queue crawler's pace too. */
export type ResolvedLimits = Limits & { queueIndexLookupsPerSecond: number };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads `<cwd>/.env` if present (Node's own parser, as `process.loadEnvFile`); variables already in `env` take precedence. */
export function environmentWithDotenv(env: Environment, cwd: string): Environment {
  const file = path.join(cwd, '.env');
  if (!existsSync(file)) return env;
  return { ...parseEnv(readFileSync(file, 'utf8')), ...env };
}

const invalid = (problems: string[]) => new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);

/**
 * The configuration from `env` and CONFIG_FILE (`file` instead of reading it: the file's content, for
 * tests). Every problem found is said at once, each naming its variable or the file's JSON path.
 */
export function parseConfig(env: Environment, file?: unknown): Config {
  const secrets = withSecretFiles(env);
  const parsed = envSchema.safeParse(secrets.env);
  const problems = [...secrets.problems];
  if (!parsed.success) problems.push(...parsed.error.issues.map((issue) => `${String(issue.path[0])} ${issue.message}`));
  const read = readConfigFile(env.CONFIG_FILE?.trim() || undefined, file);
  problems.push(...read.problems, ...removedVariablesIn(env, read.referenced));
  if (problems.length > 0 || !parsed.success || !read.file) throw invalid(problems);
  return configOf(parsed.data, read.file, secrets.env);
}

function configOf(vars: EnvVars, file: CheckedConfigFile, env: Environment): Config {
  const auth = authOf(file.signIn, env);
  if ('problem' in auth) throw invalid([inConfigFile(vars.CONFIG_FILE, auth.problem)]);
  const local = checkLocalMode(auth, vars);
  if (local) throw invalid([local]);
  if (vars.METRICS_PORT !== undefined && vars.METRICS_PORT !== 0 && vars.METRICS_PORT === vars.PORT) {
    throw invalid([`METRICS_PORT=${vars.METRICS_PORT} is the public PORT too: metrics are served on a port of their own.`]);
  }
  const environments = environmentsOf(vars, file, env);
  if ('problems' in environments) throw invalid(environments.problems);
  const sandbox = {
    ...(file.sandbox?.data ? { dataFile: file.sandbox.data } : {}),
    largeImages: file.sandbox?.largeImages ?? false,
    hostile: file.sandbox?.hostile ?? false,
    testControls: file.sandbox?.testControls ?? false,
    ...(file.sandbox?.listShape ? { listShape: file.sandbox.listShape } : {}),
  };
  if (sandbox.testControls && environments.some((environment) => environment.upstream.kind !== 'sandbox')) {
    throw invalid(['sandbox.testControls is for browser tests on the sandbox only: it is not allowed with a real KYC service.']);
  }
  const { limits } = file;
  return {
    host: vars.HOST,
    port: vars.PORT,
    limits: {
      ...limits,
      // The embedded sandbox is this process, no service to spare: its small queue is read in a second or two.
      queueIndexLookupsPerSecond:
        limits.queueIndexLookupsPerSecond ?? (environments.every((environment) => environment.upstream.kind === 'sandbox') ? 100 : 5),
    },
    partsMemoryBytes: vars.PARTS_MEMORY_BYTES,
    environments,
    sandbox,
    auth,
    trustedProxies: [...(vars.TRUSTED_PROXIES ?? []), ...(auth.mode === 'proxy' ? auth.trusted : [])],
    auditLog: vars.AUDIT_LOG ?? DEFAULT_AUDIT_LOG,
    ...(vars.AUDIT_LOG === undefined ? { defaultStateDir: DEFAULT_STATE_DIR } : {}),
    logLevel: vars.LOG_LEVEL,
    ...(vars.LOG_FORMAT ? { logFormat: vars.LOG_FORMAT } : {}),
    connections: {
      headersTimeoutMs: limits.headersTimeoutMs,
      requestTimeoutMs: limits.requestTimeoutMs,
      perAddress: limits.connectionsPerAddress,
      ...(limits.anonymousConnections === undefined ? {} : { anonymous: limits.anonymousConnections }),
    },
    replyTemplates: file.display?.replyTemplates ? mergeReplyTemplates(file.display.replyTemplates) : DEFAULT_REPLIES,
    auditMinFreeBytes: vars.AUDIT_MIN_FREE_MB * 1024 * 1024,
    ...(vars.METRICS_PORT !== undefined ? { metrics: { host: vars.METRICS_HOST ?? vars.HOST, port: vars.METRICS_PORT } } : {}),
    ...(vars.REDIS_URL ? { redisUrl: vars.REDIS_URL } : {}),
    ...(vars.DATABASE_URL ? { databaseUrl: vars.DATABASE_URL } : {}),
    auditInstance: vars.AUDIT_INSTANCE ?? defaultInstanceName(),
    auditRetentionDays: file.audit?.retentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS,
    display: {
      summaryFields: file.display?.summaryFields ?? [...DEFAULT_SUMMARY_FIELDS],
      privacyMaskDefault: file.display?.privacyMask === 'on',
    },
  };
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
