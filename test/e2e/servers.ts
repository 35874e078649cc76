import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chainLines } from '../../src/server/audit/audit-chain.ts';
import { auditLineBody } from '../../src/server/audit/audit-line.ts';
import { REMOVED_VARIABLES } from '../../src/server/config/removed-variables.ts';
import { SANDBOX_ARCHIVE_KEY, SANDBOX_CLIENT_ID, SANDBOX_KEYS } from '../../src/server/sandbox/sandbox.ts';
import { SCALE_CLIENT_ID, SCALE_WEBHOOK_SECRET } from './scale-upstream.ts';

/**
 * The servers of the browser suite: the built production server (`npm run build` first) in each
 * configuration a spec needs. A spec names its servers with `needsServers(...)`; each starts once per run,
 * by whichever worker needs it first, and the others wait for it, so that one spec file run alone starts
 * only its own. E2E_PORT_BASE moves every port, so that two checkouts can run the suite at once.
 */
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
  /** The app on its embedded sandbox for live updates: its candidates' statuses change, so it is apart from `sandbox`. */
  live: PORT_BASE + 13,
  /**
   * Two environments of Blockpass's own service (kyc.blockpass.org), for their dashboard links: the
   * specs that use it never let a lookup leave the browser, so nothing reaches the service.
   */
  blockpass: PORT_BASE + 14,
  /** The app behind the gateway with an audit file of its own, seeded: the audit page (issue 34). */
  audit: PORT_BASE + 15,
  /** A service holding 10 000 waiting candidates, which test/e2e/queue-scale.spec.ts starts in the test process, and the app on it. */
  scaleUpstream: PORT_BASE + 16,
  scale: PORT_BASE + 17,
  /** Behind the gateway with two environments, both on a closed port: the header with its environment switcher. */
  gatewayEnvironments: PORT_BASE + 18,
} as const;

/** Test-only accounts of test/fixtures/e2e-users.json (never use these anywhere else). */
export const E2E_USERS = {
  compliance: { username: 'ana', password: 'ana-compliance-e2e' },
  support: { username: 'sam', password: 'sam-support-e2e' },
} as const;

/** The CONFIG_FILE of the app serving two sandboxes: written at the start of a run, since its ports move. */
const E2E_ENVIRONMENTS_CONFIG_FILE = 'test-results/e2e-environments-config.json';
/**
 * The app with the archiving key keeps its audit log here, and beside it what it found about its key
 * (archiving-key-*.json): cleared at the start of a run, so that a finding of the last run does not
 * refuse this one's first lookup.
 */
export const E2E_ARCHIVING_DIR = 'test-results/e2e-archiving';
/** The audit page's server writes its audit log here, seeded at the start of a run with other reviewers' lines. */
export const E2E_AUDIT_DIR = 'test-results/e2e-audit-page';
/** Each started server's process id and output, and the lock that says a worker is starting it. */
const SERVERS_DIR = 'test-results/e2e-servers';
/** Nothing listens here: the server pointed at it finds its upstream down. */
const CLOSED_PORT = 9;

/** Each app's CONFIG_FILE of test/fixtures/e2e-config/ (each turns the rate limit off). */
const configFile = (name: string) => `test/fixtures/e2e-config/${name}.json`;
/** The OpenID Connect app's CONFIG_FILE: written at the start of a run, its addresses move with E2E_PORT_BASE. */
const E2E_OIDC_CONFIG_FILE = 'test-results/e2e-oidc-config.json';

// Empty values count as unset, and they win over a developer's .env: the suite always runs on the sandbox
// (the variables of before CONFIG_FILE included, which would stop the server).
const SANDBOX_ENV = {
  ...Object.fromEntries(Object.keys(REMOVED_VARIABLES).map((name) => [name, ''])),
  KYC_BASE_URL: '',
  KYC_CLIENT_ID: '',
  KYC_API_KEY: '',
  KYC_API_KEY_STATUS: '',
  REDIS_URL: '',
  CONFIG_FILE: configFile('sandbox'),
  HOST: '127.0.0.1',
};

/** A server by its port's name: each has a port of its own (the OpenID provider is started by its spec). */
export type ServerName = Exclude<keyof typeof E2E_PORTS, 'oidcProvider' | 'scaleUpstream'>;

/**
 * Each server's audit file, unless it names its own: one writer per file, as in production (each instance
 * chains its own lines), and a run's lines only (prepareRun empties the folder).
 */
