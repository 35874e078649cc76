import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiHandler, type ApiHandlerOptions } from '../../src/server/proxy.ts';
import { createAppServer } from '../../src/server/app-server.ts';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The connection was cut before the body was complete. */
  cut: boolean;
}

/** A GET with the path sent exactly as given (no URL normalisation), like a hand-crafted request. */
export function rawRequest(
  port: number,
  path: string,
  options: { method?: string; headers?: http.OutgoingHttpHeaders } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        let cut = false;
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('aborted', () => (cut = true));
        res.on('error', () => (cut = true));
        res.on('close', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            cut: cut || !res.complete,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export async function listen(server: http.Server): Promise<{ port: number; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
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
  logs: string[];
  get(path: string, headers?: http.OutgoingHttpHeaders): Promise<RawResponse>;
  close(): Promise<void>;
}

/** The production app server (API + static files) on a free port, with its log lines captured. */
export async function startTestApp(
  options: Omit<ApiHandlerOptions, 'log' | 'meta' | 'timeoutMs' | 'maxResponseBytes'> &
    Partial<Pick<ApiHandlerOptions, 'meta' | 'timeoutMs' | 'maxResponseBytes'>>,
  staticDir = 'public',
): Promise<TestApp> {
  const logs: string[] = [];
  const api = createApiHandler({
    timeoutMs: 2000,
    maxResponseBytes: 64 * 1024 * 1024,
    meta: { upstream: 'remote' },
    ...options,
    log: (line) => logs.push(line),
  });
  const { port, close } = await listen(createAppServer({ api, staticDir }));
  return { port, logs, get: (path, headers) => rawRequest(port, path, { headers }), close };
}
