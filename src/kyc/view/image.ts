/**
 * base64 identity pictures, as the browser decodes them; their type is sniffed by picture-type.ts (shared
 * with the server, which sends pictures as binary parts).
 */
import { type PictureSize, pictureSize, SIZE_HEAD_BYTES } from '../contract/picture-size.ts';
import { base64ByteLength, base64Head, base64ToBytes } from '../contract/base64.ts';

export { base64ByteLength, base64Head, base64ToBytes, cleanBase64 } from '../contract/base64.ts';

/** The picture's width and height from its header (picture-size.ts): its first bytes decoded, or all of them when it is further on. */
export function base64PictureSize(base64: string): PictureSize | undefined {
  const size = pictureSize(base64Head(base64, SIZE_HEAD_BYTES) ?? new Uint8Array());
  if (size || base64ByteLength(base64) <= SIZE_HEAD_BYTES) return size;
  try {
    return pictureSize(base64ToBytes(base64));
  } catch {
    return undefined;
  }
}
