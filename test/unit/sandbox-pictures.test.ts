import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { drawPicture, type PictureSpec } from '../../src/server/sandbox/images.ts';

const spec: PictureSpec = { kind: 'national_id', lines: ['KOVACS ESZTER'], format: 'jpeg', width: 360, height: 240 };
/** The stored pixels, as they are in the file (EXIF orientation not applied), or as a browser shows them (`upright`). */
const decode = async (bytes: Buffer, upright = false) => {
  const { data, info } = await sharp(bytes, { autoOrient: upright }).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
};
const pixel = (image: Awaited<ReturnType<typeof decode>>, x: number, y: number) => [
  ...image.data.subarray((y * image.width + x) * image.channels, (y * image.width + x) * image.channels + 3),
];
const close = (a: number[], b: number[]) => a.every((value, i) => Math.abs(value - b[i]!) < 24);
const BAND = [14, 116, 144];

describe('sandbox pictures turned a quarter', () => {
  it('draws upright pictures with the coloured band along the top', async () => {
    const upright = await decode(await drawPicture(spec));
    expect([upright.width, upright.height]).toEqual([360, 240]);
    expect(close(pixel(upright, 5, 5), BAND)).toBe(true);
    expect(close(pixel(upright, 5, 235), BAND)).toBe(false);
  });

  it('stores a sideways picture turned anticlockwise: the band runs down the left edge', async () => {
    const bytes = await drawPicture({ ...spec, orientation: 'sideways' });
    const sideways = await decode(bytes);
    expect([sideways.width, sideways.height]).toEqual([240, 360]);
    expect(close(pixel(sideways, 5, 180), BAND)).toBe(true);
    expect(close(pixel(sideways, 235, 180), BAND)).toBe(false);
    expect((await sharp(bytes).metadata()).orientation).toBeUndefined();
    expect(bytes.includes(Buffer.from('Exif\0\0', 'latin1'))).toBe(false);
  });

  it('tags the same pixels with EXIF Orientation 6, so that browsers show them upright', async () => {
    const bytes = await drawPicture({ ...spec, orientation: 'exif' });
    const stored = await decode(bytes);
    expect([stored.width, stored.height]).toEqual([240, 360]);
    expect(close(pixel(stored, 5, 180), BAND)).toBe(true);
    expect((await sharp(bytes).metadata()).orientation).toBe(6);
    // Orientation 6 applied (a quarter clockwise), as a browser does: upright, the band along the top again.
    const shown = await decode(bytes, true);
    expect([shown.width, shown.height]).toEqual([360, 240]);
    expect(close(pixel(shown, 180, 5), BAND)).toBe(true);
    expect(close(pixel(shown, 180, 235), BAND)).toBe(false);
  });

  it('draws the same bytes for the same spec, in every format and orientation', async () => {
    for (const variant of [spec, { ...spec, format: 'png' as const }, { ...spec, orientation: 'exif' as const }]) {
      const [first, second] = await Promise.all([drawPicture(variant), drawPicture(variant)]);
      expect(first.equals(second)).toBe(true);
    }
  });
});
