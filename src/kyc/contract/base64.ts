/**
 * base64 as the service sends identity pictures: cleaned, sized and decoded (the browser's image.ts and
 * the server's audit of what an answer held share them, so that both sniff a picture the same way).
 */
import { SNIFF_BYTES } from './picture-type.ts';

const BASE64_PREFIX = /^data:[^,]*;base64,/;

/** Some producers prepend a data-URL header; whitespace may be wrapped in. */
export function cleanBase64(value: string): string {
  const withoutPrefix = value.length > 5 && value.startsWith('data:') ? value.replace(BASE64_PREFIX, '') : value;
  return /\s/.test(withoutPrefix) ? withoutPrefix.replace(/\s+/g, '') : withoutPrefix;
}

/** Decoded size in bytes, from the base64 length alone. */
export function base64ByteLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

type Base64Constructor = Uint8ArrayConstructor & { fromBase64?: (text: string) => Uint8Array };

/**
 * base64 to bytes with the fastest path there is: Uint8Array.fromBase64 where the runtime has it,
 * otherwise atob in chunks (a multi-MB string at once would double the peak memory).
 * Throws on invalid base64.
 */
export function base64ToBytes(base64: string): Uint8Array {
  const native = (Uint8Array as Base64Constructor).fromBase64;
  if (native) return native(base64);
  const out = new Uint8Array(base64ByteLength(base64));
  const CHUNK = 1 << 16; // a multiple of 4
  let offset = 0;
  for (let i = 0; i < base64.length; i += CHUNK) {
    const binary = atob(base64.slice(i, i + CHUNK));
    for (let j = 0; j < binary.length; j++) out[offset + j] = binary.charCodeAt(j);
    offset += binary.length;
  }
  return offset === out.length ? out : out.subarray(0, offset);
}

/** The first bytes only, for sniffing without decoding megabytes; undefined when they are not base64. */
export function base64Head(base64: string, bytes = SNIFF_BYTES): Uint8Array | undefined {
  const chars = Math.ceil(bytes / 3) * 4;
  try {
    return base64ToBytes(base64.slice(0, chars));
  } catch {
    return undefined;
  }
}
