import { OIDC_CALLBACK_API_PATH } from '../../kyc/contract/api.ts';
import { isLoopbackHost } from '../http/loopback.ts';
import type { Environment } from './environment-variables.ts';
import { resolveSecret } from './file-environments.ts';
import type { SignInEntry } from './file-schema.ts';

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** This server's callback as registered at the provider: `https://<host>/api/oidc/callback`. */
  redirectUrl: string;
  /** The claim holding the role (a string or a list), e.g. `groups`; a dotted path reaches a nested one. */
  roleClaim: string;
  complianceValues: string[];
  supportValues: string[];
  /** Values that make a user a lead: compliance, and the audit page (issue 34). */
  leadValues: string[];
  scopes: string;
  /** Shown on the sign-in button: "Sign in with <providerName>". */
  providerName: string;
}

type OidcEntry = Extract<SignInEntry, { mode: 'oidc' }>;

/**
 * CONFIG_FILE's `signIn` in mode "oidc" as the server uses it, its secret read; or the problem, named by
 * its JSON path.
 */
export function oidcOf(entry: OidcEntry, env: Environment): OidcConfig | { problem: string } {
  if (!entry.complianceValues && !entry.supportValues && !entry.leadValues) {
    const claim = entry.roleClaim ?? 'groups';
    return { problem: `signIn: complianceValues, supportValues or leadValues must say which ${claim} values give a role` };
  }
  const secret = resolveSecret({ env: entry.clientSecretEnv, file: entry.clientSecretFile }, 'signIn.clientSecret', env, true);
  if (secret.problem) return { problem: secret.problem.replace('the key', 'the client secret') };
  const issuer = new URL(entry.issuer);
  const redirect = new URL(entry.redirectUrl);
  for (const [name, url] of [
    ['signIn.issuer', issuer],
    ['signIn.redirectUrl', redirect],
  ] as const) {
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      return {
        problem: `${name}: must use https:// (plain http:// only to this machine): sign-in tokens would cross the network unencrypted`,
      };
    }
    if (url.hash) return { problem: `${name}: must not contain a fragment (#…)` };
  }
  // Where the provider sends the browser back: signIn.redirectUrl must end in this path.
  if (redirect.pathname !== OIDC_CALLBACK_API_PATH || redirect.search) {
    return {
      problem: `signIn.redirectUrl: must be this server's address followed by ${OIDC_CALLBACK_API_PATH}, such as https://lookup.example.org${OIDC_CALLBACK_API_PATH}`,
    };
  }
  const scopes = entry.scopes ?? ['openid', 'email', 'profile'];
  if (!scopes.includes('openid')) return { problem: 'signIn.scopes: must include "openid"' };
  return {
    issuer: entry.issuer,
    clientId: entry.clientId,
    clientSecret: secret.value!,
    redirectUrl: redirect.href,
    roleClaim: entry.roleClaim ?? 'groups',
    complianceValues: entry.complianceValues ?? [],
    supportValues: entry.supportValues ?? [],
    leadValues: entry.leadValues ?? [],
    scopes: scopes.join(' '),
    providerName: entry.providerName?.trim() || issuer.hostname,
  };
}
