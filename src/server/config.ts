import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { isCidr } from './auth/cidr.ts';
import { isLoopbackHost } from './loopback.ts';
import { z } from 'zod';

/**
 * The server's configuration, read once at start from the environment and from a `.env` file in the
 * project root (the environment wins). Every variable is documented in README.md and .env.example.
 */
export interface Config {
  host: string;
  port: number;
  timeoutMs: number;
  maxResponseBytes: number;
  upstream: RemoteUpstream | { kind: 'sandbox' };
  /** `hostile`: add a candidate made of hostile content (browser tests only). */
  sandbox: { dataFile?: string; largeImages: boolean; port: number; hostile: boolean };
  auth: AuthConfig;
  /** Where every lookup is recorded, one JSON line each. */
  auditLog: string;
  /** Lookups per minute per user (per client address in local mode); 0 turns the limit off. */
  rateLimitPerMinute: number;
}

export type AuthConfig =
  | { mode: 'local'; allowUnauthenticated: boolean }
  | { mode: 'users'; usersFile: string; sessionMaxAgeMinutes: number; sessionIdleMinutes: number }
  | { mode: 'proxy'; userHeader: string; roleHeader: string; trusted: string[] };

export interface RemoteUpstream {
  kind: 'remote';
  baseUrl: string;
  clientId: string;
  /** The full key ("Include Identity attributes"): what compliance users get. */
  apiKey: string;
  /** A status-level key for support users; without it the proxy strips identity data itself. */
  statusApiKey?: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

// An empty value (`KYC_BASE_URL=` in a copied .env.example) means unset.
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());

const integer = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

const flag = z.enum(['0', '1', 'true', 'false'], { error: 'must be 1 or 0' }).transform((v) => v === '1' || v === 'true');

// Sent in a request line or header: control characters would make the request invalid.
const headerSafe = z.string().regex(/^\P{Cc}*$/u, 'must not contain control characters or line breaks');
// The whole value of the Authorization header: visible ASCII only (a pasted zero-width space or a
// line break is a mistake that Node would refuse at the first lookup).
const apiKey = z.string().regex(/^[\x21-\x7e]+$/, 'must be the key as issued: visible ASCII characters, no spaces or line breaks');

const headerName = z
  .string()
  .regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name, such as X-Forwarded-User')
  .transform((name) => name.toLowerCase());

