import { z } from 'zod';
import { LOG_FORMATS, LOG_LEVELS } from '../log/log.ts';
import { DEFAULT_SUMMARY_FIELDS } from '../../kyc/contract/api.ts';
import { oidcEnvSchema } from './oidc-config.ts';
import {
  apiKey,
  baseUrl,
  cidrList,
  commaList,
  dashboardUrl,
  environmentLabel,
  flag,
  headerName,
  headerSafe,
  integer,
  optional,
} from './config-fields.ts';

/**
 * Every variable the server reads, with its default, checked at start (config.ts turns them into the
 * Config). Each is documented in docs/configuration.md and in .env.example.
 */
export const envSchema = z.object({
  KYC_BASE_URL: optional(baseUrl),
  KYC_CLIENT_ID: optional(headerSafe),
  KYC_API_KEY: optional(apiKey),
  KYC_API_KEY_STATUS: optional(apiKey),
  KYC_ENVIRONMENT_LABEL: optional(environmentLabel),
  KYC_DASHBOARD_URL: optional(dashboardUrl),
  KYC_ENVIRONMENTS_FILE: optional(z.string()),
  KYC_ALLOW_HTTP: optional(flag).default(false),
  HOST: optional(z.string()).default('127.0.0.1'),
  PORT: optional(integer(0, 65535)).default(8080),
  KYC_TIMEOUT_MS: optional(integer(100, 600_000)).default(15_000),
  KYC_MAX_RESPONSE_BYTES: optional(integer(1024, 2 ** 31)).default(64 * 1024 * 1024),
  PARTS_MEMORY_BYTES: optional(integer(1024 * 1024, 2 ** 40)).default(256 * 1024 * 1024),
  SANDBOX_DATA: optional(z.string()),
  SANDBOX_LARGE_IMAGES: optional(flag).default(false),
  SANDBOX_HOST: optional(z.string()).default('127.0.0.1'),
  SANDBOX_PORT: optional(integer(0, 65535)).default(4010),
  SANDBOX_HOSTILE: optional(flag).default(false),
  SANDBOX_TEST_CONTROLS: optional(flag).default(false),
  ALLOW_UNAUTHENTICATED: optional(flag).default(false),
  AUTH_USERS_FILE: optional(z.string()),
  SESSION_MAX_AGE_MINUTES: optional(integer(1, 7 * 24 * 60)).default(8 * 60),
  SESSION_IDLE_MINUTES: optional(integer(1, 24 * 60)).default(60),
  AUTH_PROXY_USER_HEADER: optional(headerName),
  AUTH_PROXY_ROLE_HEADER: optional(headerName),
  AUTH_PROXY_TRUSTED: optional(cidrList),
  TRUSTED_PROXIES: optional(cidrList),
  // Unset: DEFAULT_AUDIT_LOG, in the server's own directory (config.ts).
  AUDIT_LOG: optional(z.string()),
  LOG_LEVEL: optional(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })).default('info'),
  // Unset: text when stdout is a terminal, JSON lines otherwise (server-output.ts).
  LOG_FORMAT: optional(z.enum(LOG_FORMATS, { error: `must be one of ${LOG_FORMATS.join(', ')}` })),
  RATE_LIMIT_PER_MINUTE: optional(integer(0, 1_000_000)).default(60),
  RATE_LIMIT_BATCH_PER_MINUTE: optional(integer(0, 1_000_000)).default(600),
  UPSTREAM_MAX_IN_FLIGHT_PER_USER: optional(integer(0, 1000)).default(4),
  REPLY_TEMPLATES_FILE: optional(z.string()),
  KYC_KEY_ARCHIVES_ON_EXTRACT: optional(
    z.enum(['refuse', 'accept'], { error: 'must be "accept" (look anyway, deleting what is looked at) or "refuse"' }),
  ).default('refuse'),
  AUDIT_MIN_FREE_MB: optional(integer(0, 1_000_000)).default(100),
  METRICS_PORT: optional(integer(0, 65535)),
  METRICS_HOST: optional(z.string()),
  REDIS_URL: optional(z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL, such as redis://redis.internal:6379' })),
  ...oidcEnvSchema,
  SUMMARY_FIELDS: optional(
    headerSafe
      .transform(commaList)
      .refine((list) => list.length > 0, 'must name at least one custom field, such as riskLevel,screeningCase'),
  ).default([...DEFAULT_SUMMARY_FIELDS]),
  PRIVACY_MASK_DEFAULT: optional(
    z.enum(['on', 'off', '1', '0', 'true', 'false'], { error: 'must be on or off' }).transform((v) => ['on', '1', 'true'].includes(v)),
  ).default(false),
});

export type EnvVars = z.infer<typeof envSchema>;
