import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { statusLevelOf, type CandidateRecord, type UpstreamError } from '../../kyc/contract/schema.ts';
import { isLookupKind, type LookupKind } from '../../kyc/contract/lookup.ts';
import type { SandboxCandidate } from './candidates.ts';
import { dateFieldOf, handleTestControl, type SetStatus, TEST_STATUS_PATH } from './test-controls.ts';
import credentials from './credentials.json' with { type: 'json' };

/**
 * The demo client id and API keys of the sandbox: made up, documented, not secrets. In JSON so that the
 * plain-JavaScript scripts (bench, load test) read the same values.
 */
export const SANDBOX_CLIENT_ID: string = credentials.clientId;

/** The three key scopes the admin console offers. */
export type KeyScope = 'status' | 'identity' | 'full';

export const SANDBOX_KEYS: Record<KeyScope, string> = credentials.keys;

export const KEY_SCOPE_DESCRIPTIONS: Record<KeyScope, string> = {
  status: 'status and metadata only',
  identity: 'identity attributes without pictures',
  full: 'identity attributes with pictures',
};

/** What a key of the given scope receives of a full-level record. */
export function recordForScope(record: CandidateRecord, scope: KeyScope): CandidateRecord {
  if (scope === 'full') return record;
  if (scope === 'status') return statusLevelOf(record);
  if (!record.identities) return record;
  const identities = Object.fromEntries(Object.entries(record.identities).filter(([, attribute]) => attribute.type !== 'base64'));
  return { ...record, identities };
}

export interface SandboxOptions {
  candidates: SandboxCandidate[];
  /** Browser tests only: POST /_test/status changes a candidate's status. */
  testControls?: boolean;
  clientId?: string;
  keys?: Record<KeyScope, string>;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** The KYC Connect lookups: `GET /kyc/1.0/connect/<client_id>/{refId|recordId}/<id>`. */
export function createSandboxHandler(options: SandboxOptions): Handler {
  const clientId = options.clientId ?? SANDBOX_CLIENT_ID;
  const scopeOfKey = new Map(Object.entries(options.keys ?? SANDBOX_KEYS).map(([scope, key]) => [key, scope as KeyScope]));
  const index: Record<LookupKind, Map<string, CandidateRecord>> = { refId: new Map(), recordId: new Map() };
  for (const { record } of options.candidates) {
    if (record.refId) index.refId.set(record.refId, record);
    if (record.recordId) index.recordId.set(record.recordId, record);
  }
  // Bodies are built once per record and scope: large-image records weigh megabytes.
  const bodies = new Map<string, Buffer>();
  const bodyOf = (record: CandidateRecord, scope: KeyScope) => {
    const cacheKey = `${scope}\u0000${record.recordId ?? record.refId}`;
    let body = bodies.get(cacheKey);
    if (!body) {
      body = Buffer.from(JSON.stringify({ status: 'success', data: recordForScope(record, scope) }));
      bodies.set(cacheKey, body);
    }
    return body;
  };

  const setStatus: SetStatus = (kind, id, status) => {
    const record = index[kind].get(id);
    if (!record) return false;
    const changed: CandidateRecord = { ...record, status, [dateFieldOf(status)]: new Date().toISOString() };
    if (changed.refId) index.refId.set(changed.refId, changed);
    if (changed.recordId) index.recordId.set(changed.recordId, changed);
    bodies.clear();
    return true;
  };

  return (req, res) => {
    if (options.testControls && (req.url ?? '').split('?')[0] === TEST_STATUS_PATH) return handleTestControl(req, res, setStatus);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return sendError(res, 405, 'Method Not Allowed');
    }
    const segments = (req.url ?? '/').split('?')[0]!.split('/');
    const [empty, kyc, version, connect, client, kind, rawId, ...rest] = segments;
    const isLookupPath = empty === '' && kyc === 'kyc' && version === '1.0' && connect === 'connect' && rest.length === 0;
    if (!isLookupPath || client === undefined || kind === undefined || rawId === undefined || !isLookupKind(kind)) {
      return sendError(res, 404, 'Not Found');
    }
    const key = req.headers.authorization;
    const scope = key === undefined ? undefined : scopeOfKey.get(key);
    if (!scope) return sendError(res, 401, 'Unauthorized');
    if (safeDecode(client) !== clientId) return sendError(res, 404, 'Client not Found');
    const id = safeDecode(rawId);
    const record = id === undefined ? undefined : index[kind].get(id);
    if (!record) return sendError(res, 404, 'Resource not Found');

    const body = bodyOf(record, scope);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function sendError(res: http.ServerResponse, code: number, message: string): void {
  const error: UpstreamError = { status: 'error', code, message };
  const body = JSON.stringify(error);
  res.writeHead(code, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export interface RunningSandbox {
  url: string;
  clientId: string;
  keys: Record<KeyScope, string>;
  candidates: SandboxCandidate[];
  close(): Promise<void>;
}

/** Starts the sandbox on loopback; port 0 picks a free one. */
export async function startSandbox(options: SandboxOptions & { host?: string; port?: number }): Promise<RunningSandbox> {
  const server = http.createServer(createSandboxHandler(options));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    clientId: options.clientId ?? SANDBOX_CLIENT_ID,
    keys: options.keys ?? SANDBOX_KEYS,
    candidates: options.candidates,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
