import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiErrorBodySchema, apiMetaSchema } from '../../src/kyc/contract/api.ts';
import { findingName } from '../../src/server/archiving/archiving-findings.ts';
import type { AuditEntry } from '../../src/server/audit/audit.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import type { RawResponse } from './http.ts';
import { type Instance, startInstance } from './instance.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';
import { claimFileOf } from '../../src/server/audit/audit-claim.ts';

/**
 * A key seen to archive after extract is remembered beyond one process: in Redis for every instance, or
 * in a file beside the audit log without Redis, so that neither a second instance nor a restart costs
 * another candidate's identity data. The finding is bound to a fingerprint of the key: a new key starts clean.
 */
const record = (await sampleCandidates({ now: new Date() }))[0]!.record;
const ARCHIVE_KEY = 'archive-after-extract-key-of-test';
const OTHER_KEY = 'a-new-key-after-the-old-one-was-replaced';
const COMPLIANCE = { 'x-user': 'ana', 'x-role': 'compliance' };
const LOOKUP = `/api/candidates/refId/${encodeURIComponent(record.refId!)}`;

let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let redis: RunningRedis | undefined;
const instances: Instance[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream();
  // Every full lookup with either key schedules the deletion 10 s later, as a key with "archive after extract" does.
  upstream.behave = (_req: http.IncomingMessage, res: http.ServerResponse) => {
    const data = { ...record, willArchiveAtDate: new Date(Date.now() + 10_000).toISOString() };
    const body = JSON.stringify({ status: 'success', data });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  if (hasRedisServer) redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(instances.splice(0).map((instance) => instance.close()));
});
afterAll(async () => {
  await redis?.stop();
  await upstream.close();
});

async function instance(extra: Record<string, string>): Promise<Instance> {
  const started = await startInstance(
    { KYC_BASE_URL: upstream.url, KYC_CLIENT_ID: 'c', KYC_API_KEY: ARCHIVE_KEY, ...extra },
    {
      file: {
        signIn: { mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trustedProxies: ['127.0.0.1/32'] },
        limits: { lookupsPerMinute: 0 },
      },
    },
  );
  instances.push(started);
  return started;
}

async function stop(at: Instance): Promise<void> {
  instances.splice(instances.indexOf(at), 1);
  await at.close();
}

const lookup = (at: Instance) => at.request(LOOKUP, { headers: COMPLIANCE });
const codeOf = (res: RawResponse) => apiErrorBodySchema.parse(JSON.parse(res.body)).error.code;
const metaOf = async (at: Instance) => apiMetaSchema.parse(JSON.parse((await at.request('/api/meta', { headers: COMPLIANCE })).body));
const auditOf = (at: Instance) =>
  readFileSync(at.auditLog, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as AuditEntry & { kind: string });

