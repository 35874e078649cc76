import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { statusLevelOf, type CandidateRecord, type UpstreamError } from '../../kyc/contract/schema.ts';
import { isLookupKind, type LookupKind } from '../../kyc/contract/lookup.ts';
import { listApplicants } from './applicants.ts';
import type { ListShape } from '../config/file-schema.ts';
import { fullLevelForm, type SandboxCandidate } from './candidates.ts';
import { answerTestControl, dateFieldOf, type SetStatus, type TestControls, testOutage } from './test-controls.ts';
import credentials from './credentials.json' with { type: 'json' };
import { createWebhookSender, type DeliveryForm, type WebhookTarget } from './webhook-sender.ts';
import { answerEncrypted, ENCRYPTED_DEMO_REF_ID } from './encrypted-demo.ts';
import { createRateLimitDemo, RATE_LIMIT_DEMO_REF_ID } from './rate-limit-demo.ts';

/**
 * The demo client id and API keys of the sandbox: made up, documented, not secrets. In JSON so that the
 * plain-JavaScript scripts (bench, load test) read the same values.
 */
export const SANDBOX_CLIENT_ID: string = credentials.clientId;

/** The three key scopes the admin console offers. */
export type KeyScope = 'status' | 'identity' | 'full';

export const SANDBOX_KEYS: Record<KeyScope, string> = credentials.keys;

/**
 * A full-scope key created with "archive after extract": every full-level lookup with it schedules the
 * deletion of the candidate's identity data, and the answer says when (`willArchiveAtDate`).
 */
export const SANDBOX_ARCHIVE_KEY: string = credentials.archiveAfterExtractKey;
/** The delay the service's documentation recommends for such keys. */
export const SANDBOX_ARCHIVE_AFTER_SECONDS = 10;

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
  /** Browser tests only: POST /_test/status changes a candidate's status, POST /_test/reset undoes every change. */
  testControls?: boolean;
  /**
   * The archive-after-extract demonstration: there for every key, as on the service (listed, never a
   * sample), and deleted for real once a full lookup with the archive key has passed its deadline. Other
   * candidates are only told a date, so that the samples stay whole for everyone else.
   */
  archiveKeyCandidates?: SandboxCandidate[];
  /** How long after such a lookup the deletion comes (default SANDBOX_ARCHIVE_AFTER_SECONDS). */
  archiveAfterMs?: number;
  clientId?: string;
  keys?: Record<KeyScope, string>;
  /** Hears of each change to a record (a status set, an archiving; `form`, a test control's): the webhooks' source. */
  onChange?: (record: CandidateRecord, form?: DeliveryForm) => void;
  /** The shape the list operation answers in (list-shapes.ts; default `older`). */
  listShape?: ListShape;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

type KeyGrant = { scope: KeyScope; archives: boolean };

interface Index {
  records: CandidateRecord[];
  byKind: Record<LookupKind, Map<string, CandidateRecord>>;
}

function indexOf(candidates: SandboxCandidate[]): Index {
  const byKind: Index['byKind'] = { refId: new Map(), recordId: new Map() };
  for (const { record } of candidates) {
    if (record.refId) byKind.refId.set(record.refId, record);
    if (record.recordId) byKind.recordId.set(record.recordId, record);
  }
  return { records: candidates.map(({ record }) => record), byKind };
}

/** Puts `changed` where `old` was, in the list and under both ids. */
function replaceIn(index: Index, old: CandidateRecord, changed: CandidateRecord): void {
  const at = index.records.indexOf(old);
  if (at === -1) return;
  index.records[at] = changed;
  if (changed.refId) index.byKind.refId.set(changed.refId, changed);
  if (changed.recordId) index.byKind.recordId.set(changed.recordId, changed);
}

/**
 * The KYC Connect operations: lookups `GET /kyc/1.0/connect/<client_id>/{refId|recordId}/<id>` and the
 * list `GET /kyc/1.0/connect/<client_id>/applicants[/<status>]?skip=&limit=`.
 */
