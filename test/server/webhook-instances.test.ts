import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiMetaSchema } from '../../src/kyc/contract/api.ts';
import { parseConfig } from '../../src/server/config/config.ts';
import type { ConfigFile } from '../../src/server/config/file-schema.ts';
import { deliveryIdsInMemory } from '../../src/server/live/delivery-ids.ts';
import { signatureOf } from '../../src/server/http/webhook-signature.ts';
import { type Instance, startInstance } from './instance.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';
import { codeOf, deliver, deliveryBody } from './webhook-fixture.ts';

const SECRET = 'instance-webhook-secret';
const instances: Instance[] = [];
afterEach(async () => {
  await Promise.all(instances.splice(0).map((instance) => instance.close()));
});

/** The production server on the sandbox, its webhook secret from KYC_WEBHOOK_SECRET (or as `env` says). */
async function sandboxInstance(env: Record<string, string> = { KYC_WEBHOOK_SECRET: SECRET }, file?: ConfigFile): Promise<Instance> {
  const started = await startInstance(env, file ? { file } : {});
  instances.push(started);
  return started;
}

const clientIdOf = async (at: Instance) => apiMetaSchema.parse(JSON.parse((await at.request('/api/meta')).body)).environment.clientId!;
const signed = (body: string, port: number) => deliver(port, body, { signature: signatureOf(body, SECRET) });
const auditLines = (at: Instance) =>
  readFileSync(at.auditLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the webhook receiver in the production server', () => {
  it('takes KYC_WEBHOOK_SECRET for the sandbox, audits the delivery in the file, counts it, and /api/meta says live', async () => {
    const at = await sandboxInstance();
    const clientId = await clientIdOf(at);
    const res = await signed(deliveryBody({ clientId, guid: 'g-instance', refId: 'ref-instance' }), at.port);
    expect(res.status).toBe(200);
    expect(auditLines(at).filter((line) => line.kind === 'webhook')).toEqual([
      expect.objectContaining({ env: 'sandbox', event: 'review.approved', refId: 'ref-instance', status: 'approved' }),
    ]);
    const metric = (await at.metrics.webhookDeliveries.get()).values;
    expect(metric).toEqual([expect.objectContaining({ labels: { event: 'review.approved', result: 'accepted' }, value: 1 })]);
    expect(apiMetaSchema.parse(JSON.parse((await at.request('/api/meta')).body)).live).toBe(true);
  });

  it('takes the secret from KYC_WEBHOOK_SECRET_FILE, and limits deliveries per address with limits.webhookDeliveriesPerMinute', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-webhook-')), 'secret');
    writeFileSync(file, `${SECRET}\n`);
    const at = await sandboxInstance({ KYC_WEBHOOK_SECRET_FILE: file }, { limits: { webhookDeliveriesPerMinute: 1 } });
    const clientId = await clientIdOf(at);
    expect((await signed(deliveryBody({ clientId }), at.port)).status).toBe(200);
    expect(codeOf(await signed(deliveryBody({ clientId }), at.port))).toBe('webhook_rate_limited');
  });

  it('has no receiver without a secret: 404, and /api/meta says live updates are off', async () => {
    // A real service's environment (the sandbox always has one: its secret is made at each start).
    const at = await sandboxInstance({ KYC_BASE_URL: 'http://127.0.0.1:9', KYC_CLIENT_ID: 'acme', KYC_API_KEY: 'key-0123456789' });
    expect(codeOf(await signed(deliveryBody(), at.port))).toBe('no_such_route');
    expect(apiMetaSchema.parse(JSON.parse((await at.request('/api/meta')).body)).live).toBe(false);
  });
});

describe('the webhook secret in the configuration', () => {
  const environment = {
    name: 'production',
    label: 'Production',
    baseUrl: 'https://kyc.example.org',
    clientId: 'acme',
    apiKeyEnv: 'PROD_KEY',
  };

  it("reads an environment's webhookSecretEnv (not refused as a removed variable) and webhookSecretFile", () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-webhook-')), 'secret');
    writeFileSync(file, 'from-the-file\n');
    const config = parseConfig(
      { PROD_KEY: 'k-1', HOOK: 'from-the-variable' },
      {
        environments: [
          { ...environment, webhookSecretEnv: 'HOOK' },
          { ...environment, name: 'staging', webhookSecretFile: file },
        ],
      },
    );
    expect(config.environments.map((e) => e.webhookSecret)).toEqual(['from-the-variable', 'from-the-file']);
  });

  it('names a webhook secret variable that is not set, never a value', () => {
    expect(() => parseConfig({ PROD_KEY: 'k-1' }, { environments: [{ ...environment, webhookSecretEnv: 'HOOK' }] })).toThrow(
      /environments\[0\]\.webhookSecretEnv: the variable it names is not set/,
    );
  });

  it("refuses KYC_WEBHOOK_SECRET with CONFIG_FILE's environments: each names its own", () => {
    expect(() => parseConfig({ PROD_KEY: 'k-1', KYC_WEBHOOK_SECRET: 'the-secret' }, { environments: [environment] })).toThrow(
      /KYC_WEBHOOK_SECRET is for the quick start's service/,
    );
  });

  it('gives the quick start its KYC_WEBHOOK_SECRET', () => {
    const config = parseConfig({
      KYC_BASE_URL: 'https://kyc.example.org',
      KYC_CLIENT_ID: 'acme',
      KYC_API_KEY: 'k',
      KYC_WEBHOOK_SECRET: 'qs',
    });
    expect(config.environments[0]).toMatchObject({ name: 'default', webhookSecret: 'qs' });
  });
});

describe('delivery ids in memory', () => {
  it('remember a guid for 24 hours, per environment, and forget a released one', async () => {
    let now = 0;
    const ids = deliveryIdsInMemory({ now: () => now });
    expect(await ids.claim('default', 'g')).toBe(true);
    expect(await ids.claim('default', 'g')).toBe(false);
    expect(await ids.claim('staging', 'g')).toBe(true);
    now = 24 * 60 * 60 * 1000 - 1;
    expect(await ids.claim('default', 'g')).toBe(false);
    now += 1;
    expect(await ids.claim('default', 'g')).toBe(true);
    await ids.release('default', 'g');
    expect(await ids.claim('default', 'g')).toBe(true);
  });

  it('hold at most their bound, the oldest going first', async () => {
    const ids = deliveryIdsInMemory({ max: 3 });
    for (const guid of ['a', 'b', 'c', 'd']) expect(await ids.claim('default', guid)).toBe(true);
    expect(await ids.claim('default', 'd')).toBe(false);
    expect(await ids.claim('default', 'c')).toBe(false);
    // "a" was the oldest of four: forgotten, so taken again (and "b" goes in its turn).
    expect(await ids.claim('default', 'a')).toBe(true);
    expect(await ids.claim('default', 'b')).toBe(true);
  });
});

describe.skipIf(!hasRedisServer)(`delivery ids on Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it('accept a guid once across instances: the same delivery to the other instance is a duplicate', async () => {
    const env = { KYC_WEBHOOK_SECRET: SECRET, REDIS_URL: redis.url };
    const [one, two] = [await sandboxInstance(env), await sandboxInstance(env)];
    const body = deliveryBody({ clientId: await clientIdOf(one), guid: 'g-shared' });
    expect(JSON.parse((await signed(body, one.port)).body).result).toBe('accepted');
    expect(JSON.parse((await signed(body, two.port)).body).result).toBe('duplicate');
    expect(auditLines(two).filter((line) => line.kind === 'webhook')).toEqual([]);
  });
});
