import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import sharp from 'sharp';

/** Pictures for the preview tests, made here: noise, so that they stay large once encoded. */

function noise(width: number, height: number): Buffer {
  return randomBytes(width * height * 3);
}

export function noiseJpeg(width: number, height: number, orientation?: number): Promise<Buffer> {
  const image = sharp(noise(width, height), { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 });
  return (orientation ? image.withMetadata({ orientation }) : image).toBuffer();
}

export function noisePng(width: number, height: number): Promise<Buffer> {
  return sharp(noise(width, height), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A PNG whose header says `width` × `height` (one grey byte per pixel), padded with an ancillary chunk
 * to `padTo` bytes so that it is large enough to be given a preview; its pixel data is a few bytes of one
 * row. A decoder that believed the header would allocate width × height bytes.
 */
export function claimedPng(width: number, height: number, padTo: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const data = chunk('IDAT', zlib.deflateSync(Buffer.alloc(width + 1)));
  const end = chunk('IEND', Buffer.alloc(0));
  const fixed = signature.length + 25 + data.length + end.length + 12;
  return Buffer.concat([signature, chunk('IHDR', header), chunk('pdDg', Buffer.alloc(Math.max(0, padTo - fixed), 0x61)), data, end]);
}

/** JPEG's magic bytes, then nothing a decoder can read. */
export function undecodableJpeg(bytes: number): Buffer {
  const out = Buffer.alloc(bytes, 0x5a);
  out.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return out;
}
