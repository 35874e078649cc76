import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import type { ApiErrorCode } from '../../src/kyc/contract/api-errors.ts';
import { LIST_KEY_CHECK_ADVICE } from '../../src/kyc/contract/list-key-check.ts';
import { createGate, SERVICE_AWAY_SAID_MS } from '../../src/server/archiving/archiving-gate.ts';
import type { ArchivingGuard } from '../../src/server/archiving/archiving-guard.ts';
import { ApiFailure } from '../../src/server/http/api-failure.ts';
import { createLogger } from '../../src/server/log/log.ts';
import { crawlerFullKeyWithheld } from '../../src/server/lookup/crawler-full-key.ts';
import { limitingRequests, startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';
import { COMPLIANCE, gateway, SUPPORT } from './queue-fixture.ts';

/**
 * Found by the UI review (1 December): an environment whose KYC service cannot be reached, without a
 * status-level key. The crawler waits for a lookup to show the key keeps data, and the lookups that would
 * show it all failed to reach the service: the queue said the list was held back for the key check, and
 * told a support user to open a candidate as a compliance user, the service's being away said nowhere.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function appOn(baseUrl: string) {
  const app = await startTestApp({
    upstream: { baseUrl, clientId: 'c', apiKey: 'full-key' },
    access: gateway(),
    settings: { limits: { upstreamTimeoutMs: 500 } },
  });
  cleanups.push(() => app.close());
  return app;
}

/** What the queue's Waiting tab answers, never read: its status, code and message. */
async function queueSays(app: Awaited<ReturnType<typeof appOn>>) {
  const res = await app.get('/api/applicants?status=waiting', SUPPORT);
  const { error } = apiErrorBodySchema.parse(JSON.parse(res.body));
  return { status: res.status, code: error.code, message: error.message };
}

/** A compliance user's lookup: its status, code and message. */
async function lookUp(app: Awaited<ReturnType<typeof appOn>>, id: string) {
  const res = await app.get(`/api/candidates/refId/${id}`, COMPLIANCE);
  const { error } = apiErrorBodySchema.parse(JSON.parse(res.body));
  return { status: res.status, code: error.code, message: error.message };
}

describe('the queue of a service that cannot be reached, without a status-level key', () => {
  it("says the service cannot be reached, in the lookup's words, not that the key check is missing", async () => {
    const closed = await startFakeUpstream();
    await closed.close();
    const app = await appOn(closed.url);
    const lookup = await lookUp(app, 'cust-1');
    expect(lookup).toMatchObject({ status: 502, code: 'upstream_unreachable' });
    await app.crawl();
    // Before: 503 archiving_check_unavailable, "read once a lookup here has shown that the API key keeps identity data…".
    expect(await queueSays(app)).toEqual(lookup);
  });

  it('a service answering 503, not answering in time, or rejecting the key: said so; once it answers a lookup, the key check again', async () => {
    const upstream = await startFakeUpstream();
    cleanups.push(() => upstream.close());
    let answer: 'down' | 'silent' | 'rejected' | 'not found' = 'down';
    upstream.behave = (_req, res) => {
      if (answer === 'silent') return;
      const [status, body] =
        answer === 'down'
          ? [503, '{"status":"error","code":503,"message":"Down"}']
          : answer === 'rejected'
            ? [401, '{"status":"error","code":401,"message":"Unauthorized"}']
            : [404, '{"status":"error","code":404}'];
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    };
    const app = await appOn(upstream.url);
    expect(await lookUp(app, 'cust-1')).toMatchObject({ code: 'upstream_error' });
    await app.crawl();
    expect(await queueSays(app)).toMatchObject({ status: 502, code: 'upstream_error', message: expect.stringMatching(/HTTP 503/) });

    answer = 'silent';
    expect(await lookUp(app, 'cust-2')).toMatchObject({ status: 504, code: 'upstream_timeout' });
    await app.crawl();
    expect(await queueSays(app)).toMatchObject({ status: 504, code: 'upstream_timeout' });

    // The key rejected: no lookup can show it safe until an administrator acts, and the queue says that, not the key check.
    answer = 'rejected';
    expect(await lookUp(app, 'cust-4')).toMatchObject({ code: 'upstream_unauthorized' });
    await app.crawl();
    expect(await queueSays(app)).toMatchObject({ status: 502, code: 'upstream_unauthorized' });

    // The service answers again (no such candidate: the key is still not shown safe): the key check is why, not a failure gone by.
    answer = 'not found';
    expect(await lookUp(app, 'cust-3')).toMatchObject({ status: 404, code: 'not_found' });
    await app.crawl();
    expect(await queueSays(app)).toMatchObject({ status: 503, code: 'archiving_check_unavailable' });
  });
});

describe('the queue of a service that redirects, is set up wrong here, or limits requests (the key check said instead, hiding the cause)', () => {
  it.each([
    ['redirects (3xx: its address moved)', 302, { location: 'https://elsewhere.example/kyc' }, '', 'upstream_redirected'],
    ['answers with a web page (404: not the API)', 404, { 'content-type': 'text/html' }, '<html>Not here</html>', 'upstream_misconfigured'],
  ] as const)(
    "a service that %s: the queue says the lookup's failure, in its words, not that the key check is missing",
    async (_, status, headers, body, code) => {
      const upstream = await startFakeUpstream();
      cleanups.push(() => upstream.close());
      upstream.behave = (_req, res) => {
        res.writeHead(status, headers);
        res.end(body);
      };
      const app = await appOn(upstream.url);
      const lookup = await lookUp(app, 'cust-1');
      expect(lookup.code).toBe(code);
      await app.crawl();
      // Before: 503 archiving_check_unavailable, "read once a lookup here has shown that the API key keeps identity data…".
      expect(await queueSays(app)).toEqual(lookup);
    },
  );

  it("a service limiting requests (429, with its wait): the queue says the lookup's 429, with what is left of its wait", async () => {
    const upstream = await startFakeUpstream();
    cleanups.push(() => upstream.close());
    upstream.behave = limitingRequests;
    const app = await appOn(upstream.url);
    expect(await lookUp(app, 'cust-1')).toEqual({
      status: 429,
      code: 'upstream_rate_limited',
      message: 'The KYC service is limiting requests (HTTP 429). Try again in 30 s.',
    });
    await app.crawl();
    // Before: 503 archiving_check_unavailable, "read once a lookup here has shown that the API key keeps identity data…".
    expect(await queueSays(app)).toMatchObject({
      status: 429,
      code: 'upstream_rate_limited',
      message: expect.stringMatching(
        /^The KYC service is limiting requests \(HTTP 429\) and asked to wait: nothing was sent to it\. Try again in \d+ s\.$/,
      ),
    });
  });
});

/** One check's end, as the gate's holder ends it: the service answered (then perhaps failed), or failed before answering. */
type CheckEnd = { answered: boolean; code?: ApiErrorCode; upstreamStatus?: number };

const CODES: ApiErrorCode[] = [
  'upstream_unreachable',
  'upstream_timeout',
  'upstream_error',
  'upstream_unauthorized',
  'upstream_rate_limited',
  'upstream_redirected',
  'upstream_misconfigured',
  'not_found',
  'response_too_large',
];
const checkEnd: fc.Arbitrary<CheckEnd> = fc.record(
  {
    answered: fc.boolean(),
    code: fc.constantFrom(...CODES),
    upstreamStatus: fc.constantFrom(400, 500, 502, 503),
  },
  { requiredKeys: ['answered'] },
);

const AWAY = (end: CheckEnd) =>
  end.code === 'upstream_unreachable' ||
  end.code === 'upstream_timeout' ||
  end.code === 'upstream_unauthorized' ||
  end.code === 'upstream_redirected' ||
  end.code === 'upstream_misconfigured' ||
  end.code === 'upstream_rate_limited' ||
  (end.code === 'upstream_error' && (end.upstreamStatus === undefined || end.upstreamStatus >= 500));

describe('property: the crawler names the service as the cause exactly when the last check it waits for failed of it', () => {
  it('any run of checks that show nothing of the key: the last one away is said, else the key check', async () => {
    const log = createLogger({ write: () => {} });
    await fc.assert(
      fc.asyncProperty(fc.array(checkEnd, { maxLength: 8 }), async (ends) => {
        const gate = createGate();
        let last: { failure: ApiFailure; end: CheckEnd } | undefined;
        for (const end of ends) {
          const hold = await gate.enter({ since: Date.now(), until: Date.now() + 1000 });
          if (hold === 'gone' || !('done' in hold)) throw new Error('the gate holds no check: each ends before the next');
          if (end.answered) hold.answering();
          const failure =
            end.code === undefined
              ? undefined
              : new ApiFailure(
                  end.code,
                  `failed: ${end.code}`,
                  end.upstreamStatus === undefined ? {} : { upstreamStatus: end.upstreamStatus },
                );
          hold.done({ opened: false, failure });
          // The last check's failure stands until the service answers one; a check that ended without one and unanswered (not sent) leaves it.
          if (failure) last = { failure, end };
          else if (end.answered) last = undefined;
        }
        const archiving = {
          finding: async () => ({ found: false }),
          shownSafe: () => gate.isOpen(),
          checkFailed: () => gate.serviceFailure(),
        } as unknown as ArchivingGuard;
        const withheld = await crawlerFullKeyWithheld({ hasStatusKey: false, archiving }, log);
        if (last && AWAY(last.end)) expect(withheld).toBe(last.failure);
        else expect(withheld?.code).toBe('archiving_check_unavailable');
      }),
    );
  });
});

describe('a failure of the service said for a while, not for ever (late review: the service came back, and nothing asked it)', () => {
  it(`is the queue's reason for ${SERVICE_AWAY_SAID_MS / 60_000} minutes at most; past them the key check again, the step that unblocks it`, async () => {
    const log = createLogger({ write: () => {} });
    let clock = 1_000_000;
    const gate = createGate(() => clock);
    const hold = await gate.enter({ since: clock, until: clock + 1000 });
    if (hold === 'gone' || !('done' in hold)) throw new Error('the first lookup holds the check');
    const away = new ApiFailure('upstream_unreachable', 'The KYC service could not be reached (connection reset).');
    hold.done({ opened: false, failure: away });
    const archiving = {
      finding: async () => ({ found: false }),
      shownSafe: () => gate.isOpen(),
      checkFailed: () => gate.serviceFailure(),
    } as unknown as ArchivingGuard;
    expect(await crawlerFullKeyWithheld({ hasStatusKey: false, archiving }, log)).toBe(away);
    clock += SERVICE_AWAY_SAID_MS;
    expect(await crawlerFullKeyWithheld({ hasStatusKey: false, archiving }, log)).toBe(away);
    clock += 1;
    expect((await crawlerFullKeyWithheld({ hasStatusKey: false, archiving }, log))?.code).toBe('archiving_check_unavailable');
  });
});

describe("the key check's advice holds for every role (late review: a support user was told to ask a compliance user)", () => {
  it("a support user's lookup, made with the full key when there is no status-level key, shows the key: the list is read after it", async () => {
    const upstream = await startFakeUpstream();
    cleanups.push(() => upstream.close());
    let listed = 0;
    upstream.behave = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if ((req.url ?? '').includes('/applicants')) {
        listed += 1;
        return void res.end('{"status":"success","data":{"records":[],"total":0}}');
      }
      res.end('{"status":"success","data":{"status":"waiting","refId":"cust-1","recordId":"6650c0de0123456789abcd35","identities":{}}}');
    };
    const app = await appOn(upstream.url);
    await app.crawl();
    expect(listed).toBe(0);
    expect((await queueSays(app)).message).toContain(LIST_KEY_CHECK_ADVICE);
    expect((await app.get('/api/candidates/refId/cust-1', SUPPORT)).status).toBe(200);
    await app.crawl();
    expect(listed).toBeGreaterThan(0);
  });
});
