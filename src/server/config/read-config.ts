import type { z } from 'zod';
import type { EnvVars } from './config-schema.ts';
import { isPlainHttpToRemote } from './config-fields.ts';
import { type EnvironmentConfig, SANDBOX_ENVIRONMENT } from './environments.ts';
import { environmentsFromFile, referencedVariables } from './file-environments.ts';
import { type CheckedConfigFile, configFileSchema } from './file-schema.ts';
import { parseJsonText } from './json-text.ts';
import type { Environment } from './environment-variables.ts';
import { type FileBound, readBoundedFile } from './secrets.ts';

/** `["environments", 1, "baseUrl"]` as `environments[1].baseUrl`: where in the file, as an editor shows it. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('');
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const message = /received undefined$/.test(issue.message) ? 'is missing' : issue.message.replace(/^Invalid (input|option): /, '');
  return issue.path.length === 0 ? `the file ${message}` : `${jsonPath(issue.path)}: ${message}`;
}

/** A problem at a JSON path of the file, said as every one is: `CONFIG_FILE /etc/x.json: signIn.issuer: …`. */
export function inConfigFile(file: string | undefined, problem: string): string {
  return `CONFIG_FILE${file ? ` ${file}` : ''}: ${problem}`;
}

/** CONFIG_FILE is a few kilobytes: more is the wrong file (or /dev/zero), refused rather than read without end. */
const CONFIG_FILE_BOUND: FileBound = { bytes: 1024 * 1024, tooLarge: 'larger than 1 MiB, far more than any configuration' };

export interface ReadConfig {
  file?: CheckedConfigFile;
  problems: string[];
  /** The variables the file names as holding secrets. */
  referenced: Set<string>;
}

/**
 * CONFIG_FILE read and checked (or `given`, its content, for tests): each problem begins with the file's
 * name and its JSON path, `CONFIG_FILE /etc/x.json: environments[1].baseUrl: …`. No file: an empty one.
 */
export function readConfigFile(file: string | undefined, given: unknown): ReadConfig {
  let json: unknown = given ?? {};
  if (given === undefined && file) {
    const text = readBoundedFile(file, 'CONFIG_FILE', CONFIG_FILE_BOUND);
    if (typeof text !== 'string') return { problems: [text.problem], referenced: new Set() };
    const parsed = parseJsonText(text);
    if (!parsed.ok) return { problems: [inConfigFile(file, `the file ${parsed.problem}`)], referenced: new Set() };
    json = parsed.value;
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    return { problems: parsed.error.issues.map((issue) => inConfigFile(file, describeIssue(issue))), referenced: new Set() };
  }
  const signIn = parsed.data.signIn;
  const secret = signIn?.mode === 'oidc' ? signIn.clientSecretEnv : undefined;
  return { file: parsed.data, problems: [], referenced: referencedVariables(parsed.data.environments ?? [], [secret]) };
}

const QUICK_START = ['KYC_BASE_URL', 'KYC_CLIENT_ID', 'KYC_API_KEY', 'KYC_API_KEY_STATUS'] as const;

/**
 * Where lookups go: CONFIG_FILE's environments, the quick start's one service named "default", or the
 * embedded sandbox. Both of the first two is a mistake.
 */
export function environmentsOf(vars: EnvVars, file: CheckedConfigFile, env: Environment): EnvironmentConfig[] | { problems: string[] } {
  const quick = QUICK_START.filter((name) => vars[name] !== undefined);
  if (file.environments && quick.length > 0) {
    const set = `${quick.join(', ')} ${quick.length > 1 ? 'are' : 'is'} set`;
    return {
      problems: [
        `CONFIG_FILE lists environments and ${set}: list every service in one place (CONFIG_FILE's environments), or use the KYC_* variables alone.`,
      ],
    };
  }
  if (vars.KYC_WEBHOOK_SECRET && file.environments) {
    return {
      problems: [
        "KYC_WEBHOOK_SECRET is for the quick start's service (or the sandbox): with several, give each environment of CONFIG_FILE its webhookSecretEnv or webhookSecretFile.",
      ],
    };
  }
  if (vars.SUPPORT_FIELDS && file.environments) {
    return {
      problems: [
        "SUPPORT_FIELDS is for the quick start's service (or the sandbox): with CONFIG_FILE's environments, give each its supportFields.",
      ],
    };
  }
  if (file.environments) {
    const result = environmentsFromFile(file.environments, env);
    return result.ok ? result.environments : { problems: result.problems.map((problem) => inConfigFile(vars.CONFIG_FILE, problem)) };
  }
  if (quick.length === 0) return [{ ...SANDBOX_ENVIRONMENT, ...webhookSecretOf(vars), ...supportFieldsOf(vars) }];
  return quickStart(vars);
}

function quickStart(vars: EnvVars): EnvironmentConfig[] | { problems: string[] } {
  if (!vars.KYC_BASE_URL) {
    const stray = QUICK_START.filter((name) => vars[name] !== undefined);
    return {
      problems: [
        `${stray.join(' and ')} ${stray.length > 1 ? 'are' : 'is'} set but KYC_BASE_URL is not.`,
        '  Set KYC_BASE_URL to use that service, or unset them to use the embedded sandbox.',
      ],
    };
  }
  const missing = (['KYC_CLIENT_ID', 'KYC_API_KEY'] as const).filter((name) => vars[name] === undefined);
  if (missing.length > 0) return { problems: [`KYC_BASE_URL is set, so ${missing.join(' and ')} must be set too.`] };
  if (isPlainHttpToRemote(vars.KYC_BASE_URL)) {
    return {
      problems: [
        'KYC_BASE_URL uses http:// to another machine: the API key would cross the network unencrypted.',
        '  Use https://, or describe the service in CONFIG_FILE\'s environments with "allowHttp": true if the connection is protected otherwise.',
      ],
    };
  }
  return [
    {
      name: 'default',
      // Without a label, the service's host name still tells production from staging.
      label: new URL(vars.KYC_BASE_URL).hostname,
      upstream: {
        kind: 'remote',
        baseUrl: vars.KYC_BASE_URL.replace(/\/+$/, ''),
        clientId: vars.KYC_CLIENT_ID!,
        apiKey: vars.KYC_API_KEY!,
        ...(vars.KYC_API_KEY_STATUS ? { statusApiKey: vars.KYC_API_KEY_STATUS } : {}),
        keySettings: {
          environment: 'default',
          full: 'KYC_API_KEY',
          ...(vars.KYC_API_KEY_STATUS ? { status: 'KYC_API_KEY_STATUS' } : {}),
          clientId: 'KYC_CLIENT_ID',
          baseUrl: 'KYC_BASE_URL',
        },
      },
      ...webhookSecretOf(vars),
      ...supportFieldsOf(vars),
    },
  ];
}

/** SUPPORT_FIELDS, over the sandbox's own. */
function supportFieldsOf(vars: EnvVars): Pick<EnvironmentConfig, 'supportFields'> {
  return vars.SUPPORT_FIELDS ? { supportFields: vars.SUPPORT_FIELDS } : {};
}

function webhookSecretOf(vars: EnvVars): Pick<EnvironmentConfig, 'webhookSecret'> {
  return vars.KYC_WEBHOOK_SECRET ? { webhookSecret: vars.KYC_WEBHOOK_SECRET } : {};
}
