// @ts-check
// An upstream that builds each answer afresh, as a real service does (the sandbox keeps the bodies it
// has made): the records of a few candidates, fetched once from the sandbox, serialised again for every
// request. `npm run bench` compares a large plain-JSON lookup through the proxy with one straight from here.
import http from 'node:http';

const [sandboxUrl = '', clientId = '', key = '', ...ids] = process.argv.slice(2);
/** @type {Map<string, unknown>} */
const records = new Map();
for (const id of ids) {
  const response = await fetch(`${sandboxUrl}/kyc/1.0/connect/${clientId}/refId/${id}`, { headers: { authorization: key } });
  records.set(id, await response.json());
}
const server = http.createServer((req, res) => {
  const id = decodeURIComponent((req.url ?? '').split('/').at(-1) ?? '');
  const record = records.get(id);
  if (req.headers.authorization !== key || !record) {
    res.writeHead(404, { 'content-type': 'application/json' });
    return void res.end('{"status":"error","code":404,"message":"Not found"}');
  }
  const body = Buffer.from(JSON.stringify(record));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  console.log(`fresh upstream at http://127.0.0.1:${address.port}`);
});
