import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { EnvironmentTone } from '../../kyc/contract/api.ts';
import type { ReplyTemplate } from '../../kyc/contract/replies.ts';
import { apiKey, baseUrl, dashboardUrl, environmentLabel, environmentName, headerSafe, isPlainHttpToRemote } from './config-fields.ts';

/** A KYC Connect service with its own key: what lookups go to. */
export interface RemoteUpstream {
  kind: 'remote';
  baseUrl: string;
  clientId: string;
  /** The full key ("Include Identity attributes"): what compliance users get. */
  apiKey: string;
  /** A status-level key for support users and batches; without it the proxy strips identity data itself. */
  statusApiKey?: string;
}

/**
 * One environment the server looks candidates up in: production, staging, the embedded sandbox.
 * The first one is the default (unprefixed URLs); the others are reached under `/e/<name>/…`.
 */
export interface EnvironmentConfig {
  name: string;
  /** What the header badge says, e.g. "Production". */
  label: string;
  upstream: RemoteUpstream | { kind: 'sandbox' };
  /** The header badge's colour (`danger` production, `warning` staging); unset: neutral. */
  tone?: EnvironmentTone;
  /** The service's console for a candidate, with `{recordId}` or `{refId}`. */
  dashboardUrl?: string;
  /** Its decision summary's custom fields, and its reply texts (unset: the server's display defaults). */
  summaryFields?: string[];
  replyTemplates?: Record<string, ReplyTemplate>;
  /** The custom fields support users may see beside the status (supportFields; SUPPORT_FIELDS for the quick start and the sandbox). */
  supportFields?: string[];
  /** With a key that archives after extract: refuse full lookups (default), or accept the loss. */
  archiveOnExtract?: 'refuse' | 'accept';
  /** A queue tab with at most this many candidates is ordered by age (default 1000; 0: never). */
  queueIndexMax?: number;
  /** Queue rows waiting longer are flagged (default 48; 0: no SLA). */
  queueSlaHours?: number;
  /** The secret its webhooks are signed with (webhookSecretEnv or webhookSecretFile; KYC_WEBHOOK_SECRET for the quick start). */
  webhookSecret?: string;
}

/** The sandbox's operator notes (its rejected and review-requested candidates hold them): support users see them with no setup. */
export const SANDBOX_SUPPORT_FIELDS = ['rejectionReason', 'reviewReason', 'resubmitHint'];

export const SANDBOX_ENVIRONMENT: EnvironmentConfig = {
  name: 'sandbox',
  label: 'Sandbox',
  upstream: { kind: 'sandbox' },
  supportFields: SANDBOX_SUPPORT_FIELDS,
};

const entrySchema = z.strictObject(
  {
    name: environmentName,
    label: environmentLabel,
    baseUrl,
    clientId: headerSafe.min(1, 'must not be empty'),
    apiKey,
    statusApiKey: apiKey.optional(),
    dashboardUrl: dashboardUrl.optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}` : undefined) },
);

const fileSchema = z
  .array(entrySchema, { error: 'must be a JSON array of environments' })
  .min(1, 'must list at least one environment')
  .max(20, 'must list at most 20 environments');

export type EnvironmentsResult = { ok: true; environments: EnvironmentConfig[] } | { ok: false; problems: string[] };

/**
 * `KYC_ENVIRONMENTS_FILE`, the format before CONFIG_FILE (keys inline), still read as its environments: a JSON array of `{ name, label, baseUrl, clientId, apiKey, statusApiKey?, dashboardUrl? }`.
 * Each problem names the entry and the field; a key's value is never repeated in a message.
 */
export function readEnvironmentsFile(file: string, options: { allowHttp: boolean }): EnvironmentsResult {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { ok: false, problems: [`cannot read ${file} as JSON: ${(error as Error).message}`] };
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const nameOf = (index: unknown) => {
      const entry = Array.isArray(json) && typeof index === 'number' ? json[index] : undefined;
      const name = entry && typeof entry === 'object' && typeof entry.name === 'string' ? entry.name : undefined;
      return name ? ` ("${name.slice(0, 32)}")` : '';
    };
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => {
        const [index, field] = issue.path;
        const message = /received undefined$/.test(issue.message) ? 'is missing' : issue.message.replace(/^Invalid input: /, '');
        if (index === undefined) return `the file ${message}`;
        return `[${String(index)}]${nameOf(index)}${field === undefined ? '' : `.${String(field)}`} ${message}`;
      }),
    };
  }
  const problems: string[] = [];
  const seen = new Set<string>();
  parsed.data.forEach((entry, index) => {
    if (seen.has(entry.name)) problems.push(`[${index}].name "${entry.name}" is used twice: names must be unique`);
    seen.add(entry.name);
    if (isPlainHttpToRemote(entry.baseUrl) && !options.allowHttp) {
      problems.push(
        `[${index}] ("${entry.name}").baseUrl uses http:// to another machine: the API key would cross the network unencrypted (use https://, or list it in CONFIG_FILE's environments with "allowHttp": true)`,
      );
    }
  });
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    environments: parsed.data.map((entry) => ({
      name: entry.name,
      label: entry.label,
      upstream: {
        kind: 'remote',
        baseUrl: entry.baseUrl.replace(/\/+$/, ''),
        clientId: entry.clientId,
        apiKey: entry.apiKey,
        ...(entry.statusApiKey ? { statusApiKey: entry.statusApiKey } : {}),
      },
      ...(entry.dashboardUrl ? { dashboardUrl: entry.dashboardUrl } : {}),
    })),
  };
}
