import type { Environment } from './environment-variables.ts';

const inFile = (where: string) => `put it in CONFIG_FILE at ${where}`;
const SANDBOX_FLAG = (flag: string, key: string) => `${inFile(`sandbox.${key}`)} (or npm run sandbox -- --${flag})`;

/**
 * Variables the server read before CONFIG_FILE, and where each now goes. One still set is refused at
 * start: silently ignoring it would start a server without the sign-in or the limit its operator set.
 */
export const REMOVED_VARIABLES: Readonly<Record<string, string>> = {
  // The one format that kept keys in a file beside other settings, where a mistake's message could quote
  // them: not read at all, so its content never reaches a message.
  KYC_ENVIRONMENTS_FILE: inFile(
    'environments[], each entry of its list as it is but with "apiKey" replaced by "apiKeyEnv" (the variable that holds the key) or "apiKeyFile" (a file that holds the key alone), and "statusApiKey" by "statusApiKeyEnv" or "statusApiKeyFile" (docs/environments.md#from-kyc_environments_file)',
  ),
  KYC_ALLOW_HTTP: inFile('environments[].allowHttp'),
  KYC_ENVIRONMENT_LABEL: inFile('environments[].label'),
  KYC_DASHBOARD_URL: inFile('environments[].dashboardUrl'),
  KYC_KEY_ARCHIVES_ON_EXTRACT: inFile('environments[].archiveOnExtract'),
  SUMMARY_FIELDS: inFile('environments[].summaryFields (or display.summaryFields for every environment), as a JSON array'),
  REPLY_TEMPLATES_FILE: inFile("environments[].replyTemplates (or display.replyTemplates), the file's content itself"),
  PRIVACY_MASK_DEFAULT: inFile('display.privacyMask ("on" or "off")'),
  KYC_TIMEOUT_MS: inFile('limits.upstreamTimeoutMs'),
  KYC_MAX_RESPONSE_BYTES: inFile('limits.maxResponseBytes'),
  RATE_LIMIT_PER_MINUTE: inFile('limits.lookupsPerMinute'),
  RATE_LIMIT_BATCH_PER_MINUTE: inFile('limits.batchIdsPerMinute'),
  UPSTREAM_MAX_IN_FLIGHT_PER_USER: inFile('limits.upstreamInFlightPerUser'),
  ALLOW_UNAUTHENTICATED: inFile('signIn: { "mode": "local", "allowUnauthenticated": true }'),
  AUTH_USERS_FILE: inFile('signIn: { "mode": "users", "usersFile": "…" }'),
  SESSION_MAX_AGE_MINUTES: inFile('signIn.sessionMaxAgeMinutes'),
  SESSION_IDLE_MINUTES: inFile('signIn.sessionIdleMinutes'),
  AUTH_PROXY_USER_HEADER: inFile('signIn: { "mode": "proxy", "userHeader": "…" }'),
  AUTH_PROXY_ROLE_HEADER: inFile('signIn.roleHeader (mode "proxy")'),
  AUTH_PROXY_TRUSTED: inFile('signIn.trustedProxies (mode "proxy"), as a JSON array'),
  OIDC_ISSUER: inFile('signIn: { "mode": "oidc", "issuer": "…" }'),
  OIDC_CLIENT_ID: inFile('signIn.clientId (mode "oidc")'),
  OIDC_CLIENT_SECRET: inFile('signIn.clientSecretEnv (naming this variable) or signIn.clientSecretFile'),
  OIDC_REDIRECT_URL: inFile('signIn.redirectUrl (mode "oidc")'),
  OIDC_ROLE_CLAIM: inFile('signIn.roleClaim (mode "oidc")'),
  OIDC_COMPLIANCE_VALUES: inFile('signIn.complianceValues (mode "oidc"), as a JSON array'),
  OIDC_SUPPORT_VALUES: inFile('signIn.supportValues (mode "oidc"), as a JSON array'),
  OIDC_SCOPES: inFile('signIn.scopes (mode "oidc"), as a JSON array'),
  OIDC_PROVIDER_NAME: inFile('signIn.providerName (mode "oidc")'),
  SANDBOX_DATA: SANDBOX_FLAG('data <file>', 'data'),
  SANDBOX_LARGE_IMAGES: SANDBOX_FLAG('large-images', 'largeImages'),
  SANDBOX_HOSTILE: SANDBOX_FLAG('hostile', 'hostile'),
  SANDBOX_TEST_CONTROLS: SANDBOX_FLAG('test-controls', 'testControls'),
  SANDBOX_HOST: 'give npm run sandbox -- --host <address>',
  SANDBOX_PORT: 'give npm run sandbox -- --port <port>',
};

/**
 * The removed variables set (an empty value counts as unset), each with where it goes now. `referenced`
 * are the variables the file names as holding a secret (`"clientSecretEnv": "OIDC_CLIENT_SECRET"`):
 * those are read, not removed.
 */
export function removedVariablesIn(env: Environment, referenced: ReadonlySet<string> = new Set()): string[] {
  return Object.entries(REMOVED_VARIABLES)
    .filter(([name]) => env[name]?.trim() && !referenced.has(name))
    .map(([name, place]) => `${name} is no longer read: ${place}.`);
}
