import type { EnvironmentTone } from '../../kyc/contract/api.ts';
import type { ReplyTemplate } from '../../kyc/contract/replies.ts';

/** A KYC Connect service with its own key: what lookups go to. */
export interface RemoteUpstream {
  kind: 'remote';
  baseUrl: string;
  clientId: string;
  /** The full key ("Include Identity attributes"): what compliance users get. */
  apiKey: string;
  /** A status-level key for support users and batches; without it the proxy strips identity data itself. */
  statusApiKey?: string;
  /** Where the keys, the client id and the base URL are set, for the words of a key the service rejects or an answer that is no record (never a value). */
  keySettings?: KeySettings;
}

/**
 * The settings an administrator checks when the service rejects a key, or answers with no record, by the
 * names they were given under: `KYC_API_KEY`, or `environments[0].apiKeyEnv (the variable PROD_KEY)` in
 * CONFIG_FILE mode; `KYC_BASE_URL`, or `environments[0].baseUrl`. A key from a file is named by its
 * setting, never its path: the sentence reaches the browser.
 */
export interface KeySettings {
  environment: string;
  full: string;
  status?: string;
  clientId: string;
  baseUrl: string;
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
