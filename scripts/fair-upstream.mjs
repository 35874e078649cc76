// @ts-check
// An upstream for `npm run bench -- --fair` (bench-fair.mjs): `refId/heavy` is a record of `<n>` identity
// attributes of one letter each (`{"type":"string","value":"v"}`, the red team's hostile record of
// 30 November 2026), any other refId a small record. It runs in a process of its own, so that neither the
// server nor the bench's client shares its event loop.
import http from 'node:http';

const [countText = '100000'] = process.argv.slice(2);
/** @param {string} refId @param {string} identities */
const record = (refId, identities) =>
  Buffer.from(
    `{"status":"success","data":{"status":"approved","refId":"${refId}","recordId":"6650c0de0123456789abcd77",` +
      `"isArchived":false,"blockPassID":"bp-fair","submitCount":1,"identities":{${identities}}}}`,
  );
const heavy = record('heavy', Array.from({ length: Number(countText) }, (_, i) => `"a${i}":{"type":"string","value":"v"}`).join(','));

const server = http.createServer((req, res) => {
  const refId = /\/refId\/([^/?]+)$/.exec(req.url ?? '')?.[1];
  if (!refId) {
    res.writeHead(404, { 'content-type': 'application/json' });
    return void res.end('{"status":"error","code":404,"message":"Not found"}');
  }
  const body = refId === 'heavy' ? heavy : record(refId, '"given_name":{"type":"string","value":"Light"}');
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  console.log(`fair upstream at http://127.0.0.1:${address.port} (${heavy.length} bytes)`);
});
