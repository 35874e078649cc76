import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileExtensionOf, sniffedTypeOfMime, sniffImageType } from '../../src/kyc/contract/picture-type.ts';
import { greyTiff, heavySvg, paddedPdf } from '../fixtures/hostile-pictures.mjs';
import { formatBytes } from '../../src/kyc/contract/bytes.ts';
import { base64ByteLength, base64Head, base64ToBytes, cleanBase64 } from '../../src/kyc/view/image.ts';
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
    ['unknown', 'BMW is not a bitmap', false],
  ])('classifies %s data (raster: %s)', (label, content, raster) => {
    const type = sniffImageType(new Uint8Array(Buffer.from(content, 'utf8')));
    expect(type.label).toBe(label);
    expect(type.raster).toBe(raster);
  });

  const bytes = (...parts: Array<string | number[]>) =>
    new Uint8Array(Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part)))));

  it.each([
    ['TIFF', 'image/tiff', 'tif', greyTiff(8, 8)],
    ['TIFF', 'image/tiff', 'tif', bytes('MM', [0, 42, 0, 0, 0, 8])],
    ['TIFF', 'image/tiff', 'tif', bytes('II+', [0, 8, 0, 0, 0])],
    ['HEIF', 'image/heic', 'heic', bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0], 'mif1heic')],
    ['AVIF', 'image/avif', 'avif', bytes([0, 0, 0, 0x1c], 'ftypavif', [0, 0, 0, 0], 'avifmif1')],
    ['JPEG 2000', 'image/jp2', 'jp2', bytes([0, 0, 0, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a])],
    ['BMP', 'image/bmp', 'bmp', bytes('BM', [0x36, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 40, 0, 0, 0])],
    ['PDF', 'application/pdf', 'pdf', paddedPdf(100)],
    ['SVG', 'image/svg+xml', 'svg', heavySvg(1, 0)],
  ])('recognises %s (%s) by its bytes, never as a picture to render, and names its extension', (label, mime, extension, content) => {
    const type = sniffImageType(content.subarray(0, 64));
    expect(type).toEqual({ label, mime, raster: false });
    expect(sniffedTypeOfMime(mime)).toEqual(type);
    expect(fileExtensionOf(type)).toBe(extension);
  });

  it('gives a page, other markup and anything unknown the extension .bin, which nothing opens by itself', () => {
    for (const content of ['<!doctype html><script>', '<?xml version="1.0"?><x/>', '\u0000garbage']) {
      expect(fileExtensionOf(sniffImageType(new Uint8Array(Buffer.from(content))))).toBe('bin');
    }
  });

  it('never throws, and calls raster only bytes that open with the magic of JPEG, PNG, GIF or WebP', () => {
    const magic = [
      [0xff, 0xd8, 0xff],
      [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
      [...Buffer.from('GIF8')],
      [...Buffer.from('RIFF')],
    ];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 80 }),
          fc.constantFrom(...magic).chain((head) => fc.uint8Array({ maxLength: 60 }).map((rest) => new Uint8Array([...head, ...rest]))),
        ),
        (head) => {
          const type = sniffImageType(head);
          if (type.raster) expect(magic.some((m) => m.every((byte, i) => head[i] === byte))).toBe(true);
          expect(sniffedTypeOfMime(type.mime).raster).toBe(type.raster);
        },
      ),
      { numRuns: 2000 },
    );
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
