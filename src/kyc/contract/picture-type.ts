/**
 * The real type of a picture's bytes: the service sends no MIME type, so it is sniffed from the magic
 * bytes. Only raster types are ever shown inline. Shared by the browser, which decides what it renders,
 * and the server, which labels a picture part (and sends anything else as inert octets).
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

const LABELS_BY_MIME: Record<string, string> = {
  ...Object.fromEntries(RASTER.map((type) => [type.mime, type.label])),
  'application/pdf': 'PDF',
  'image/svg+xml': 'SVG',
  'text/html': 'HTML',
};

/** What a type the server sniffed (a picture part's reference) stands for; raster only for the four kinds rendered. */
export function sniffedTypeOfMime(mime: string): SniffedType {
  const raster = RASTER.find((type) => type.mime === mime);
  if (raster) return { label: raster.label, mime, raster: true };
  return { label: LABELS_BY_MIME[mime] ?? 'unknown', mime, raster: false };
}
