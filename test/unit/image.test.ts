import { describe, expect, it } from 'vitest';
import { sniffImageType } from '../../src/kyc/contract/picture-type.ts';
import { base64ByteLength, base64Head, base64ToBytes, cleanBase64, formatBytes } from '../../src/kyc/view/image.ts';
import { drawPicture } from '../../src/server/sandbox/images.ts';

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

describe('sniffImageType', () => {
  it('recognises real JPEG and PNG pictures', async () => {
    const jpeg = await drawPicture({ kind: 'passport', lines: ['x'], format: 'jpeg', width: 600, height: 400 });
    const png = await drawPicture({ kind: 'selfie', lines: ['x'], format: 'png', width: 600, height: 400 });
    expect(sniffImageType(base64Head(b64(jpeg))!)).toEqual({ label: 'JPEG', mime: 'image/jpeg', raster: true });
    expect(sniffImageType(base64Head(b64(png))!)).toEqual({ label: 'PNG', mime: 'image/png', raster: true });
  });

  it.each([
    ['GIF', 'GIF89a\u0001\u0000', true],
    ['WebP', 'RIFF\u0000\u0000\u0000\u0000WEBPVP8 ', true],
    ['SVG', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">', false],
    ['SVG', '<?xml version="1.0"?><svg>', false],
    ['SVG', '\uFEFF  <svg>', false],
    ['HTML', '<!DOCTYPE html><script>alert(1)</script>', false],
    ['HTML', '<html><body>', false],
    ['PDF', '%PDF-1.7\n%âãÏÓ', false],
    ['unknown', '\u0000\u0001\u0002garbage', false],
    ['unknown', '', false],
  ])('classifies %s data (raster: %s)', (label, content, raster) => {
    const type = sniffImageType(new Uint8Array(Buffer.from(content, 'utf8')));
    expect(type.label).toBe(label);
    expect(type.raster).toBe(raster);
  });
});

describe('base64', () => {
  it('decodes to the same bytes as Node, through the chunked path too', () => {
    const bytes = new Uint8Array(200_003).map((_, i) => (i * 7919) % 256);
    const decoded = base64ToBytes(b64(bytes));
    expect(decoded.length).toBe(bytes.length);
    expect(Buffer.from(decoded).equals(Buffer.from(bytes))).toBe(true);
  });

  it('knows the decoded size from the text length', () => {
    for (const n of [0, 1, 2, 3, 4, 1000, 1001, 1002]) expect(base64ByteLength(b64(new Uint8Array(n)))).toBe(n);
  });

  it('throws on invalid base64 instead of producing garbage', () => {
    expect(() => base64ToBytes('not base64 at all!!')).toThrow();
    expect(base64Head('!!!not base64')).toBeUndefined();
  });

  it('strips a data-URL prefix and wrapped lines', () => {
    expect(cleanBase64('data:image/png;base64,QUJD')).toBe('QUJD');
    expect(cleanBase64('QU\nJD\n')).toBe('QUJD');
  });

  it('formats sizes for people', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2150)).toBe('2.1 kB');
    expect(formatBytes(3_200_000)).toBe('3.1 MB');
  });
});