export function createSandboxHandler(options: SandboxOptions): Handler & { setStatus: SetStatus } {
  const clientId = options.clientId ?? SANDBOX_CLIENT_ID;
  const grants = new Map<string, KeyGrant>(
    Object.entries(options.keys ?? SANDBOX_KEYS).map(([scope, key]) => [key, { scope: scope as KeyScope, archives: false }]),
  );
  grants.set(SANDBOX_ARCHIVE_KEY, { scope: 'full', archives: true });
  const all = [...options.candidates, ...(options.archiveKeyCandidates ?? [])];
  let index = indexOf(all);
  const bodies = bodyCache(scopedAnswers(all));
  const archiver = createArchiver(options.archiveKeyCandidates ?? [], options.archiveAfterMs ?? SANDBOX_ARCHIVE_AFTER_SECONDS * 1000);
  const change = (record: CandidateRecord, changed: CandidateRecord) => {
    replaceIn(index, record, changed);
    bodies.clear();
    options.onChange?.(changed);
  };
  const setStatus: SetStatus = (kind, id, status) => {
    const record = index.byKind[kind].get(id);
    if (!record) return false;
    change(record, { ...record, status, [dateFieldOf(status)]: new Date().toISOString() });
    return true;
  };
  const outage = testOutage();
  const rateLimitDemo = createRateLimitDemo();
  const reset = () => {
    outage.end();
    rateLimitDemo.reset();
    index = indexOf(all);
    archiver.reset();
    bodies.clear();
  };
  const find = (kind: LookupKind, id: string) => index.byKind[kind].get(id);
  const controls: TestControls = { setStatus, reset, startOutage: outage.start, find, send: options.onChange };
  const handler: Handler = (req, res) => {
    if (options.testControls && answerTestControl(req, res, controls)) return;
    if (outage.cuts(req)) return;
    archiver.archiveDue(index, change);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return sendError(res, 405, 'Method Not Allowed');
    }
    const [pathname, query = ''] = (req.url ?? '/').split('?') as [string, string?];
    const [empty, kyc, version, connect, client, kind, rawId, ...rest] = pathname.split('/');
    const isConnectPath = empty === '' && kyc === 'kyc' && version === '1.0' && connect === 'connect' && rest.length === 0;
    const isList = isConnectPath && kind === 'applicants';
    if (!isConnectPath || client === undefined || kind === undefined || (!isList && (rawId === undefined || !isLookupKind(kind)))) {
      return sendError(res, 404, 'Not Found');
    }
    const key = req.headers.authorization;
    const grant = key === undefined ? undefined : grants.get(key);
    if (!grant) return sendError(res, 401, 'Unauthorized');
    if (safeDecode(client) !== clientId) return sendError(res, 404, 'Client not Found');

    if (isList) {
      const form = { shape: options.listShape ?? 'older', whole: (record: CandidateRecord) => recordForScope(record, grant.scope) };
      const answer = listApplicants(index.records, rawId || undefined, new URLSearchParams(query), form);
      if (!answer.ok) return sendError(res, answer.code, answer.message);
      return sendBody(req, res, Buffer.from(JSON.stringify(answer.body)));
    }
    const id = safeDecode(rawId!);
    if (kind === 'refId' && id === RATE_LIMIT_DEMO_REF_ID) return rateLimitDemo.answer(req, res);
    if (kind === 'refId' && id === ENCRYPTED_DEMO_REF_ID) return answerEncrypted(req, res);
    const record = id === undefined ? undefined : index.byKind[kind as LookupKind].get(id);
    if (!record) return sendError(res, 404, 'Resource not Found');
    if (!grant.archives) return sendBody(req, res, bodies.of(record, grant));
    // Each full lookup with such a key schedules the deletion anew, from the time of the lookup.
    const data = { ...bodies.answerOf(record, grant.scope), willArchiveAtDate: archiver.schedule(record) };
    sendBody(req, res, Buffer.from(JSON.stringify({ status: 'success', data })));
  };
  return Object.assign(handler, { setStatus });
}

