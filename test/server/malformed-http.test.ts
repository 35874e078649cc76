import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { startTestApp, type TestApp } from './http.ts';

/**
 * A service (or what stands in front of it) that answers with bytes Node's HTTP parser refuses. It was
 * reached: the reviewer is told its answer could not be read, not that it is away.
 */

let server: net.Server | undefined;
let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  app = server = undefined;
});

async function answering(bytes: string) {
  server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => socket.end(bytes));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  app = await startTestApp({ upstream: { baseUrl: `http://127.0.0.1:${port}`, clientId: 'client', apiKey: 'malformed-test-key' } });
  const res = await app.get('/api/candidates/refId/abc-123', { accept: 'application/json' });
  return { status: res.status, error: apiErrorBodySchema.parse(JSON.parse(res.body)).error };
}

describe('an answer that is no readable HTTP', () => {
  it('headers over 16 KiB: the service answered, its answer could not be read (not "could not be reached")', async () => {
    const answer = await answering(`HTTP/1.1 200 OK\r\nX-Padding: ${'a'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\n{}`);
    expect(answer.status).toBe(502);
    expect(answer.error).toMatchObject({ code: 'upstream_error', message: expect.stringContaining('its headers are larger than') });
  });

  it('a length given twice, differently', async () => {
    const answer = await answering('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}');
    expect(answer.error).toMatchObject({ code: 'upstream_error', message: expect.stringContaining('gives its length twice') });
  });
});
