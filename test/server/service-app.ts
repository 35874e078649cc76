import { afterAll, beforeEach } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { type RawResponse, startTestApp, type TestAppOptions } from './http.ts';

/**
 * A fake service (fake-upstream.ts) and one app in front of it, for a whole test file: started as the
 * file loads, closed after its last test. What the service was asked is forgotten before each test, so
 * that a test reads only its own requests in `upstream.seen`.
 */
export async function serviceAndApp(appOptions: (upstreamUrl: string) => TestAppOptions) {
  const upstream = await startFakeUpstream();
  const app = await startTestApp(appOptions(upstream.url));
  afterAll(async () => {
    await app.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.seen.length = 0;
  });
  /** A full lookup of one refId, as the page asks it for JSON. */
  const lookup = () => app.get('/api/candidates/refId/abc-123', { accept: 'application/json' });
  return { upstream, app, lookup };
}

/** The error of an API error answer (it fails the test if the body is not one). */
export const errorOf = (res: RawResponse) => apiErrorBodySchema.parse(JSON.parse(res.body)).error;
