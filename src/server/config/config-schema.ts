import { z } from 'zod';
import { LOG_FORMATS, LOG_LEVELS } from '../log/log.ts';
import { apiKey, baseUrl, cidrList, headerSafe, integer, optional, supportFieldsVariable } from './config-fields.ts';

/**
 * The environment variables the server reads: how this instance runs, and the quick start (one service
 * named "default"). What describes the service is in CONFIG_FILE (file-schema.ts). Each is documented in
 * docs/configuration.md and in .env.example.
 */
export const envSchema = z.object({
  CONFIG_FILE: optional(z.string()),
  KYC_BASE_URL: optional(baseUrl),
  KYC_CLIENT_ID: optional(headerSafe),
  KYC_API_KEY: optional(apiKey),
  KYC_API_KEY_STATUS: optional(apiKey),
  // The secret the service signs its webhooks with, for the quick start's environment (or the sandbox).
  KYC_WEBHOOK_SECRET: optional(apiKey),
  // The custom fields support users may see, for the quick start's environment (or the sandbox), as a comma list.
  SUPPORT_FIELDS: optional(supportFieldsVariable),
  HOST: optional(z.string()).default('127.0.0.1'),
  PORT: optional(integer(0, 65535)).default(8080),
  TRUSTED_PROXIES: optional(cidrList),
  REDIS_URL: optional(z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL, such as redis://redis.internal:6379' })),
  // Unset: DEFAULT_AUDIT_LOG, in the server's own directory (config.ts).
  AUDIT_LOG: optional(z.string()),
  // The audit trail's table (issue 34): PostgreSQL 14 or later, shared by every instance.
  DATABASE_URL: optional(
    z.url({
      protocol: /^postgres(ql)?$/,
      error: 'must be a postgres:// or postgresql:// URL, such as postgres://audit@db.internal:5432/audit',
    }),
  ),
  // This instance's name in that table (unset: the machine's host name).
  AUDIT_INSTANCE: optional(
    z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit'),
  ),
  AUDIT_MIN_FREE_MB: optional(integer(0, 1_000_000)).default(100),
  LOG_LEVEL: optional(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })).default('info'),
  // Unset: text when stdout is a terminal, JSON lines otherwise (server-output.ts).
  LOG_FORMAT: optional(z.enum(LOG_FORMATS, { error: `must be one of ${LOG_FORMATS.join(', ')}` })),
  METRICS_PORT: optional(integer(0, 65535)),
  METRICS_HOST: optional(z.string()),
  PARTS_MEMORY_BYTES: optional(integer(1024 * 1024, 2 ** 40)).default(256 * 1024 * 1024),
});

export type EnvVars = z.infer<typeof envSchema>;

/** Secrets: each also given as NAME_FILE, the path of a file holding it (a Docker or Kubernetes secret). */
export const SECRET_VARIABLES = ['KYC_API_KEY', 'KYC_API_KEY_STATUS', 'KYC_WEBHOOK_SECRET', 'REDIS_URL', 'DATABASE_URL'] as const;
