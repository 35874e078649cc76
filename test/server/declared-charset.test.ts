import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declaredCharset } from '../../src/server/answer/answer-charset.ts';
import type { TokenSink } from '../../src/server/answer/json-bytes.ts';
import { JsonTokenizer } from '../../src/server/answer/json-tokens.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp, testEnvironment } from './http.ts';
import { getBytes, reassemble } from './parts.ts';
import { as, cleanupsAfterEach, proxyAccess } from './user-lookups.ts';

/**
 * An answer declaring a charset other than UTF-8 (`application/json; charset=ISO-8859-1`) is read in
 * that charset where Node's TextDecoder knows it: "Silvão", never "Silv\uFFFDo". An answer declaring
 * none, or UTF-8, is read as UTF-8, as before.
 */
const cleanups = cleanupsAfterEach();

async function serviceAnswering(contentType: string, body: Buffer) {
  const upstream = await startFakeUpstream();
  upstream.behave = (_req, res) => {
    res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
    res.end(body);
  };
  const environment = testEnvironment({ baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key' });
  const app = await startTestApp({
    environments: [{ ...environment, supportFields: ['rejectionReason'] }],
    access: proxyAccess(),
    settings: { keyArchivesOnExtract: 'accept' },
  });
  cleanups.push(app.close, upstream.close);
  return app;
}

const record = {
  status: 'rejected',
  refId: 'r',
  recordId: 'x',
  isArchived: false,
  customFields: { rejectionReason: 'Documento inválido' },
  identities: { family_name: { type: 'string', value: 'Silvão' } },
};
const latin1 = Buffer.from(JSON.stringify({ status: 'success', data: record }), 'latin1');

describe('an answer in a declared charset', () => {
  it('is read in ISO-8859-1 when it declares it, in the compliance user’s record part', async () => {
    const app = await serviceAnswering('application/json; charset=ISO-8859-1', latin1);
    const res = await getBytes(app.port, '/api/candidates/refId/r', as('ana'));
    expect(res.status).toBe(200);
    const { envelope } = await reassemble(res);
    expect(envelope.data.identities).toEqual({ family_name: { type: 'string', value: 'Silvão' } });
  });

  it('is labelled in the charset it declared on a compliance user’s plain answer, its bytes passed on as sent', async () => {
    const app = await serviceAnswering('application/json; charset=ISO-8859-1', latin1);
    const res = await getBytes(app.port, '/api/candidates/refId/r', { ...as('ana'), accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=ISO-8859-1');
    expect(res.body.equals(latin1)).toBe(true);
  });

  it('is labelled UTF-8 on a plain answer when it declared no charset', async () => {
    const utf8 = Buffer.from(latin1.toString('latin1'), 'utf8');
    const app = await serviceAnswering('application/json', utf8);
    const res = await getBytes(app.port, '/api/candidates/refId/r', { ...as('ana'), accept: 'application/json' });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('is read in windows-1252 when it declares it, in a support user’s status level', async () => {
    const body = Buffer.concat([latin1.subarray(0, -2), Buffer.from(',"note":"\x80"}}', 'latin1')]);
    const app = await serviceAnswering('application/json;charset="windows-1252"', body);
    const res = await getBytes(app.port, '/api/candidates/refId/r', { ...as('sam', 'support'), accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.body.toString('utf8')).toContain('Documento inválido');
    expect(res.body.toString('utf8')).not.toContain('\uFFFD');
  });
});

/** The strings of `body` (a JSON array of strings) as the tokenizer reads them in `charset`, cut every `cut` bytes. */
function readStrings(body: Buffer, charset: string | undefined, cut: number): string[] {
  const strings: string[] = [''];
  const sink: TokenSink = {
    open() {},
    close() {},
    key() {},
    startString() {},
    text(piece) {
      strings[strings.length - 1] += piece.text;
    },
    endString: () => void strings.push(''),
    scalar() {},
  };
  const tokenizer = new JsonTokenizer(sink, charset);
  for (let at = 0; at < body.length; at += cut) tokenizer.write(body.subarray(at, at + cut));
  return strings.slice(0, -1);
}

describe('a UTF-8 answer labelled with a single-byte charset', () => {
  const labels = ['us-ascii', 'ISO-8859-1', 'latin1', 'windows-1252', 'iso-8859-2', 'iso-8859-15', 'koi8-r'];

  it('reads a string whose bytes are valid UTF-8 as UTF-8, whatever charset is declared, however the body is cut', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        fc.constantFrom(...labels),
        fc.integer({ min: 1, max: 9 }),
        (text, label, cut) => {
          const body = Buffer.from(JSON.stringify([text, 'x', text]), 'utf8');
          expect(readStrings(body, declaredCharset(`application/json; charset=${label}`), cut)).toEqual([text, 'x', text]);
        },
      ),
    );
  });

  it('reads a string whose Latin-1 bytes are not valid UTF-8 in ISO-8859-1, however the body is cut', () => {
    const latin1Text = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((code) => String.fromCharCode(code)), maxLength: 20 });
    fc.assert(
      fc.property(latin1Text, fc.integer({ min: 1, max: 9 }), (text, cut) => {
        const bytes = Buffer.from(JSON.stringify([text]), 'latin1');
        fc.pre(!isUtf8(bytes));
        // ISO-8859-1 is read as windows-1252 (WHATWG): 0x80 to 0x9f are not JSON text here, so the two agree.
        fc.pre(![...text].some((c) => c.charCodeAt(0) >= 0x80 && c.charCodeAt(0) < 0xa0));
        expect(readStrings(bytes, declaredCharset('application/json; charset=ISO-8859-1'), cut)).toEqual([text]);
      }),
    );
  });

  it('shows "Silvão Müller" sent in UTF-8 under charset=us-ascii as that, not "SilvÃ£o MÃ¼ller"', async () => {
    const named = { ...record, identities: { family_name: { type: 'string', value: 'Silvão Müller' } } };
    const body = Buffer.from(JSON.stringify({ status: 'success', data: named }), 'utf8');
    const app = await serviceAnswering('application/json; charset=us-ascii', body);
    const res = await getBytes(app.port, '/api/candidates/refId/r', as('ana'));
    expect(res.status).toBe(200);
    const { envelope } = await reassemble(res);
    expect(envelope.data.identities).toEqual({ family_name: { type: 'string', value: 'Silvão Müller' } });
  });
});

describe('declaredCharset', () => {
  it('names a charset other than UTF-8 that TextDecoder knows and that keeps ASCII as ASCII, and nothing else', () => {
    expect(declaredCharset('application/json; charset=ISO-8859-1')).toBe('windows-1252');
    expect(declaredCharset('application/json; charset="latin1"')).toBe('windows-1252');
    expect(declaredCharset('application/json; charset=iso-8859-2')).toBe('iso-8859-2');
    for (const utf8 of [undefined, '', 'application/json', 'application/json; charset=utf-8', 'application/json; charset=UTF8']) {
      expect(declaredCharset(utf8)).toBeUndefined();
    }
    // Not known, or not ASCII where JSON's punctuation is: read as UTF-8 (the page counts what it replaced).
    for (const other of ['x-unknown', 'utf-16le', 'shift_jis', 'iso-2022-kr']) {
      expect(declaredCharset(`application/json; charset=${other}`)).toBeUndefined();
    }
  });

  it('reads every string as TextDecoder decodes its bytes in that charset, however the body is cut', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 40 }), fc.integer({ min: 1, max: 8 }), (raw, cut) => {
        // Bytes 0x20 to 0xff, but the quote and the backslash: any of them is text in windows-1252.
        const bytes = Buffer.from([...raw].map((byte) => (byte < 0x20 || byte === 0x22 || byte === 0x5c ? 0x41 : byte)));
        const body = Buffer.concat([Buffer.from('["'), bytes, Buffer.from('"]')]);
        const strings = readStrings(body, 'windows-1252', cut);
        // Decoded as a stream: Node 20's one-shot decode of a Buffer reads windows-1252 as ISO-8859-1 (0x80 as U+0080, not €).
        // Bytes that are valid UTF-8 are read as UTF-8, whatever is declared.
        const whole = new TextDecoder('windows-1252');
        const expected = isUtf8(bytes) ? bytes.toString('utf8') : whole.decode(bytes, { stream: true }) + whole.decode();
        expect(strings[0]).toBe(expected);
      }),
    );
  });
});
