// @ts-check
// The least a Node.js proxy can do: forward GET to the upstream, with the key the caller sends, and pipe
// the answer back.
// No checks, no audit, no log. `npm run bench` runs it beside the real proxy as a reference point, to
// tell what Node's HTTP stack costs from what this project's proxy adds.
// With `worker` after the upstream's URL, the least a proxy that checks its answers in a thread of its own
// could do (issue 35, docs/performance.md): each turn's chunks are handed to a worker thread, which reads
// a word of every 64 bytes (every cache line, and nothing more: no check), and handed back, then written,
// in order. The chunks' memory is transferred both ways, never copied. `npm run bench -- --plain` prints
// what that alone costs, against the bare proxy.
import http from 'node:http';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import sandbox from '../src/server/sandbox/credentials.json' with { type: 'json' };

if (!isMainThread) {
  parentPort?.on('message', (/** @type {{ id: number; chunks: ArrayBuffer[] }} */ batch) => {
    let seen = 0;
    for (const chunk of batch.chunks) {
      const words = new Uint32Array(chunk, 0, chunk.byteLength >> 2);
      for (let i = 0; i < words.length; i += 16) seen ^= words[i] ?? 0;
    }
    parentPort?.postMessage({ ...batch, seen }, batch.chunks);
  });
} else {
  const [upstreamUrl = '', mode = 'pipe'] = process.argv.slice(2);
  const upstream = new URL(upstreamUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const worker = mode === 'worker' ? new Worker(new URL(import.meta.url)) : undefined;
  /** @type {Map<number, (chunks: ArrayBuffer[]) => void>} */
  const answers = new Map();
  worker?.on('message', (/** @type {{ id: number; chunks: ArrayBuffer[] }} */ batch) => answers.get(batch.id)?.(batch.chunks));
  let nextId = 1;

  /**
   * Each turn's chunks to the worker and back, then written in order; the end once every batch is back.
   * @param {http.IncomingMessage} upstreamRes @param {http.ServerResponse} res @param {Worker} thread
   */
  const throughWorker = (upstreamRes, res, thread) => {
    const id = nextId++;
    /** @type {ArrayBuffer[]} */
    let batch = [];
    let away = 0;
    let ended = false;
    const finish = () => {
      if (!ended || away > 0 || batch.length > 0) return;
      answers.delete(id);
      res.end();
    };
    const send = () => {
      const chunks = batch;
      batch = [];
      away++;
      thread.postMessage({ id, chunks }, chunks);
    };
    answers.set(id, (chunks) => {
      away--;
      for (const chunk of chunks) res.write(Buffer.from(chunk));
      finish();
    });
    upstreamRes.on('data', (/** @type {Buffer} */ chunk) => {
      // A chunk that is all of its memory is handed over as it is; a part of a larger one, as a copy.
      const whole = chunk.byteOffset === 0 && chunk.length === chunk.buffer.byteLength;
      const memory = whole ? chunk.buffer : chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.length);
      if (batch.length === 0) setImmediate(send);
      batch.push(/** @type {ArrayBuffer} */ (memory));
    });
    upstreamRes.on('end', () => {
      ended = true;
      finish();
    });
  };

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').replace(/^\/api\/candidates\//, `/kyc/1.0/connect/${sandbox.clientId}/`);
    const upstreamReq = http.request(
      { host: upstream.hostname, port: upstream.port, path, headers: { authorization: req.headers.authorization }, agent },
      (upstreamRes) => {
        /** @type {http.OutgoingHttpHeaders} */
        const headers = { 'content-type': upstreamRes.headers['content-type'] };
        if (upstreamRes.headers['content-length']) headers['content-length'] = upstreamRes.headers['content-length'];
        res.writeHead(upstreamRes.statusCode ?? 502, headers);
        if (worker) throughWorker(upstreamRes, res, worker);
        else upstreamRes.pipe(res);
      },
    );
    upstreamReq.on('error', () => res.destroy());
    upstreamReq.end();
  });
  server.listen(0, '127.0.0.1', () => {
    const address = /** @type {import('node:net').AddressInfo} */ (server.address());
    console.log(`bare proxy running at http://127.0.0.1:${address.port}/`);
  });
}