const E2E_AUDIT_FILES_DIR = 'test-results/e2e-audit';
const auditFileOf = (name: ServerName) => path.join(E2E_AUDIT_FILES_DIR, `${name}.jsonl`);

/** The audit lines these servers have written in this run, parsed, file after file. */
export function auditLinesOf(...names: ServerName[]): Array<Record<string, unknown>> {
  return names.flatMap((name) => {
    const file = auditFileOf(name);
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  });
}

interface ServerSpec {
  /** `app`: dist/server/main.js on PORT; `sandbox`: the sandbox alone (dist/server/sandbox.js --port). */
  entry: 'app' | 'sandbox';
  /** The standalone sandbox's flags beside its port (`--test-controls`). */
  flags?: string[];
  port: number;
  env?: Record<string, string>;
  /** Servers this one talks to, started before it. */
  needs?: ServerName[];
  /** How long it may take to listen (large images take seconds to draw). */
  timeoutMs?: number;
}

const remote = (port: number, apiKey: string) => ({
  KYC_BASE_URL: `http://127.0.0.1:${port}`,
  KYC_CLIENT_ID: SANDBOX_CLIENT_ID,
  KYC_API_KEY: apiKey,
});

const SERVERS: Record<ServerName, ServerSpec> = {
  // The app on its embedded sandbox, as `npm start` runs it on a fresh machine.
  sandbox: { entry: 'app', port: E2E_PORTS.sandbox },
  // The sandbox alone, as `npm run sandbox` runs it (its test reset brings the deleted demonstration back)...
  upstream: { entry: 'sandbox', port: E2E_PORTS.upstream, flags: ['--test-controls'] },
  // ...and the app pointed at it as a remote service, with the status-only key.
  statusOnly: { entry: 'app', port: E2E_PORTS.statusOnly, env: remote(E2E_PORTS.upstream, SANDBOX_KEYS.status), needs: ['upstream'] },
  // The app with its upstream down.
  upstreamDown: { entry: 'app', port: E2E_PORTS.upstreamDown, env: { ...remote(CLOSED_PORT, 'any-key') } },
  // Built-in users, signed in through the sign-in page.
  users: { entry: 'app', port: E2E_PORTS.users, env: { CONFIG_FILE: configFile('users') } },
  // Behind an identity-aware proxy: the tests send its headers themselves, from a trusted address.
  gateway: { entry: 'app', port: E2E_PORTS.gateway, env: { CONFIG_FILE: configFile('gateway') } },
  // The sandbox with its hostile candidate.
  hostile: { entry: 'app', port: E2E_PORTS.hostile, env: { CONFIG_FILE: configFile('hostile') } },
  // Large images: enough sandbox candidates for the applicants queue to page.
  largeQueue: { entry: 'app', port: E2E_PORTS.largeQueue, env: { CONFIG_FILE: configFile('large-images') }, timeoutMs: 90_000 },
  // The standalone sandbox again, with its key that archives identity data after each full lookup.
  archivingKey: {
    entry: 'app',
    port: E2E_PORTS.archivingKey,
    env: { ...remote(E2E_PORTS.upstream, SANDBOX_ARCHIVE_KEY), AUDIT_LOG: `${E2E_ARCHIVING_DIR}/audit.jsonl` },
    needs: ['upstream'],
  },
  // OpenID Connect against the test provider (test/server/oidc-provider.ts), which the spec starts
  // itself: the server fetches the provider's metadata at the first sign-in, not only at start.
  oidc: {
    entry: 'app',
    port: E2E_PORTS.oidc,
    env: { CONFIG_FILE: E2E_OIDC_CONFIG_FILE, E2E_OIDC_CLIENT_SECRET: 'oidc-test-client-secret-that-is-long-enough' },
  },
  // Two sandboxes as two environments of one app: the first can change a status (--test-controls).
  sandboxA: { entry: 'sandbox', port: E2E_PORTS.sandboxA, flags: ['--test-controls'] },
  sandboxB: { entry: 'sandbox', port: E2E_PORTS.sandboxB },
  // The app on its embedded sandbox again, wired to its own webhook receiver as `npm start` is: the simulated
  // decisions of test/e2e/live.spec.ts change statuses that other specs read from `sandbox`.
  live: { entry: 'app', port: E2E_PORTS.live },
  blockpass: {
    entry: 'app',
    port: E2E_PORTS.blockpass,
    env: { CONFIG_FILE: configFile('blockpass'), E2E_BLOCKPASS_KEY: 'e2e-not-a-key-never-sent-anywhere' },
  },
  // Behind the gateway with two environments (nothing listens at either): the header's switcher, for its row's room.
  gatewayEnvironments: {
    entry: 'app',
    port: E2E_PORTS.gatewayEnvironments,
    env: { CONFIG_FILE: configFile('gateway-environments'), E2E_GATEWAY_ENVIRONMENTS_KEY: 'e2e-not-a-key-never-sent-anywhere' },
  },
  // Behind the gateway (a lead, a compliance user and a support user by their headers), with its own audit file.
  audit: {
    entry: 'app',
    port: E2E_PORTS.audit,
    env: { CONFIG_FILE: configFile('gateway'), AUDIT_LOG: `${E2E_AUDIT_DIR}/audit.jsonl`, AUDIT_INSTANCE: 'app1' },
  },
  // The queue at scale (issue 32): the app on the spec's own service of 10 000 waiting candidates, its crawler
  // at 100 requests a second, taking the service's signed webhook deliveries.
  scale: {
    entry: 'app',
    port: E2E_PORTS.scale,
    env: {
      KYC_BASE_URL: `http://127.0.0.1:${E2E_PORTS.scaleUpstream}`,
      KYC_CLIENT_ID: SCALE_CLIENT_ID,
      KYC_API_KEY: 'e2e-scale-key-not-a-real-one',
      // The list read at status level: without a status-level key the crawler reads it only once a full
      // lookup has shown the key keeps identity data (crawler-list.ts), which this spec is not about.
      KYC_API_KEY_STATUS: 'e2e-scale-status-key-not-a-real-one',
      KYC_WEBHOOK_SECRET: SCALE_WEBHOOK_SECRET,
      CONFIG_FILE: configFile('scale'),
    },
  },
  environments: {
    entry: 'app',
    port: E2E_PORTS.environments,
    env: {
      CONFIG_FILE: E2E_ENVIRONMENTS_CONFIG_FILE,
      E2E_SANDBOX_FULL_KEY: SANDBOX_KEYS.full,
      E2E_SANDBOX_STATUS_KEY: SANDBOX_KEYS.status,
    },
    needs: ['sandboxA', 'sandboxB'],
  },
};

