// @ts-check
// An upstream for `npm run bench -- --plain` (bench-plain.mjs): every candidate lookup with the key it is
// started with is answered by one record of about `<mb>` MB, four identity pictures of base64 letters, made
// once at the start and sent as one write (a near service answering from memory, as fast as loopback goes).
// It runs in a process of its own, so that neither the proxies nor the bench's client share its event loop.
import { randomBytes } from 'node:crypto';
import http from 'node:http';

const [mbText = '32', key = ''] = process.argv.slice(2);
const PICTURES = ['passport', 'selfie', 'selfie_national_id', 'proof_of_address'];
// Base64 makes four letters of three bytes: each picture's bytes so that the record is about `mb` MB.
const pictureBytes = Math.floor((Number(mbText) * 1024 * 1024 * 3) / 4 / PICTURES.length);
/** @type {Record<string, { type: string; value: string }>} */
const identities = { given_name: { type: 'string', value: 'Bench' }, family_name: { type: 'string', value: 'Plain' } };
for (const name of PICTURES) identities[name] = { type: 'base64', value: randomBytes(pictureBytes).toString('base64') };
const body = Buffer.from(
  JSON.stringify({
    status: 'success',
    data: {
      status: 'approved',
      refId: 'plain-1',
      recordId: '6650c0de0123456789abcd35',
      isArchived: false,
      blockPassID: 'bp-bench-plain',
      submitCount: 1,
      approvedDate: '2026-11-20T10:00:00.000Z',
      identities,
    },
  }),
);

const server = http.createServer((req, res) => {
  const known = /^\/kyc\/1\.0\/connect\/[^/]+\/refId\/plain-1$/.test(req.url ?? '') && req.headers.authorization === key;
  if (!known) {
    res.writeHead(404, { 'content-type': 'application/json' });
    return void res.end('{"status":"error","code":404,"message":"Not found"}');
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  console.log(`plain upstream at http://127.0.0.1:${address.port} (${body.length} bytes)`);
});
