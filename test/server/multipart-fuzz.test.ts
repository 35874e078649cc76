import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getBytes, reassemble } from './parts.ts';
import { serviceAndApp } from './service-app.ts';
import { anyCodePoint, anyString } from '../support/any-code-point.ts';

/**
 * Generated records through the answer in parts and back: whatever the service sends that opens as a
 * candidate envelope, the first part with its pictures put back equals the body as JSON.parse reads it.
 */

const { upstream, app } = await serviceAndApp((baseUrl) => ({ upstream: { baseUrl, clientId: 'c', apiKey: 'fuzz-test-key-41d7' } }));

const bytes = fc.uint8Array({ minLength: 0, maxLength: 3000 });
const canonical = bytes.map((b) => Buffer.from(b).toString('base64'));
/** Past the 64 K characters the server decodes at once, so that a stray character can fall in any piece. */
const large = fc.uint8Array({ minLength: 50_000, maxLength: 120_000 }).map((b) => Buffer.from(b).toString('base64'));
const spoiled = fc
  .tuple(large, fc.nat(), fc.constantFrom('-', '_', ' ', '=', '!', '\n', 'é'))
  .map(([text, at, char]) => `${text.slice(0, at % text.length)}${char}${text.slice(at % text.length)}`);
/** Values a picture attribute may hold: canonical base64, and all the ways to be almost or not at all base64. */
const pictureValue = fc.oneof(
  { weight: 4, arbitrary: canonical },
  large,
  spoiled,
  canonical.map((text) => text.replaceAll('+', '-').replaceAll('/', '_')),
  canonical.map((text) => text.replace(/(.{76})/g, '$1\n')),
  canonical.map((text) => `data:image/png;base64,${text}`),
  canonical.map((text) => text.replace(/=+$/, '')),
  fc.constantFrom('QR==', 'QQ=', 'Q===', 'QUJD=A==', 'AA==AA==', '', '=', '===='),
  anyString(40),
);
const attribute = fc.record(
  {
    type: fc.oneof({ weight: 5, arbitrary: fc.constant('base64') }, fc.constant('string'), fc.jsonValue({ maxDepth: 1 })),
    value: fc.oneof({ weight: 4, arbitrary: pictureValue }, fc.jsonValue({ maxDepth: 2, stringUnit: anyCodePoint })),
    extra: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: ['type', 'value'] },
);
/** The value first or the type first: the server cannot count on an order. */
const orderedAttribute = fc
  .tuple(attribute, fc.boolean())
  .map(([a, valueFirst]) => (valueFirst ? Object.fromEntries(Object.entries(a).sort(([k]) => (k === 'value' ? -1 : 0))) : a));
const record = fc.record(
  {
    status: anyString(12),
    // The id asked for: another's record is refused (other-candidate.test.ts).
    refId: fc.constant('fuzz'),
    isArchived: fc.boolean(),
    identities: fc.dictionary(anyString(12), orderedAttribute, { maxKeys: 6 }),
    customFields: fc.jsonValue({ maxDepth: 3, stringUnit: anyCodePoint }),
    submitCount: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  },
  { requiredKeys: ['identities'] },
);
const body = fc
  .tuple(record, fc.constantFrom(undefined, 1, '\t'), fc.boolean())
  .map(([data, space, dataFirst]) => JSON.stringify(dataFirst ? { status: 'success', data } : { data, status: 'success' }, null, space))
  // The envelope's opening is checked before parts are made; a body the guard refuses is not this test's matter.
  .filter((text) => text.startsWith('{"status":"success"') || text.startsWith('{"data":{') || /^\{\s+"(status|data)"/.test(text));

// Generated cases by the thousand, all CPU: seconds on a quiet machine, up to a minute beside two busy
// processes (the run under load in .ci/run) or other work. Nothing here waits on a timer.
describe('answers in parts, fuzzed', { timeout: 120_000 }, () => {
  it('give back every generated record exactly, pictures byte for byte', async () => {
    let parts = 0;
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), async (text, gzip) => {
        upstream.behave = (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
          res.end(text);
        };
        const res = await getBytes(app.port, '/api/candidates/refId/fuzz', gzip ? { 'accept-encoding': 'gzip' } : {});
        expect(res.status).toBe(200);
        expect(res.cut).toBe(false);
        const reassembled = await reassemble(res);
        expect(reassembled.envelope).toEqual(JSON.parse(text));
        parts += reassembled.pictures.size;
      }),
      { numRuns: 150 },
    );
    // Not only text went through: many of the generated pictures were sent as binary parts (about one a
    // run; 98 in the fewest of 17 runs, so half of that leaves room for chance and still fails on none).
    expect(parts).toBeGreaterThan(50);
  });
});
