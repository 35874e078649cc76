import { isCidr } from '../http/cidr.ts';
import { isLoopbackHost } from '../http/loopback.ts';
import type { EnvVars } from './config-schema.ts';
import type { SignInEntry } from './file-schema.ts';
import { type OidcConfig, oidcOf } from './oidc-config.ts';
import type { Environment } from './environment-variables.ts';

/** How users sign in, as the server uses it. */
export type AuthConfig =
  | { mode: 'local'; allowUnauthenticated: boolean }
  | { mode: 'users'; usersFile: string; sessionMaxAgeMinutes: number; sessionIdleMinutes: number }
  | { mode: 'proxy'; userHeader: string; roleHeader: string; trusted: string[] }
  | { mode: 'oidc'; oidc: OidcConfig; sessionMaxAgeMinutes: number; sessionIdleMinutes: number };

const SESSION_DEFAULTS = { sessionMaxAgeMinutes: 8 * 60, sessionIdleMinutes: 60 };

/** CONFIG_FILE's `signIn` as the server uses it (none: local mode), or the problem, by its JSON path. */
export function authOf(signIn: SignInEntry | undefined, env: Environment): AuthConfig | { problem: string } {
  if (!signIn) return { mode: 'local', allowUnauthenticated: false };
  switch (signIn.mode) {
    case 'local':
      return { mode: 'local', allowUnauthenticated: signIn.allowUnauthenticated ?? false };
    case 'users':
      return { mode: 'users', usersFile: signIn.usersFile, ...sessionsOf(signIn) };
    case 'proxy': {
      const bad = signIn.trustedProxies.findIndex((entry) => !isCidr(entry));
      if (bad >= 0) return { problem: `signIn.trustedProxies[${bad}]: must be an address or a CIDR, such as 127.0.0.1/32 or 10.0.0.0/8` };
      return {
        mode: 'proxy',
        userHeader: signIn.userHeader.toLowerCase(),
        roleHeader: signIn.roleHeader.toLowerCase(),
        trusted: signIn.trustedProxies,
      };
    }
    case 'oidc': {
      const oidc = oidcOf(signIn, env);
      return 'problem' in oidc ? oidc : { mode: 'oidc', oidc, ...sessionsOf(signIn) };
    }
  }
}

function sessionsOf(entry: { sessionMaxAgeMinutes?: number | undefined; sessionIdleMinutes?: number | undefined }) {
  return {
    sessionMaxAgeMinutes: entry.sessionMaxAgeMinutes ?? SESSION_DEFAULTS.sessionMaxAgeMinutes,
    sessionIdleMinutes: entry.sessionIdleMinutes ?? SESSION_DEFAULTS.sessionIdleMinutes,
  };
}

const SIGN_IN_HINT =
  '  Set signIn in CONFIG_FILE (mode "users", "proxy" or "oidc"), or { "mode": "local", "allowUnauthenticated": true } if something else guards access.';

/** Local mode answers this machine only: a HOST or proxies that reach further need sign-in, or saying so. */
export function checkLocalMode(auth: AuthConfig, vars: Pick<EnvVars, 'HOST' | 'TRUSTED_PROXIES'>): string | undefined {
  if (auth.mode !== 'local' || auth.allowUnauthenticated) return undefined;
  const open = !isLoopbackHost(vars.HOST) && `HOST=${vars.HOST} would let anyone who reaches this machine read candidates`;
  const proxied = vars.TRUSTED_PROXIES && 'TRUSTED_PROXIES is set, but local mode answers this machine only';
  return open || proxied ? `${open || proxied}, and no sign-in is configured.\n${SIGN_IN_HINT}` : undefined;
}