/** The files a run starts from (globalSetup): no server of an earlier run left, the configuration files whose ports move, an empty archiving folder. */
export function prepareRun(): void {
  stopServers();
  // The last run's server logs and audit files: each server of this run writes its own.
  rmSync(SERVERS_DIR, { recursive: true, force: true });
  rmSync(E2E_AUDIT_FILES_DIR, { recursive: true, force: true });
  rmSync(E2E_ARCHIVING_DIR, { recursive: true, force: true });
  mkdirSync(E2E_ARCHIVING_DIR, { recursive: true });
  seedAuditTrail();
  mkdirSync(SERVERS_DIR, { recursive: true });
  writeFileSync(
    E2E_ENVIRONMENTS_CONFIG_FILE,
    JSON.stringify({
      environments: [
        {
          name: 'a',
          label: 'Sandbox A',
          baseUrl: `http://127.0.0.1:${E2E_PORTS.sandboxA}`,
          clientId: SANDBOX_CLIENT_ID,
          apiKeyEnv: 'E2E_SANDBOX_FULL_KEY',
          statusApiKeyEnv: 'E2E_SANDBOX_STATUS_KEY',
          dashboardUrl: 'https://dashboard.example.com/kyc/{recordId}',
        },
        {
          name: 'b',
          label: 'Sandbox B',
          baseUrl: `http://127.0.0.1:${E2E_PORTS.sandboxB}`,
          clientId: SANDBOX_CLIENT_ID,
          apiKeyEnv: 'E2E_SANDBOX_FULL_KEY',
        },
      ],
      limits: { lookupsPerMinute: 0 },
    }),
  );
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
}

/** A candidate of the sandbox others looked at before the run: the audit page's spec finds their lines. */
export const E2E_AUDITED_REFID = 'cust_000482';

/**
 * The audit page's file, chained as the server writes it: other reviewers' lookups and hand-offs of the
 * last days (one of them today), a support user's, and a user name a spreadsheet would take for a formula.
 */