describe.skipIf(!hasRedisServer)(`the finding, shared in Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('made on one instance refuses full lookups on the other, and after a restart', async () => {
    await redis!.restart();
    const asked = upstream.seen.length;
    const [one, two] = await Promise.all([instance({ REDIS_URL: redis!.url }), instance({ REDIS_URL: redis!.url })]);
    expect((await lookup(one)).status).toBe(200);
    const refused = await lookup(two);
    expect(refused.status).toBe(409);
    expect(codeOf(refused)).toBe('archiving_key');
    expect((await metaOf(two)).archivingKey).toMatchObject({ accepted: false });
    await stop(one);
    await stop(two);
    const restarted = await instance({ REDIS_URL: redis!.url });
    expect((await lookup(restarted)).status).toBe(409);
    // One candidate's data was scheduled for deletion, not one per instance or per start.
    expect(upstream.seen.length - asked).toBe(1);
  });

  it('is kept under a fingerprint of the key, never the key; a new key starts clean', async () => {
    await redis!.restart();
    const first = await instance({ REDIS_URL: redis!.url });
    expect((await lookup(first)).status).toBe(200);
    const client = new Redis(redis!.url);
    try {
      const keys = await client.keys('*');
      expect(keys.filter((key) => key.includes('archiving'))).toHaveLength(1);
      const values = await Promise.all(keys.map((key) => client.get(key).catch(() => '')));
      expect(JSON.stringify([keys, values])).not.toContain(ARCHIVE_KEY);
      // No expiry: a finding that lapsed would cost another candidate.
      expect(await client.pttl(keys.find((key) => key.includes('archiving'))!)).toBe(-1);
    } finally {
      client.disconnect();
    }
    await stop(first);
    // The operator replaced the key: its first full lookup is answered (and seen to archive in its turn).
    const replaced = await instance({ REDIS_URL: redis!.url, KYC_API_KEY: OTHER_KEY });
    expect((await metaOf(replaced)).archivingKey).toBeUndefined();
    expect((await lookup(replaced)).status).toBe(200);
    expect((await lookup(replaced)).status).toBe(409);
  });

  it('a full lookup fails closed while Redis is down (503 store_unavailable, audited, the service not asked)', async () => {
    await redis!.restart();
    const at = await instance({ REDIS_URL: redis!.url });
    await redis!.kill();
    try {
      const asked = upstream.seen.length;
      const res = await lookup(at);
      expect(res.status).toBe(503);
      expect(codeOf(res)).toBe('store_unavailable');
      expect(upstream.seen.length).toBe(asked);
      expect(auditOf(at).at(-1)).toMatchObject({ status: 503, code: 'store_unavailable', level: null });
    } finally {
      await redis!.restart();
    }
  });
});

describe('the finding without Redis', () => {
  it('a failure to read the archive finding without Redis: its own code (full lookups held back), not store_unavailable (sign-in paused)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-archiving-unreadable-'));
    const AUDIT_LOG = path.join(dir, 'audit.jsonl');
    try {
      // A finding's file that cannot be read (a directory in its place: EISDIR, whoever the server runs as).
      mkdirSync(path.join(dir, `${findingName('default', ARCHIVE_KEY)}.json`));
      const asked = upstream.seen.length;
      const at = await instance({ AUDIT_LOG, KYC_API_KEY_STATUS: 'status-level-key-of-test' });
      for (let i = 0; i < 2; i++) {
        const res = await lookup(at);
        expect(res.status).toBe(503);
        const { error } = apiErrorBodySchema.parse(JSON.parse(res.body));
        expect(error.code).toBe('archiving_check_unavailable');
        expect(error.message).toMatch(/full lookups are held back/);
        expect(error.message).not.toMatch(/sign-in/i);
      }
      expect(upstream.seen.length - asked).toBe(0);
      expect(auditOf(at).at(-1)).toMatchObject({ status: 503, code: 'archiving_check_unavailable', level: null });
      // Status-level lookups (with a status key) go on: only the full key's check is missing.
      expect((await at.request(LOOKUP, { headers: { 'x-user': 'sam', 'x-role': 'support' } })).status).toBe(200);
      // The operator is told once, with why.
      expect(at.logs.filter((line) => line.includes('finding in the file') && line.includes('cannot be read (EISDIR)'))).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is kept in a file beside the audit log: a restart still refuses; removing the file resets it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-archiving-file-'));
    const AUDIT_LOG = path.join(dir, 'audit.jsonl');
    try {
      const asked = upstream.seen.length;
      const first = await instance({ AUDIT_LOG });
      expect((await lookup(first)).status).toBe(200);
      expect((await lookup(first)).status).toBe(409);
      await stop(first);

      const restarted = await instance({ AUDIT_LOG });
      expect((await metaOf(restarted)).archivingKey).toMatchObject({ accepted: false });
      expect((await lookup(restarted)).status).toBe(409);
      expect(upstream.seen.length - asked).toBe(1);
      // The restarted instance says why, once.
      expect(restarted.logs.filter((line) => line.includes('archives identity data after each full lookup'))).toHaveLength(1);

      // Beside the audit file and its claim (the running instance's, audit-claim.ts): the finding alone.
      const files = readdirSync(dir).filter((name) => name !== 'audit.jsonl' && name !== path.basename(claimFileOf(AUDIT_LOG)));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^archiving-key-default-[0-9a-f]{16}\.json$/);
      expect(readFileSync(path.join(dir, files[0]!), 'utf8')).not.toContain(ARCHIVE_KEY);
      // The operator's reset (after replacing the key, or to test again): the file goes, the next lookup is asked.
      rmSync(path.join(dir, files[0]!));
      // Seen within a second: a finding read from its file is believed that long (archiving-findings.ts).
      await vi.waitFor(async () => expect((await lookup(restarted)).status).toBe(200), { timeout: 15_000, interval: 200 });
      // Found again in that answer, whose last bytes (the field) may reach the browser before it is written.
      await vi.waitFor(() => expect(existsSync(path.join(dir, files[0]!))).toBe(true));
      expect((await lookup(restarted)).status).toBe(409);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
