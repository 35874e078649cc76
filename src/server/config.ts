import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
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
  sandbox: { dataFile?: string; largeImages: boolean; port: number };
}

export interface RemoteUpstream {
  kind: 'remote';
  baseUrl: string;
  clientId: string;
  apiKey: string;
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
const headerSafe = z.string().regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters or line breaks');

const envSchema = z.object({
  KYC_BASE_URL: optional(
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, such as https://kyc.blockpass.org' })
      .refine((url) => !URL.canParse(url) || (!new URL(url).search && !new URL(url).hash), 'must not contain a query string or fragment'),
  ),
  KYC_CLIENT_ID: optional(headerSafe),
  KYC_API_KEY: optional(headerSafe),
  HOST: optional(z.string()).default('127.0.0.1'),
  PORT: optional(integer(0, 65535)).default(8080),
  KYC_TIMEOUT_MS: optional(integer(100, 600_000)).default(15_000),
  KYC_MAX_RESPONSE_BYTES: optional(integer(1024, 2 ** 31)).default(64 * 1024 * 1024),
  SANDBOX_DATA: optional(z.string()),
  SANDBOX_LARGE_IMAGES: optional(flag).default(false),
  SANDBOX_PORT: optional(integer(0, 65535)).default(4010),
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
  const common = {
    host: vars.HOST,
    port: vars.PORT,
    timeoutMs: vars.KYC_TIMEOUT_MS,
    maxResponseBytes: vars.KYC_MAX_RESPONSE_BYTES,
    sandbox: { dataFile: vars.SANDBOX_DATA, largeImages: vars.SANDBOX_LARGE_IMAGES, port: vars.SANDBOX_PORT },
  };

  if (!vars.KYC_BASE_URL) {
    const stray = (['KYC_CLIENT_ID', 'KYC_API_KEY'] as const).filter((name) => vars[name] !== undefined);
    if (stray.length > 0) {
      throw new ConfigError(
        `Invalid configuration:\n  ${stray.join(' and ')} ${stray.length > 1 ? 'are' : 'is'} set but KYC_BASE_URL is not.\n` +
          '  Set KYC_BASE_URL to use that service, or unset them to use the embedded sandbox.',
      );
    }
    return { ...common, upstream: { kind: 'sandbox' } };
  }
  const missing = (['KYC_CLIENT_ID', 'KYC_API_KEY'] as const).filter((name) => vars[name] === undefined);
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  KYC_BASE_URL is set, so ${missing.join(' and ')} must be set too.`,
    );
  }
  return {
    ...common,
    upstream: {
      kind: 'remote',
      baseUrl: vars.KYC_BASE_URL.replace(/\/+$/, ''),
      clientId: vars.KYC_CLIENT_ID!,
      apiKey: vars.KYC_API_KEY!,
    },
  };
}

export function loadConfig(env: Environment = process.env, cwd: string = process.cwd()): Config {
  return parseConfig(environmentWithDotenv(env, cwd));
}
