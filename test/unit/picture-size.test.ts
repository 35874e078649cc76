import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { isTooLargeToShow, pictureSize, SIZE_HEAD_BYTES } from '../../src/kyc/contract/picture-size.ts';
import { base64PictureSize } from '../../src/kyc/view/image.ts';

/** A picture of `width` × `height` in each format the page shows, as sharp (libvips) writes it. */
const picture = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#c0ffee' } });

describe('pictureSize', () => {
  it.each([
    ['JPEG', (p: Sharp) => p.jpeg()],
    ['progressive JPEG', (p: Sharp) => p.jpeg({ progressive: true })],
    ['PNG', (p: Sharp) => p.png()],
    ['lossy WebP', (p: Sharp) => p.webp()],
    ['lossless WebP', (p: Sharp) => p.webp({ lossless: true })],
    ['WebP with metadata (extended)', (p: Sharp) => p.webp().withMetadata({ exif: { IFD0: { Copyright: 'x' } } })],
    ['GIF', (p: Sharp) => p.gif()],
  ])('reads a %s header as its decoder does', async (_, encode) => {
    const bytes = new Uint8Array(await encode(picture(641, 479)).toBuffer());
    expect(pictureSize(bytes)).toEqual({ width: 641, height: 479 });
    expect(base64PictureSize(Buffer.from(bytes).toString('base64'))).toEqual({ width: 641, height: 479 });
  });

  it('finds a JPEG frame header past the first bytes, behind metadata, when given all of them', async () => {
    const jpeg = new Uint8Array(await picture(30, 20).jpeg().toBuffer());
    // Two comment segments of 60 kB each between the start of image and the rest.
    const comment = new Uint8Array(60_000).fill(0x20);
    comment.set([0xff, 0xfe, (59_998 >> 8) & 0xff, 59_998 & 0xff]);
    const padded = new Uint8Array([...jpeg.subarray(0, 2), ...comment, ...comment, ...jpeg.subarray(2)]);
    expect(pictureSize(padded.subarray(0, SIZE_HEAD_BYTES))).toBeUndefined();
    expect(pictureSize(padded)).toEqual({ width: 30, height: 20 });
    expect(base64PictureSize(Buffer.from(padded).toString('base64'))).toEqual({ width: 30, height: 20 });
  });

  it('attack: a GIF whose first frame reaches past its 1 × 1 screen counts the frame', () => {
    const gif = new Uint8Array(40);
    gif.set([...Buffer.from('GIF89a'), 1, 0, 1, 0, 0, 0, 0]);
    gif.set([0x2c, 0, 0, 0, 0, 0x20, 0x4e, 0x20, 0x4e, 0], 13);
    expect(pictureSize(gif)).toEqual({ width: 20000, height: 20000 });
  });

  it('bytes that end before the size, or are no picture, have none', () => {
    expect(pictureSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBeUndefined();
    expect(pictureSize(new Uint8Array(100))).toBeUndefined();
  });

  it('50 megapixels are shown; one pixel more is not', () => {
    expect(isTooLargeToShow({ width: 10_000, height: 5_000 })).toBe(false);
    expect(isTooLargeToShow({ width: 10_000, height: 5_001 })).toBe(true);
    // A 50-megapixel phone camera's photo.
    expect(isTooLargeToShow({ width: 8160, height: 6120 })).toBe(false);
  });
});