const envSchema = z.object({
  KYC_BASE_URL: optional(
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, such as https://kyc.blockpass.org' })
      .refine((url) => !URL.canParse(url) || (!new URL(url).search && !new URL(url).hash), 'must not contain a query string or fragment'),
  ),
  KYC_CLIENT_ID: optional(headerSafe),
  KYC_API_KEY: optional(apiKey),
  KYC_API_KEY_STATUS: optional(apiKey),
  KYC_ALLOW_HTTP: optional(flag).default(false),
  HOST: optional(z.string()).default('127.0.0.1'),
  PORT: optional(integer(0, 65535)).default(8080),
  KYC_TIMEOUT_MS: optional(integer(100, 600_000)).default(15_000),
  KYC_MAX_RESPONSE_BYTES: optional(integer(1024, 2 ** 31)).default(64 * 1024 * 1024),
  SANDBOX_DATA: optional(z.string()),
  SANDBOX_LARGE_IMAGES: optional(flag).default(false),
  SANDBOX_PORT: optional(integer(0, 65535)).default(4010),
  SANDBOX_HOSTILE: optional(flag).default(false),
  ALLOW_UNAUTHENTICATED: optional(flag).default(false),
  AUTH_USERS_FILE: optional(z.string()),
  SESSION_MAX_AGE_MINUTES: optional(integer(1, 7 * 24 * 60)).default(8 * 60),
  SESSION_IDLE_MINUTES: optional(integer(1, 24 * 60)).default(60),
  AUTH_PROXY_USER_HEADER: optional(headerName),
  AUTH_PROXY_ROLE_HEADER: optional(headerName),
  AUTH_PROXY_TRUSTED: optional(
    z
      .string()
      .transform((text) =>
        text
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      )
      .refine((list) => list.every(isCidr), 'must be a comma-separated list of addresses or CIDRs, such as 127.0.0.1/32,10.0.0.0/8'),
  ),
  AUDIT_LOG: optional(z.string()).default('audit.jsonl'),
  RATE_LIMIT_PER_MINUTE: optional(integer(0, 1_000_000)).default(60),
});

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
  if (auth.mode === 'local' && !auth.allowUnauthenticated && !isLoopbackHost(vars.HOST)) {
    throw problem(
      `HOST=${vars.HOST} would let anyone who reaches this machine read candidates, and no sign-in is configured.\n` +
        '  Set AUTH_USERS_FILE or AUTH_PROXY_USER_HEADER, or ALLOW_UNAUTHENTICATED=1 if something else guards access.',
    );
  }
  const common = {
    host: vars.HOST,
    port: vars.PORT,
    timeoutMs: vars.KYC_TIMEOUT_MS,
    maxResponseBytes: vars.KYC_MAX_RESPONSE_BYTES,
    sandbox: {
      dataFile: vars.SANDBOX_DATA,
      largeImages: vars.SANDBOX_LARGE_IMAGES,
      port: vars.SANDBOX_PORT,
      hostile: vars.SANDBOX_HOSTILE,
    },
    auth,
    auditLog: vars.AUDIT_LOG,
    rateLimitPerMinute: vars.RATE_LIMIT_PER_MINUTE,
  };

  if (!vars.KYC_BASE_URL) {
    const stray = (['KYC_CLIENT_ID', 'KYC_API_KEY', 'KYC_API_KEY_STATUS'] as const).filter((name) => vars[name] !== undefined);
    if (stray.length > 0) {
      throw problem(
        `${stray.join(' and ')} ${stray.length > 1 ? 'are' : 'is'} set but KYC_BASE_URL is not.\n` +
          '  Set KYC_BASE_URL to use that service, or unset them to use the embedded sandbox.',
      );
    }
    return { ...common, upstream: { kind: 'sandbox' } };
  }
  const missing = (['KYC_CLIENT_ID', 'KYC_API_KEY'] as const).filter((name) => vars[name] === undefined);
  if (missing.length > 0) throw problem(`KYC_BASE_URL is set, so ${missing.join(' and ')} must be set too.`);
  const base = new URL(vars.KYC_BASE_URL);
  if (base.protocol === 'http:' && !isLoopbackHost(base.hostname) && !vars.KYC_ALLOW_HTTP) {
    throw problem(
      'KYC_BASE_URL uses http:// to another machine: the API key would cross the network unencrypted.\n' +
        '  Use https://, or set KYC_ALLOW_HTTP=1 if the connection is protected otherwise.',
    );
  }
  return {
    ...common,
    upstream: {
      kind: 'remote',
      baseUrl: vars.KYC_BASE_URL.replace(/\/+$/, ''),
      clientId: vars.KYC_CLIENT_ID!,
      apiKey: vars.KYC_API_KEY!,
      ...(vars.KYC_API_KEY_STATUS ? { statusApiKey: vars.KYC_API_KEY_STATUS } : {}),
    },
  };
}

function authOf(vars: z.infer<typeof envSchema>, problem: (text: string) => ConfigError): AuthConfig {
  const proxyVars = (['AUTH_PROXY_USER_HEADER', 'AUTH_PROXY_ROLE_HEADER', 'AUTH_PROXY_TRUSTED'] as const).filter(
    (name) => vars[name] !== undefined,
  );
  if (vars.AUTH_USERS_FILE && proxyVars.length > 0) {
    throw problem(`AUTH_USERS_FILE and ${proxyVars.join(', ')} are both set: choose built-in users or an identity-aware proxy.`);
  }
  if (vars.AUTH_USERS_FILE) {
    return {
      mode: 'users',
      usersFile: vars.AUTH_USERS_FILE,
      sessionMaxAgeMinutes: vars.SESSION_MAX_AGE_MINUTES,
      sessionIdleMinutes: vars.SESSION_IDLE_MINUTES,
    };
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
