import { mergeReplyTemplates } from '../../kyc/contract/replies.ts';
import { apiKey, isPlainHttpToRemote } from './config-fields.ts';
import type { EnvironmentConfig } from './environments.ts';
import type { EnvironmentEntry } from './file-schema.ts';
import { type Environment, variableOf } from './environment-variables.ts';
import { readSecretFile } from './secrets.ts';

/** A secret named by the file: the variable (`…Env`) or the file (`…File`) that holds it. */
export interface SecretRef {
  env?: string | undefined;
  file?: string | undefined;
}

/**
 * The secret a reference names, or the problem with it, at `at` (its JSON path without the Env/File
 * suffix). The value itself is never in a message, nor a name no variable has: that may be the key,
 * pasted where its variable's name goes.
 */
export function resolveSecret(ref: SecretRef, at: string, env: Environment, required: boolean): { value?: string; problem?: string } {
  if (ref.env !== undefined && ref.file !== undefined) return { problem: `${at}Env, ${at}File: give one of them, not both` };
  if (ref.env !== undefined) {
    const value = variableOf(env, ref.env);
    return value === undefined ? { problem: `${at}Env: the variable it names is not set` } : checked(value, `${at}Env (${ref.env})`);
  }
  if (ref.file !== undefined) {
    const value = readSecretFile(ref.file, `${at}File`);
    return typeof value === 'string' ? checked(value, `${at}File (${ref.file})`) : value;
  }
  return required ? { problem: `${at}Env or ${at}File is missing: name the variable or the file that holds the key` } : {};
}

function checked(value: string, where: string): { value?: string; problem?: string } {
  const parsed = apiKey.safeParse(value);
  return parsed.success ? { value } : { problem: `${where}: ${parsed.error.issues[0]!.message}` };
}

/** Where a key of an entry is set: its variable's setting and name, or its file's setting (not its path). */
function settingOf(at: string, key: 'apiKey' | 'statusApiKey', variable: string | undefined): string {
  return variable === undefined ? `${at}.${key}File` : `${at}.${key}Env (the variable ${variable})`;
}

/** The variables the file names as holding secrets: read, so not refused as removed ones. */
export function referencedVariables(entries: readonly EnvironmentEntry[], extra: (string | undefined)[] = []): Set<string> {
  const names = entries.flatMap((entry) => [entry.apiKeyEnv, entry.statusApiKeyEnv, entry.webhookSecretEnv]);
  return new Set([...names, ...extra].filter((name): name is string => name !== undefined));
}

/** CONFIG_FILE's environments as the server serves them, each key read; or every problem, by JSON path. */
export function environmentsFromFile(
  entries: readonly EnvironmentEntry[],
  env: Environment,
): { ok: true; environments: EnvironmentConfig[] } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const seen = new Set<string>();
  const environments = entries.map((entry, index): EnvironmentConfig => {
    const at = `environments[${index}]`;
    if (seen.has(entry.name)) problems.push(`${at}.name: "${entry.name}" is used twice: names must be unique`);
    seen.add(entry.name);
    if (isPlainHttpToRemote(entry.baseUrl) && !entry.allowHttp) {
      problems.push(`${at}.baseUrl: http:// to another machine would send the API key unencrypted (use https://, or "allowHttp": true)`);
    }
    const key = resolveSecret({ env: entry.apiKeyEnv, file: entry.apiKeyFile }, `${at}.apiKey`, env, true);
    const statusKey = resolveSecret({ env: entry.statusApiKeyEnv, file: entry.statusApiKeyFile }, `${at}.statusApiKey`, env, false);
    const webhook = resolveSecret({ env: entry.webhookSecretEnv, file: entry.webhookSecretFile }, `${at}.webhookSecret`, env, false);
    for (const problem of [key.problem, statusKey.problem, webhook.problem]) if (problem) problems.push(problem);
    return {
      name: entry.name,
      label: entry.label,
      ...(entry.tone ? { tone: entry.tone } : {}),
      upstream: {
        kind: 'remote',
        baseUrl: entry.baseUrl.replace(/\/+$/, ''),
        clientId: entry.clientId,
        apiKey: key.value ?? '',
        ...(statusKey.value ? { statusApiKey: statusKey.value } : {}),
        keySettings: {
          environment: entry.name,
          full: settingOf(at, 'apiKey', entry.apiKeyEnv),
          ...(statusKey.value ? { status: settingOf(at, 'statusApiKey', entry.statusApiKeyEnv) } : {}),
          clientId: `${at}.clientId`,
          baseUrl: `${at}.baseUrl`,
        },
      },
      ...(entry.dashboardUrl ? { dashboardUrl: entry.dashboardUrl } : {}),
      ...(entry.summaryFields ? { summaryFields: entry.summaryFields } : {}),
      ...(entry.replyTemplates ? { replyTemplates: mergeReplyTemplates(entry.replyTemplates) } : {}),
      ...(entry.supportFields ? { supportFields: entry.supportFields } : {}),
      ...(entry.archiveOnExtract ? { archiveOnExtract: entry.archiveOnExtract } : {}),
      ...(entry.queueIndexMax === undefined ? {} : { queueIndexMax: entry.queueIndexMax }),
      ...(entry.queueSlaHours === undefined ? {} : { queueSlaHours: entry.queueSlaHours }),
      ...(webhook.value ? { webhookSecret: webhook.value } : {}),
    };
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, environments };
}
