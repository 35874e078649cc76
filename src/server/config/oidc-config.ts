import { z } from 'zod';
import { commaList, optional } from './config-fields.ts';
import { isLoopbackHost } from '../http/loopback.ts';

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
  scopes: string;
  /** Shown on the sign-in button: "Sign in with <providerName>". */
  providerName: string;
}

/** Where the provider sends the browser back: OIDC_REDIRECT_URL must end in this path. */
export const OIDC_CALLBACK_PATH = '/api/oidc/callback';

const webUrl = z.url({ protocol: /^https?$/, error: 'must be an https:// URL' });
const list = z
  .string()
  .transform(commaList)
  .refine((values) => values.length > 0, 'must list at least one value, separated by commas');

/** The OpenID Connect variables, part of the environment's schema. */
export const oidcEnvSchema = {
  OIDC_ISSUER: optional(webUrl),
  OIDC_CLIENT_ID: optional(z.string().regex(/^[\x21-\x7e]+$/, 'must be the client id as issued: no spaces or line breaks')),
  OIDC_CLIENT_SECRET: optional(z.string().regex(/^[\x21-\x7e]+$/, 'must be the secret as issued: no spaces or line breaks')),
  OIDC_REDIRECT_URL: optional(webUrl),
  OIDC_ROLE_CLAIM: optional(z.string().regex(/^[\x21-\x7e]{1,200}$/, 'must be a claim name, such as groups')).default('groups'),
  OIDC_COMPLIANCE_VALUES: optional(list),
  OIDC_SUPPORT_VALUES: optional(list),
  OIDC_SCOPES: optional(
    z.string().regex(/^(?=.*\bopenid\b)[\x21-\x7e ]+$/, 'must be scopes separated by spaces, including openid'),
  ).default('openid email profile'),
  OIDC_PROVIDER_NAME: optional(z.string().max(60, 'must be at most 60 characters')),
};

type OidcVars = z.output<z.ZodObject<typeof oidcEnvSchema>>;

/** The variables that turn OpenID Connect on (the others have defaults). */
export const OIDC_VARIABLES = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_REDIRECT_URL'] as const;

/**
 * The OpenID Connect settings once one of OIDC_VARIABLES is set: all four must be, with a role mapping.
 * `problem` builds the error that names what is wrong.
 */
export function oidcOf(vars: OidcVars, problem: (text: string) => Error): OidcConfig {
  const set = OIDC_VARIABLES.filter((name) => vars[name] !== undefined);
  const missing = OIDC_VARIABLES.filter((name) => vars[name] === undefined);
  if (missing.length > 0)
    throw problem(`${set.join(' and ')} ${set.length > 1 ? 'are' : 'is'} set, so ${missing.join(' and ')} must be set too.`);
  if (!vars.OIDC_COMPLIANCE_VALUES && !vars.OIDC_SUPPORT_VALUES) {
    throw problem(
      `OpenID Connect is configured, so OIDC_COMPLIANCE_VALUES or OIDC_SUPPORT_VALUES must say which ${vars.OIDC_ROLE_CLAIM} values give a role.`,
    );
  }
  const issuer = new URL(vars.OIDC_ISSUER!);
  const redirect = new URL(vars.OIDC_REDIRECT_URL!);
  for (const [name, url] of [
    ['OIDC_ISSUER', issuer],
    ['OIDC_REDIRECT_URL', redirect],
  ] as const) {
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      throw problem(`${name} must use https:// (plain http:// only to this machine): sign-in tokens would cross the network unencrypted.`);
    }
    if (url.hash) throw problem(`${name} must not contain a fragment (#…).`);
  }
  if (redirect.pathname !== OIDC_CALLBACK_PATH || redirect.search) {
    throw problem(
      `OIDC_REDIRECT_URL must be this server's address followed by ${OIDC_CALLBACK_PATH}, such as https://lookup.example.org${OIDC_CALLBACK_PATH}.`,
    );
  }
  return {
    issuer: vars.OIDC_ISSUER!,
    clientId: vars.OIDC_CLIENT_ID!,
    clientSecret: vars.OIDC_CLIENT_SECRET!,
    redirectUrl: redirect.href,
    roleClaim: vars.OIDC_ROLE_CLAIM,
    complianceValues: vars.OIDC_COMPLIANCE_VALUES ?? [],
    supportValues: vars.OIDC_SUPPORT_VALUES ?? [],
    scopes: vars.OIDC_SCOPES.trim().split(/\s+/).join(' '),
    providerName: vars.OIDC_PROVIDER_NAME?.trim() || issuer.hostname,
  };
}
