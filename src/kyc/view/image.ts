/**
 * base64 identity pictures: the service sends no MIME type, so the real type is sniffed from the
 * magic bytes. Only raster types are ever shown inline.
 */
export interface SniffedType {
  /** Short name for people: "JPEG", "PNG", "SVG", "PDF", "HTML", "unknown". */
  label: string;
  mime: string;
  /** JPEG, PNG, WebP and GIF: safe to render with <img>. */
  raster: boolean;
}

const RASTER: Array<{ label: string; mime: string; test: (b: Uint8Array) => boolean }> = [
  { label: 'JPEG', mime: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    label: 'PNG',
    mime: 'image/png',
    test: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => b[i] === byte),
  },
  { label: 'GIF', mime: 'image/gif', test: (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a' },
  { label: 'WebP', mime: 'image/webp', test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
];

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/** Bytes needed by sniffImageType. */
export const SNIFF_BYTES = 64;

export function sniffImageType(head: Uint8Array): SniffedType {
  for (const type of RASTER) if (type.test(head)) return { label: type.label, mime: type.mime, raster: true };
  if (ascii(head, 0, 5) === '%PDF-') return { label: 'PDF', mime: 'application/pdf', raster: false };
  const text = new TextDecoder('utf-8', { fatal: false })
    .decode(head)
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (text.startsWith('<svg') || (text.startsWith('<?xml') && text.includes('<svg'))) {
    return { label: 'SVG', mime: 'image/svg+xml', raster: false };
  }
  if (text.startsWith('<!doctype html') || text.startsWith('<html') || text.startsWith('<')) {
    return { label: text.startsWith('<?xml') ? 'XML' : 'HTML', mime: 'text/html', raster: false };
  }
  return { label: 'unknown', mime: 'application/octet-stream', raster: false };
}

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

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
