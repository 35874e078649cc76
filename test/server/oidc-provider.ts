import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/**
 * A real OpenID Provider (oidc-provider) in the test process, with a password sign-in page of its own
 * and four people: a compliance officer, a support agent, a colleague the tool has no role for, and a
 * support agent whose address the provider has not verified.
 * Test-only accounts: never use these anywhere else.
 */
export const OIDC_ACCOUNTS = {
  ana: { password: 'ana-oidc-password', email: 'ana@example.org', name: 'Ana Compliance', groups: ['staff', 'kyc-compliance'] },
  sam: { password: 'sam-oidc-password', email: 'sam@example.org', name: 'Sam Support', groups: ['staff', 'kyc-support'] },
  nora: { password: 'nora-oidc-password', email: 'nora@example.org', name: 'Nora Elsewhere', groups: ['staff'] },
  /** Her address is not verified at the provider: it may be anyone's. */
  una: {
    password: 'una-oidc-password',
    email: 'una@example.org',
    emailVerified: false,
    name: 'Una Unverified',
    groups: ['staff', 'kyc-support'],
  },
} as const;
export type OidcAccountName = keyof typeof OIDC_ACCOUNTS;

export const OIDC_CLIENT = { clientId: 'candidate-lookup', clientSecret: 'oidc-test-client-secret-that-is-long-enough' } as const;

export interface TestProviderOptions {
  /** Where the provider may send people back to (the app's OIDC_REDIRECT_URL). */
  redirectUris: string[];
  /** 0 (default) for a free port. */
  port?: number;
  /** How long an authorization code lives (default 60 s). */
  codeTtlSeconds?: number;
  /** Put the profile and groups claims in the ID token, as Entra ID and Keycloak can (default: userinfo only). */
  claimsInIdToken?: boolean;
}

export interface TestProvider {
  issuer: string;
  close(): Promise<void>;
}

export async function startOidcProvider(options: TestProviderOptions): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const configuration: Configuration = {
    clients: [
      {
        client_id: OIDC_CLIENT.clientId,
        client_secret: OIDC_CLIENT.clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    conformIdTokenClaims: !options.claimsInIdToken,
    pkce: { required: () => true, methods: ['S256'] },
    ttl: {
      AuthorizationCode: options.codeTtlSeconds ?? 60,
      AccessToken: 300,
      IdToken: 300,
      Interaction: 600,
      Grant: 600,
      Session: 600,
    },
    jwks: {
      keys: [{ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig' }],
    },
    cookies: { keys: ['oidc-test-provider-cookie-key'] },
    features: { devInteractions: { enabled: false } },
    async renderError(ctx, out) {
      ctx.type = 'text/plain';
      ctx.body = JSON.stringify(out);
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const account = OIDC_ACCOUNTS[id as OidcAccountName];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          email: account.email,
          email_verified: 'emailVerified' in account ? account.emailVerified : true,
          name: account.name,
          groups: [...account.groups],
        }),
      };
    },
    // The app is a first-party client: no consent screen, every scope it asks for is granted.
    async loadExistingGrant(ctx) {
      const { Grant } = ctx.oidc.provider;
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return Grant.find(grantId);
      const grant = new Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId });
      grant.addOIDCScope('openid email profile groups');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)$/.exec(new URL(req.url ?? '/', issuer).pathname);
    if (!match) return callback(req, res);
    interaction(provider, req, res).catch((error: Error) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(error.message);
    });
  });
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The provider's own sign-in page: a username and a password, checked against OIDC_ACCOUNTS. */
async function interaction(provider: Provider, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (req.method === 'POST') {
    const form = new URLSearchParams(await readBody(req));
    const name = form.get('username') ?? '';
    const account = OIDC_ACCOUNTS[name as OidcAccountName];
    if (account && form.get('password') === account.password) {
      await provider.interactionFinished(req, res, { login: { accountId: name } }, { mergeWithLastSubmission: false });
      return;
    }
    return page(res, 401, 'Wrong username or password.');
  }
  if (details.prompt.name !== 'login') throw new Error(`unexpected prompt ${details.prompt.name}`);
  page(res, 200);
}

function page(res: http.ServerResponse, status: number, problem?: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><title>Test Identity Provider</title></head><body>
<h1>Test Identity Provider</h1>${problem ? `<p role="alert">${problem}</p>` : ''}
<form method="post"><label>Username <input name="username"></label>
<label>Password <input name="password" type="password"></label><button type="submit">Continue</button></form></body></html>`);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/**
 * A browser in miniature for server tests: follows redirects by hand with a cookie jar, signs in on the
 * provider's page, and returns the URL the provider sends the browser back to (the app's callback).
 */
export async function signInAtProvider(authorizationUrl: string, account: OidcAccountName, password?: string): Promise<URL> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
  };
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  let body: string | undefined;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: cookieHeader(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    });
    remember(response);
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      if (url.origin !== origin) return url;
      continue;
    }
    if (response.status === 200 && url.pathname.startsWith('/interaction/')) {
      body = new URLSearchParams({ username: account, password: password ?? OIDC_ACCOUNTS[account].password }).toString();
      continue;
    }
    throw new Error(`The provider answered ${response.status} at ${url.pathname}: ${(await response.text()).slice(0, 300)}`);
  }
  throw new Error('Too many redirects at the provider');
}
