/**
 * A raster picture's width and height, read from its header as its decoder reads them, before anything
 * decodes it. A few hundred kB of PNG can hold a picture of 20000 × 20000 pixels, which the browser
 * decodes to 1.6 GB; the page reads the size first and shows such a picture only as a file to download.
 * Shared by the browser (picture-preview.tsx, read-parts.ts) and the server (its preview limit).
 */

export interface PictureSize {
  width: number;
  height: number;
}

/**
 * Width × height past which a picture is never decoded, neither by the server for a preview nor by the
 * browser for the page. 50 megapixels: a phone's main camera takes 12 to 50 (8160 × 6120), an ID scanner
 * less; decoded, 50 megapixels take 200 MB of the tab's memory, and each picture above takes more.
 */
export const LARGEST_SHOWN_PIXELS = 50_000_000;

export const isTooLargeToShow = (size: PictureSize) => size.width * size.height > LARGEST_SHOWN_PIXELS;

/** Bytes read first: every format's size is in it, a JPEG's unless metadata comes before it (then all is read). */
export const SIZE_HEAD_BYTES = 64 * 1024;

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => b[i]! * 0x1000000 + ((b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);
const ascii = (b: Uint8Array, start: number, end: number) => String.fromCharCode(...b.subarray(start, end));

/**
 * The size `bytes` declare, or undefined when they end before it or hold none (a decoder cannot read such a
 * picture either). `bytes` may be the picture's first bytes only: a JPEG undefined from them may have its
 * size further on.
 */
export function pictureSize(bytes: Uint8Array): PictureSize | undefined {
  if (bytes.length < 30) return undefined;
  if (bytes[0] === 0x89 && ascii(bytes, 1, 4) === 'PNG' && ascii(bytes, 12, 16) === 'IHDR') {
    return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
  }
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return webpSize(bytes);
  if (ascii(bytes, 0, 3) === 'GIF') return gifSize(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  return undefined;
}

function webpSize(b: Uint8Array): PictureSize | undefined {
  const chunk = ascii(b, 12, 16);
  // Lossy: 14 bits each after the key frame's start code; lossless: 14 bits each, less one; extended: the canvas, 24 bits each, less one.
  if (chunk === 'VP8 ') return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  return undefined;
}

/**
 * The logical screen, or the first frame where it reaches past it: a decoder may grow the screen to the
 * frame, so the larger counts.
 */
function gifSize(b: Uint8Array): PictureSize | undefined {
  const screen = { width: u16le(b, 6), height: u16le(b, 8) };
  let i = 13 + (b[10]! & 0x80 ? 3 << ((b[10]! & 7) + 1) : 0);
  while (i < b.length) {
    if (b[i] === 0x2c && i + 9 <= b.length) {
      const width = Math.max(screen.width, u16le(b, i + 1) + u16le(b, i + 5));
      return { width, height: Math.max(screen.height, u16le(b, i + 3) + u16le(b, i + 7)) };
    }
    if (b[i] !== 0x21) return screen;
    // An extension: its label, then blocks of data, each its length first, ended by an empty one.
    i += 2;
    while (i < b.length && b[i] !== 0) i += b[i]! + 1;
    i++;
  }
  return undefined;
}

/** The first frame header (SOF0 to SOF15, less DHT, JPG and DAC), found by stepping over each segment by its length. */
function jpegSize(b: Uint8Array): PictureSize | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    // Fill bytes, and the markers without a length (restart markers, TEM).
    if (marker === 0xff || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += marker === 0xff ? 1 : 2;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: u16be(b, i + 7), height: u16be(b, i + 5) };
    }
    if (marker === 0xd9 || marker === 0xda) return undefined;
    i += 2 + u16be(b, i + 2);
  }
  return undefined;
}
