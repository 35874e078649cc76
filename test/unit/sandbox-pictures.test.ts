import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { drawPicture, type PictureSpec } from '../../src/server/sandbox/images.ts';

const spec: PictureSpec = { kind: 'national_id', lines: ['KOVACS ESZTER'], format: 'jpeg', width: 360, height: 240 };
const pixel = (image: { data: Uint8Array; width: number }, x: number, y: number) => [
  ...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3),
];
const close = (a: number[], b: number[]) => a.every((value, i) => Math.abs(value - b[i]!) < 24);
const BAND = [14, 116, 144];

describe('sandbox pictures turned a quarter', () => {
  it('draws upright pictures with the coloured band along the top', () => {
    const upright = jpeg.decode(drawPicture(spec));
    expect([upright.width, upright.height]).toEqual([360, 240]);
    expect(close(pixel(upright, 5, 5), BAND)).toBe(true);
  });

  it('stores a sideways picture turned anticlockwise: the band runs down the left edge', () => {
    const bytes = drawPicture({ ...spec, orientation: 'sideways' });
    const sideways = jpeg.decode(bytes);
    expect([sideways.width, sideways.height]).toEqual([240, 360]);
    expect(close(pixel(sideways, 5, 180), BAND)).toBe(true);
    expect(close(pixel(sideways, 235, 180), BAND)).toBe(false);
    expect(bytes.includes(Buffer.from('Exif\0\0', 'latin1'))).toBe(false);
  });

  it('tags the same pixels with EXIF Orientation 6, so that browsers show them upright', () => {
    const bytes = drawPicture({ ...spec, orientation: 'exif' });
    const decoded = jpeg.decode(bytes);
    expect([decoded.width, decoded.height]).toEqual([240, 360]);
    const exif = bytes.indexOf(Buffer.from('Exif\0\0', 'latin1'));
    expect(exif).toBeGreaterThan(2);
    expect([...bytes.subarray(exif - 4, exif - 2)]).toEqual([0xff, 0xe1]);
    expect([...bytes.subarray(exif + 6 + 10, exif + 6 + 20)]).toEqual([0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06]);
  });
});
