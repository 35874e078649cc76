import http from 'node:http';
import { listen } from './http.ts';

export interface SeenRequest {
  method: string;
  /** The request target exactly as it arrived. */
  path: string;
  headers: http.IncomingHttpHeaders;
}

export type Behaviour = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A programmable upstream for fault injection: every request is recorded, `behave` decides the answer. */
export async function startFakeUpstream() {
  const seen: SeenRequest[] = [];
  let behave: Behaviour = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"status":"success","data":{}}');
  };
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    behave(req, res);
  });
  const { port, close } = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    set behave(next: Behaviour) {
      behave = next;
    },
    close,
  };
}

/** The service limiting requests as it answers it: 429, its wait (30 s) in the body's `extra.retryAfter` (upstream-api-facts.md). */
export const limitingRequests: Behaviour = (_req, res) => {
  res.writeHead(429, { 'content-type': 'application/json' });
  res.end('{"status":"error","code":429,"extra":{"retryAfter":30}}');
};
