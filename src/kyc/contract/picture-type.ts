/**
 * The real type of a picture's bytes: the service sends no MIME type, so it is sniffed from the magic
 * bytes. Only raster types are ever shown inline. Shared by the browser, which decides what it renders,
 * and the server, which labels a picture part (and sends anything else as inert octets) and decodes for a
 * preview only the raster types it names (answer/picture-preview.ts).
 */
export interface SniffedType {
  /** Short name for people: "JPEG", "PNG", "SVG", "PDF", "TIFF", "HTML", "unknown" (FILE_TYPE_LABELS). */
  label: FileTypeLabel;
  mime: string;
  /** JPEG, PNG, WebP and GIF: safe to render with <img>. */
  raster: boolean;
}

/**
 * Every label sniffImageType and sniffedTypeOfMime give: what the export line of a saved document file
 * may name as its type (api.ts), so that the line holds a word of this list, never text from the page.
 */
export const FILE_TYPE_LABELS = [
  'JPEG',
  'PNG',
  'GIF',
  'WebP',
  'PDF',
  'TIFF',
  'HEIF',
  'AVIF',
  'JPEG 2000',
  'BMP',
  'SVG',
  'HTML',
  'XML',
  'unknown',
] as const;
export type FileTypeLabel = (typeof FILE_TYPE_LABELS)[number];

type Named = { label: FileTypeLabel; mime: string; extension: string };
type Known = Named & { test: (b: Uint8Array) => boolean };

const RASTER: Known[] = [
  { label: 'JPEG', mime: 'image/jpeg', extension: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    label: 'PNG',
    mime: 'image/png',
    extension: 'png',
    test: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => b[i] === byte),
  },
  { label: 'GIF', mime: 'image/gif', extension: 'gif', test: (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a' },
  { label: 'WebP', mime: 'image/webp', extension: 'webp', test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
];

/** The ISO media brands of HEIF stills (HEIC and the like) and of AVIF, at bytes 8-12 after `ftyp`. */
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);
const AVIF_BRANDS = new Set(['avif', 'avis']);
const isoBrand = (b: Uint8Array) => (ascii(b, 4, 8) === 'ftyp' ? ascii(b, 8, 12) : '');

/**
 * Picture formats recognised by their bytes but never rendered (the browser) nor decoded (the server):
 * named on the page, and offered as a download. Document scanners write TIFF and PDF, phones HEIC, and
 * passport chips JPEG 2000; none is shown, and SVG (a program as much as a picture) least of all.
 */
const NOT_RASTER: Known[] = [
  { label: 'PDF', mime: 'application/pdf', extension: 'pdf', test: (b) => ascii(b, 0, 5) === '%PDF-' },
  {
    label: 'TIFF',
    mime: 'image/tiff',
    extension: 'tif',
    // Little- or big-endian, classic (42) or BigTIFF (43).
    test: (b) => ['II*\u0000', 'MM\u0000*', 'II+\u0000', 'MM\u0000+'].includes(ascii(b, 0, 4)),
  },
  { label: 'HEIF', mime: 'image/heic', extension: 'heic', test: (b) => HEIF_BRANDS.has(isoBrand(b)) },
  { label: 'AVIF', mime: 'image/avif', extension: 'avif', test: (b) => AVIF_BRANDS.has(isoBrand(b)) },
  {
    label: 'JPEG 2000',
    mime: 'image/jp2',
    extension: 'jp2',
    test: (b) =>
      [0, 0, 0, 0x0c, 0x6a, 0x50, 0x20, 0x20].every((byte, i) => b[i] === byte) || (b[0] === 0xff && b[1] === 0x4f && b[2] === 0xff),
  },
  // "BM", then a DIB header of one of the sizes the format has had (so that text beginning "BM" is not one).
  {
    label: 'BMP',
    mime: 'image/bmp',
    extension: 'bmp',
    test: (b) => ascii(b, 0, 2) === 'BM' && [12, 40, 52, 56, 64, 108, 124].includes(b[14] ?? 0),
  },
];

/** Markup, told by its text (sniffImageType): SVG keeps its extension; a page, or other markup, gets none a browser opens. */
const MARKUP: Named[] = [
  { label: 'SVG', mime: 'image/svg+xml', extension: 'svg' },
  { label: 'HTML', mime: 'text/html', extension: 'bin' },
];

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/** Bytes needed by sniffImageType. */
export const SNIFF_BYTES = 64;

export function sniffImageType(head: Uint8Array): SniffedType {
  for (const type of RASTER) if (type.test(head)) return { label: type.label, mime: type.mime, raster: true };
  for (const type of NOT_RASTER) if (type.test(head)) return { label: type.label, mime: type.mime, raster: false };
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

const KNOWN: Named[] = [...RASTER, ...NOT_RASTER, ...MARKUP];

/** What a type the server sniffed (a picture part's reference) stands for; raster only for the four kinds rendered. */
export function sniffedTypeOfMime(mime: string): SniffedType {
  const raster = RASTER.find((type) => type.mime === mime);
  if (raster) return { label: raster.label, mime, raster: true };
  return { label: KNOWN.find((type) => type.mime === mime)?.label ?? 'unknown', mime, raster: false };
}

/**
 * The file name extension a download of these bytes is given: the format's own, but for markup other than
 * SVG and anything unknown, `bin`, which no browser or viewer opens by itself.
 */
export function fileExtensionOf(type: SniffedType): string {
  return KNOWN.find((known) => known.mime === type.mime)?.extension ?? 'bin';
}
