import { createAccessControl } from '../../src/server/auth/access.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp, type TestApp } from './http.ts';

/**
 * The app (a full and a status-level key; signed in by the `x-user` and `x-role` headers) in front of a
 * service that answers every request 200 with `answer.body`, as it reads at the time: a test changes the
 * body between requests. `close` ends both.
 */
export async function startOneAnswerApp(answer: { body: string }): Promise<{ app: TestApp; close: () => Promise<void> }> {
  const upstream = await startFakeUpstream();
  upstream.behave = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer.body) });
    res.end(answer.body);
  };
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
  });
  const close = async () => {
    await app.close();
    await upstream.close();
  };
  return { app, close };
}
