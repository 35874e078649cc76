import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { APP_REQUEST_HEADER, type SampleCandidate } from '../../src/kyc/contract/api.ts';
import type { ApiEnvironment } from '../../src/server/lookup/served-environment.ts';
import type { ClosableAuditLog } from '../../src/server/audit/audit.ts';
import { createApiHandler, type ApiRuntime } from '../../src/server/composition/api-handler.ts';
import type { UpstreamTarget } from '../../src/server/upstream/upstream-client.ts';
import { createAppServer } from '../../src/server/composition/app-server.ts';
import { createHealthRoutes, type ReadinessCheck } from '../../src/server/ops/health.ts';
import { createLogger, type RequestRecord } from '../../src/server/log/log.ts';
import { errorAnswerProblem } from './error-answer.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { type SettingsOverrides, testSettings } from './settings.ts';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The connection was cut before the body was complete. */
  cut: boolean;
}

/** What the app sends with every API call; the server answers nothing else. */
export const APP_HEADERS: Record<string, string> = { [APP_REQUEST_HEADER.name]: APP_REQUEST_HEADER.value };

/**
 * A request with the path sent exactly as given (no URL normalisation), like a hand-crafted request; GET
 * unless told. It carries the app's header unless a header given as `undefined` takes it away.
 */
export function rawRequest(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string | string[] | number | undefined>; body?: string; localAddress?: string } = {},
): Promise<RawResponse> {
  const headers = Object.fromEntries(
    Object.entries({ ...APP_HEADERS, ...options.headers }).filter(
      (entry): entry is [string, string | string[] | number] => entry[1] !== undefined,
    ),
  );
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers, agent: false, localAddress: options.localAddress },
      (res) => {
        const chunks: Buffer[] = [];
        let cut = false;
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('aborted', () => (cut = true));
        res.on('error', () => (cut = true));
        res.on('close', () =>
          settleChecked(
            `${options.method ?? 'GET'} ${path}`,
            { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), cut: cut || !res.complete },
            resolve,
            reject,
          ),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Every error answer a server test reads is checked against the contract's table (error-answer.ts). */
function settleChecked(what: string, answer: RawResponse, resolve: (answer: RawResponse) => void, reject: (error: Error) => void): void {
  const problem = errorAnswerProblem(answer.status, answer.headers, answer.body);
  if (problem) reject(new Error(`${what}: ${problem}`));
  else resolve(answer);
}

/** A sign-in as the sign-in page sends it: a JSON POST to /api/session (headers may override the content type). */
export function signIn(port: number, username: string, password: string, headers: http.OutgoingHttpHeaders = {}): Promise<RawResponse> {
  return rawRequest(port, '/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ username, password }),
  });
}

/** The `name=value` of the session cookie an answer set, ready to send back. */
export function cookieOf(res: RawResponse): string {
  return String(res.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
}

export async function listen(server: http.Server, wanted = 0): Promise<{ port: number; close: () => Promise<void> }> {
  // A port taken meanwhile fails the caller's setup at once (EADDRINUSE), not as a hook that times out.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(wanted, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface TestApp {
  port: number;
  /** The server's log output, as written: JSON lines from the real logger. */
  logs: string[];
  /** The request lines among them, parsed. */
  requests(): RequestRecord[];
  get(path: string, headers?: Record<string, string | string[] | number | undefined>): Promise<RawResponse>;
  /** Reads every environment's queue from its service once now, and waits for the lookups it started (the queue index's crawler). */
  crawl(): Promise<void>;
  close(): Promise<void>;
}

/** One environment for a test: a remote service (or a sandbox, with its samples), named "default". */
export function testEnvironment(
  target: UpstreamTarget,
  extras: { name?: string; label?: string; samples?: SampleCandidate[]; dashboardUrl?: string } = {},
): ApiEnvironment {
  const name = extras.name ?? 'default';
  return {
    target,
    info: {
      name,
      label: extras.label ?? name,
      clientId: target.clientId,
      upstream: extras.samples ? 'sandbox' : 'remote',
      ...(extras.dashboardUrl ? { dashboardUrl: extras.dashboardUrl } : {}),
    },
    ...(extras.samples ? { samples: extras.samples } : {}),
  };
}

export type TestAppOptions = Omit<ApiRuntime, 'logger' | 'environments' | 'audit'> &
  Partial<Pick<ApiRuntime, 'audit'>> & {
    /** The settings this test changes (testSettings, settings.ts); the others are the configuration's defaults. */
    settings?: SettingsOverrides;
    /** One upstream (a test environment named "default"), or a list of environments. */
    upstream?: UpstreamTarget;
    samples?: SampleCandidate[];
    environments?: ApiEnvironment[];
    /** What /readyz asks (default: nothing, always ready). */
    checks?: ReadinessCheck[];
  };

/** The production app server (API, health, static files) on a free port, logging to a capture. */
export async function startTestApp(options: TestAppOptions, staticDir = 'public'): Promise<TestApp> {
  const logs: string[] = [];
  const logger = createLogger({ write: (text: string) => void logs.push(text.trimEnd()) });
  const { upstream, samples, environments, checks = [], settings: overrides, ...rest } = options;
  if (!upstream && !environments) throw new Error('startTestApp needs an upstream or environments');
  // As production derives it from the sign-in configured: local mode (no access given) refuses proxied requests.
  const settings = testSettings({ refuseProxied: rest.access === undefined, ...overrides });
  const api = createApiHandler(settings, {
    // The queue's crawler reads the service only when a test says so (`crawl()`, or queueCrawl given):
    // a test of something else sees no request it did not make, and no audit line it did not cause.
    queueCrawl: { start: false },
    // A delivery's check that failed for a passing reason is tried again at once, not after seconds.
    webhookRetryDelaysMs: [0, 0, 0],
    ...rest,
    // A test that does not read the audit log gets one in memory: the API takes none without a log.
    audit: rest.audit ?? memoryAuditLog(),
    environments: environments ?? [testEnvironment(upstream!, { samples })],
    logger,
  });
  const server = createAppServer({
    api,
    staticDir,
    health: createHealthRoutes(checks),
    logger,
    ...(settings.trustedProxies.length > 0 ? { trustedProxies: settings.trustedProxies } : {}),
  });
  const { port, close } = await listen(server);
  const requests = () => logs.map((line) => JSON.parse(line) as RequestRecord & { msg: string }).filter((line) => line.msg === 'request');
  // A test's audit log is closed with its app (its file handle is not left to the garbage collector).
  const closeAll = async () => {
    await api.close();
    await close();
    if (rest.audit && 'close' in rest.audit) await (rest.audit as ClosableAuditLog).close();
  };
  return { port, logs, requests, get: (path, headers) => rawRequest(port, path, { headers }), crawl: api.crawlNow, close: closeAll };
}

/** A request with a body (POST by default), its answer read whole. */
export function requestWithBody(
  port: number,
  path: string,
  body: string,
  options: { method?: string; headers?: http.OutgoingHttpHeaders } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'POST',
        headers: { ...APP_HEADERS, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...options.headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', () => {});
        res.on('close', () =>
          settleChecked(
            `${options.method ?? 'POST'} ${path}`,
            { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), cut: !res.complete },
            resolve,
            reject,
          ),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The lines of an NDJSON body, parsed. */
export function ndjson(body: string): Array<Record<string, unknown>> {
  return body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
