import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './scripts/chromium.mjs';
import { REMOVED_VARIABLES } from './src/server/config/removed-variables.ts';
import { SANDBOX_ARCHIVE_KEY, SANDBOX_CLIENT_ID, SANDBOX_KEYS } from './src/server/sandbox/sandbox.ts';

/**
 * Real Chromium (Debian's, never a downloaded one) against the built production server.
 * `npm run test:e2e` builds first. CHROMIUM_PATH overrides the browser's location.
 */
/** E2E_PORT_BASE moves every port, so that two checkouts can run the suite at once. */
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 4300);
export const E2E_PORTS = {
  sandbox: PORT_BASE + 1,
  upstream: PORT_BASE + 2,
  statusOnly: PORT_BASE + 3,
  upstreamDown: PORT_BASE + 4,
  users: PORT_BASE + 5,
  gateway: PORT_BASE + 6,
  hostile: PORT_BASE + 7,
  largeQueue: PORT_BASE + 8,
  archivingKey: PORT_BASE + 9,
  /** OpenID Connect: the app, and the test provider that test/e2e/oidc.spec.ts starts in the test process. */
  oidc: PORT_BASE + 20,
  oidcProvider: PORT_BASE + 21,
  /** Two sandboxes (the first with its test switch) and the app serving both as environments. */
  sandboxA: PORT_BASE + 10,
  sandboxB: PORT_BASE + 11,
  environments: PORT_BASE + 12,
} as const;

/** The environments file of that app: written here, since its ports move with E2E_PORT_BASE. */
export const E2E_ENVIRONMENTS_FILE = 'test-results/e2e-environments.json';
mkdirSync('test-results', { recursive: true });
writeFileSync(
  E2E_ENVIRONMENTS_FILE,
  JSON.stringify([
    {
      name: 'a',
      label: 'Sandbox A',
      baseUrl: `http://127.0.0.1:${E2E_PORTS.sandboxA}`,
      clientId: SANDBOX_CLIENT_ID,
      apiKey: SANDBOX_KEYS.full,
      statusApiKey: SANDBOX_KEYS.status,
      dashboardUrl: 'https://dashboard.example.com/kyc/{recordId}',
    },
    {
      name: 'b',
      label: 'Sandbox B',
      baseUrl: `http://127.0.0.1:${E2E_PORTS.sandboxB}`,
      clientId: SANDBOX_CLIENT_ID,
      apiKey: SANDBOX_KEYS.full,
    },
  ]),
);
/** The OpenID Connect app's CONFIG_FILE: written here too, its addresses move with E2E_PORT_BASE. */
const E2E_OIDC_CONFIG_FILE = 'test-results/e2e-oidc-config.json';
writeFileSync(
  E2E_OIDC_CONFIG_FILE,
  JSON.stringify({
    signIn: {
      mode: 'oidc',
      issuer: `http://127.0.0.1:${E2E_PORTS.oidcProvider}`,
      clientId: 'candidate-lookup',
      clientSecretEnv: 'E2E_OIDC_CLIENT_SECRET',
      redirectUrl: `http://127.0.0.1:${E2E_PORTS.oidc}/api/oidc/callback`,
      complianceValues: ['kyc-compliance'],
      supportValues: ['kyc-support'],
      scopes: ['openid', 'email', 'profile', 'groups'],
      providerName: 'Test IdP',
    },
    limits: { lookupsPerMinute: 0 },
  }),
);
/**
 * The app with the archiving key keeps its audit log here, and beside it what it found about its key
 * (archiving-key-*.json): cleared at each start of the suite (not in its workers, which load this file
 * too), so that a finding of the last run does not refuse this one's first lookup.
 */
export const E2E_ARCHIVING_DIR = 'test-results/e2e-archiving';
if (process.env.TEST_WORKER_INDEX === undefined) rmSync(E2E_ARCHIVING_DIR, { recursive: true, force: true });
mkdirSync(E2E_ARCHIVING_DIR, { recursive: true });
/** Test-only accounts of test/fixtures/e2e-users.json (never use these anywhere else). */
export const E2E_USERS = {
  compliance: { username: 'ana', password: 'ana-compliance-e2e' },
  support: { username: 'sam', password: 'sam-support-e2e' },
} as const;
/** Nothing listens here: the server pointed at it finds its upstream down. */
const CLOSED_PORT = 9;

