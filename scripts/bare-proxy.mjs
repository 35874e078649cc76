// @ts-check
// The least a Node.js proxy can do: forward GET to the upstream, with the key the caller sends, and pipe
// the answer back.
// No checks, no audit, no log. `npm run bench` runs it beside the real proxy as a reference point, to
// tell what Node's HTTP stack costs from what this project's proxy adds.
import http from 'node:http';
import sandbox from '../src/server/sandbox/credentials.json' with { type: 'json' };

const [upstreamUrl = ''] = process.argv.slice(2);
const upstream = new URL(upstreamUrl);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const server = http.createServer((req, res) => {
  const path = (req.url ?? '/').replace(/^\/api\/candidates\//, `/kyc/1.0/connect/${sandbox.clientId}/`);
  const upstreamReq = http.request(
    { host: upstream.hostname, port: upstream.port, path, headers: { authorization: req.headers.authorization }, agent },
    (upstreamRes) => {
      /** @type {http.OutgoingHttpHeaders} */
      const headers = { 'content-type': upstreamRes.headers['content-type'] };
      if (upstreamRes.headers['content-length']) headers['content-length'] = upstreamRes.headers['content-length'];
      res.writeHead(upstreamRes.statusCode ?? 502, headers);
      upstreamRes.pipe(res);
    },
  );
  upstreamReq.on('error', () => res.destroy());
  upstreamReq.end();
});
server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  console.log(`bare proxy running at http://127.0.0.1:${address.port}/`);
});