function seedAuditTrail(): void {
  rmSync(E2E_AUDIT_DIR, { recursive: true, force: true });
  mkdirSync(E2E_AUDIT_DIR, { recursive: true });
  // Today's lines stay on today's date, even a minute after midnight: the spec asks who looked today.
  const today = new Date().setHours(0, 0, 1, 0);
  const hoursAgo = (hours: number) =>
    new Date(hours < 1 ? Math.max(today, Date.now() - hours * 3_600_000) : Date.now() - hours * 3_600_000).toISOString();
  const lookup = (hours: number, user: string, role: string, id: string, level: string) => ({
    time: hoursAgo(hours),
    requestId: `seed-${hours}`,
    user,
    role,
    client: '10.20.0.7',
    env: 'sandbox',
    kind: 'refId',
    id,
    status: 200,
    code: null,
    upstreamStatus: 200,
    level,
    durationMs: 180,
  });
  const handOff = (hours: number, user: string, what: string, id: string) => ({
    time: hoursAgo(hours),
    user,
    role: 'compliance',
    client: '10.20.0.7',
    env: 'sandbox',
    kind: 'export',
    what,
    lookupKind: 'refId',
    id,
  });
  const lines = [
    lookup(75, 'cleo@example.org', 'compliance', 'user-7781', 'full'),
    handOff(74.9, 'cleo@example.org', 'print', 'user-7781'),
    lookup(50, 'sam@example.org', 'support', E2E_AUDITED_REFID, 'status'),
    lookup(27, '=HYPERLINK("x")', 'compliance', 'crm-55102', 'full'),
    lookup(0.05, 'ben@example.org', 'compliance', E2E_AUDITED_REFID, 'full'),
    handOff(0.04, 'ben@example.org', 'summary', E2E_AUDITED_REFID),
  ];
  const chained = chainLines(lines.map(auditLineBody), undefined).lines;
  writeFileSync(`${E2E_AUDIT_DIR}/audit.jsonl`, chained.map((line) => `${line}\n`).join(''), { mode: 0o600 });
}

/**
 * Stops every server this run started (globalTeardown), each with its process group. Their logs stay in
 * SERVERS_DIR until the next run starts each server again, for a failed test's server side (.ci/run
 * prints them when the suite fails); the sandbox's made-up candidates are all they can hold.
 */
export function stopServers(): void {
  if (!existsSync(SERVERS_DIR)) return;
  for (const name of readdirSync(SERVERS_DIR).filter((file) => file.endsWith('.pid'))) {
    const pidFile = path.join(SERVERS_DIR, name);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    if (pid > 0) signal(-pid, 'SIGKILL');
    rmSync(pidFile, { force: true });
  }
}

function signal(pid: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

/** Starts the servers named, and those they need, unless a worker of this run has started them already. */
export async function startServers(...names: ServerName[]): Promise<void> {
  for (const name of names) await startServer(name);
}

async function startServer(name: ServerName): Promise<void> {
  const server = SERVERS[name];
  for (const need of server.needs ?? []) await startServer(need);
  const pidFile = path.join(SERVERS_DIR, `${name}.pid`);
  const logFile = path.join(SERVERS_DIR, `${name}.log`);
  let child: ChildProcess | undefined;
  try {
    // The lock: the first worker to create the file starts the server; the others only wait for it.
    writeFileSync(pidFile, '', { flag: 'wx' });
    const log = openSync(logFile, 'w');
    const port = String(server.port);
    const args = server.entry === 'app' ? ['dist/server/main.js'] : ['dist/server/sandbox.js', '--port', port, ...(server.flags ?? [])];
    child = spawn(process.execPath, args, {
      env: {
        PATH: process.env.PATH,
        ...SANDBOX_ENV,
        AUDIT_LOG: auditFileOf(name),
        ...server.env,
        ...(server.entry === 'app' ? { PORT: port } : {}),
      },
      // Its own process group, outliving the worker that started it: the run's teardown stops it.
      detached: true,
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    writeFileSync(pidFile, String(child.pid));
    child.unref();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  await listening(name, server, pidFile, logFile);
}

/** Resolves once the server answers HTTP; rejects, with its output, if it exits or takes too long. */
async function listening(name: ServerName, server: ServerSpec, pidFile: string, logFile: string): Promise<void> {
  const deadline = Date.now() + (server.timeoutMs ?? 30_000);
  const output = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  for (;;) {
    const answered = await fetch(`http://127.0.0.1:${server.port}/`).then(
      () => true,
      () => false,
    );
    if (answered) return;
    const pid = Number(readFileSync(pidFile, 'utf8'));
    if (pid > 0 && !signal(pid, 0)) throw new Error(`The e2e server ${name} exited before it listened:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`The e2e server ${name} did not listen on ${server.port} in time:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