/**
 * "Archive after extract" as the service does it, for the demonstration candidates: a full lookup with
 * the archive key sets a deadline, and once it has passed the record is archived (`isArchived`, no
 * `identities`) for every key. Any other candidate is told the date and left whole.
 */
function createArchiver(demonstrations: SandboxCandidate[], afterMs: number) {
  const demo = new Set(demonstrations.map(({ record }) => idOf(record)));
  const deadlines = new Map<string, string>();
  const deletedAt = new Map<string, string>();
  return {
    /** The date a full lookup with the archive key announces: anew each time, or when it was deleted. */
    schedule(record: CandidateRecord): string {
      const id = idOf(record);
      const deleted = deletedAt.get(id);
      if (deleted) return deleted;
      const at = new Date(Date.now() + afterMs).toISOString();
      if (demo.has(id)) deadlines.set(id, at);
      return at;
    },
    archiveDue(index: Index, change: (record: CandidateRecord, changed: CandidateRecord) => void): void {
      for (const [id, at] of deadlines) {
        if (Date.parse(at) > Date.now()) continue;
        deadlines.delete(id);
        deletedAt.set(id, at);
        const record = index.records.find((candidate) => idOf(candidate) === id);
        if (!record) continue;
        const { identities: _deleted, ...kept } = record;
        change(record, { ...kept, isArchived: true });
      }
    },
    reset(): void {
      deadlines.clear();
      deletedAt.clear();
    },
  };
}

function idOf(record: CandidateRecord): string {
  return `${record.recordId ?? ''}\u0000${record.refId ?? ''}`;
}

/** Each record as a key of `scope` receives it, in the published full example's form where a candidate has it (candidates.ts). */
function scopedAnswers(candidates: readonly SandboxCandidate[]) {
  const fullForm = fullLevelForm(candidates);
  return (record: CandidateRecord, scope: KeyScope) => fullForm(recordForScope(record, scope), scope);
}

/** Bodies are built once per record and scope: large-image records weigh megabytes. */
function bodyCache(answerOf: (record: CandidateRecord, scope: KeyScope) => CandidateRecord) {
  const bodies = new Map<string, Buffer>();
  return {
    answerOf,
    of(record: CandidateRecord, grant: KeyGrant): Buffer {
      const cacheKey = `${grant.scope}\u0000${record.recordId ?? record.refId}`;
      let body = bodies.get(cacheKey);
      if (!body) {
        body = Buffer.from(JSON.stringify({ status: 'success', data: answerOf(record, grant.scope) }));
        bodies.set(cacheKey, body);
      }
      return body;
    },
    clear: () => bodies.clear(),
  };
}

function sendBody(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
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
  /** Moves a candidate to a status, as a reviewer's decision on the service would (false: no such candidate). */
  setStatus: SetStatus;
  close(): Promise<void>;
}

/** Starts the sandbox on loopback; port 0 picks a free one. */
export async function startSandbox(
  options: SandboxOptions & { host?: string; port?: number; webhook?: WebhookTarget; onWebhookProblem?: (problem: string) => void },
): Promise<RunningSandbox> {
  const clientId = options.clientId ?? SANDBOX_CLIENT_ID;
  // Each change is sent to the app's receiver, signed, when the app registered one.
  const sender = options.webhook && createWebhookSender(options.webhook, clientId, options.onWebhookProblem);
  const handler = createSandboxHandler(
    sender ? { ...options, onChange: (record, form) => void sender.send(record, undefined, form) } : options,
  );
  const server = http.createServer(handler);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    clientId,
    keys: options.keys ?? SANDBOX_KEYS,
    candidates: options.candidates,
    setStatus: handler.setStatus,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