/** Each app's CONFIG_FILE of test/fixtures/e2e-config/ (each turns the rate limit off). */
const configFile = (name: string) => `test/fixtures/e2e-config/${name}.json`;
// Empty values count as unset, and they win over a developer's .env: the suite always runs on the sandbox
// (the variables of before CONFIG_FILE included, which would stop the server).
const SANDBOX_ENV = {
  ...Object.fromEntries(Object.keys(REMOVED_VARIABLES).map((name) => [name, ''])),
  KYC_BASE_URL: '',
  KYC_CLIENT_ID: '',
  KYC_API_KEY: '',
  KYC_API_KEY_STATUS: '',
  REDIS_URL: '',
  AUDIT_LOG: 'test-results/e2e-audit.jsonl',
  CONFIG_FILE: configFile('sandbox'),
  KYC_ENVIRONMENTS_FILE: '',
};

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORTS.sandbox}`,
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions,
    screenshot: 'only-on-failure',
    trace: 'off',
  },
  webServer: [
    {
      // The app on its embedded sandbox, as `npm start` runs it on a fresh machine.
      command: 'node dist/server/main.js',
      url: `http://127.0.0.1:${E2E_PORTS.sandbox}/api/meta`,
      env: { ...SANDBOX_ENV, HOST: '127.0.0.1', PORT: String(E2E_PORTS.sandbox) },
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      timeout: 30_000,
    },
    {
      // The sandbox alone, as `npm run sandbox` runs it (its test reset brings the deleted demonstration back)...
      command: `node dist/server/sandbox.js --port ${E2E_PORTS.upstream} --test-controls`,
      port: E2E_PORTS.upstream,
      env: { ...SANDBOX_ENV, HOST: '127.0.0.1' },
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      timeout: 30_000,
    },
    {
      // ...and the app pointed at it as a remote service, with the status-only key.
      command: 'node dist/server/main.js',
      url: `http://127.0.0.1:${E2E_PORTS.statusOnly}/api/meta`,
      env: {
        ...SANDBOX_ENV,
        KYC_BASE_URL: `http://127.0.0.1:${E2E_PORTS.upstream}`,
        KYC_CLIENT_ID: SANDBOX_CLIENT_ID,
        KYC_API_KEY: SANDBOX_KEYS.status,
        HOST: '127.0.0.1',
        PORT: String(E2E_PORTS.statusOnly),
      },
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      timeout: 30_000,
    },
    {
      // The app with its upstream down.
      command: 'node dist/server/main.js',
      url: `http://127.0.0.1:${E2E_PORTS.upstreamDown}/api/meta`,
      env: {
        ...SANDBOX_ENV,
        KYC_BASE_URL: `http://127.0.0.1:${CLOSED_PORT}`,
        KYC_CLIENT_ID: SANDBOX_CLIENT_ID,
        KYC_API_KEY: 'any-key',
        HOST: '127.0.0.1',
        PORT: String(E2E_PORTS.upstreamDown),
      },
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      timeout: 30_000,
    },
    {
      // Built-in users, signed in through the sign-in page.
      command: 'node dist/server/main.js',
      url: `http://127.0.0.1:${E2E_PORTS.users}/`,
      env: { ...SANDBOX_ENV, CONFIG_FILE: configFile('users'), HOST: '127.0.0.1', PORT: String(E2E_PORTS.users) },
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      timeout: 30_000,
    },
    {
      // Behind an identity-aware proxy: the tests send its headers themselves, from a trusted address.
      command: 'node dist/server/main.js',
      url: `http://127.0.0.1:${E2E_PORTS.gateway}/`,
      env: {
        ...SANDBOX_ENV,
        CONFIG_FILE: configFile('gateway'),
        HOST: '127.0.0.1',
        PORT: String(E2E_PORTS.gateway),
      },
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      timeout: 30_000,
    },
    {
      // The sandbox with its hostile candidate.
      command: 'node dist/server/main.js',
      url: `http://127.0.0.1:${E2E_PORTS.hostile}/api/meta`,
      env: { ...SANDBOX_ENV, CONFIG_FILE: configFile('hostile'), HOST: '127.0.0.1', PORT: String(E2E_PORTS.hostile) },
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      timeout: 30_000,
    },
    {
      // Large images: enough sandbox candidates for the applicants queue to page (pictures take seconds to draw).
      command: 'node dist/server/main.js',
      url: `http://127.0.0.1:${E2E_PORTS.largeQueue}/api/meta`,
      env: { ...SANDBOX_ENV, CONFIG_FILE: configFile('large-images'), HOST: '127.0.0.1', PORT: String(E2E_PORTS.largeQueue) },
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      timeout: 90_000,
    },
    {
      // The standalone sandbox again, with its key that archives identity data after each full lookup.
      command: 'node dist/server/main.js',
      url: `http://127.0.0.1:${E2E_PORTS.archivingKey}/api/meta`,
      env: {
        ...SANDBOX_ENV,
        KYC_BASE_URL: `http://127.0.0.1:${E2E_PORTS.upstream}`,
        KYC_CLIENT_ID: SANDBOX_CLIENT_ID,
        KYC_API_KEY: SANDBOX_ARCHIVE_KEY,
        AUDIT_LOG: `${E2E_ARCHIVING_DIR}/audit.jsonl`,
        HOST: '127.0.0.1',
        PORT: String(E2E_PORTS.archivingKey),
      },
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      timeout: 30_000,
    },
    {
      // OpenID Connect against the test provider (test/server/oidc-provider.ts), which the spec starts
      // itself: the server fetches the provider's metadata at the first sign-in, not only at start.
      command: 'node dist/server/main.js',
      url: `http://127.0.0.1:${E2E_PORTS.oidc}/`,
      env: {
        ...SANDBOX_ENV,
        CONFIG_FILE: E2E_OIDC_CONFIG_FILE,
        E2E_OIDC_CLIENT_SECRET: 'oidc-test-client-secret-that-is-long-enough',
        HOST: '127.0.0.1',
        PORT: String(E2E_PORTS.oidc),
      },
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      timeout: 30_000,
    },
    {
      // Two sandboxes as two environments of one app: the first can change a status (--test-controls).
      command: `node dist/server/sandbox.js --port ${E2E_PORTS.sandboxA} --test-controls`,
      port: E2E_PORTS.sandboxA,
      env: { ...SANDBOX_ENV, HOST: '127.0.0.1' },
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      timeout: 30_000,
    },
    {
      command: `node dist/server/sandbox.js --port ${E2E_PORTS.sandboxB}`,
      port: E2E_PORTS.sandboxB,
      env: { ...SANDBOX_ENV, HOST: '127.0.0.1' },
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      timeout: 30_000,
    },
    {
      command: 'node dist/server/main.js',
      url: `http://127.0.0.1:${E2E_PORTS.environments}/api/meta`,
      env: { ...SANDBOX_ENV, KYC_ENVIRONMENTS_FILE: E2E_ENVIRONMENTS_FILE, HOST: '127.0.0.1', PORT: String(E2E_PORTS.environments) },
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      timeout: 30_000,
    },
  ],
});
