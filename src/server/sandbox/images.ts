import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { rasterizeText, textWidth } from './font.ts';

/**
 * Placeholder identity pictures for the sandbox: real, decodable JPEG and PNG files drawn here,
 * labelled so nobody mistakes them for real documents.
 */
export type PictureKind = 'passport' | 'selfie' | 'proof_of_address' | 'selfie_national_id' | 'driving_license' | 'national_id';
export type PictureFormat = 'jpeg' | 'png';
export type PictureOrientation = 'sideways' | 'exif';

export interface PictureSpec {
  kind: PictureKind;
  /** Lines printed on the document, such as the candidate's name. */
  lines: string[];
  format: PictureFormat;
  width: number;
  height: number;
  /** Adds sensor-like noise so the file weighs what a phone-camera photo does. */
  cameraNoise?: boolean;
  /**
   * `sideways`: the pixels turned a quarter anticlockwise, as a document photographed with the phone
   * held wrong (a reviewer turns it back). `exif`: the same pixels with EXIF Orientation 6, as phone
   * cameras store portrait shots, so that browsers show it upright (JPEG only).
   */
  orientation?: PictureOrientation;
}

/** Normal sample pictures: small enough to keep the sandbox fast. */
export const SAMPLE_SIZE = { width: 720, height: 480 } as const;
/** Phone-camera sized pictures for benchmarks: about 3 MB as JPEG with camera noise. */
export const LARGE_SIZE = { width: 2400, height: 1800 } as const;

type Rgb = readonly [number, number, number];

const STYLE: Record<PictureKind, { title: string; paper: Rgb; band: Rgb; ink: Rgb }> = {
  passport: { title: 'SAMPLE PASSPORT', paper: [226, 232, 240], band: [30, 58, 138], ink: [15, 23, 42] },
  selfie: { title: 'SAMPLE SELFIE', paper: [220, 235, 228], band: [4, 120, 87], ink: [6, 40, 30] },
  proof_of_address: {
    title: 'SAMPLE PROOF OF ADDRESS',
    paper: [250, 248, 240],
    band: [146, 64, 14],
    ink: [41, 37, 36],
  },
  selfie_national_id: {
    title: 'SAMPLE SELFIE WITH ID',
    paper: [232, 228, 244],
    band: [91, 33, 182],
    ink: [30, 27, 75],
  },
  driving_license: {
    title: 'SAMPLE DRIVING LICENCE',
    paper: [236, 244, 252],
    band: [190, 18, 60],
    ink: [23, 37, 84],
  },
  national_id: {
    title: 'SAMPLE NATIONAL ID',
    paper: [240, 249, 255],
    band: [14, 116, 144],
    ink: [8, 47, 73],
  },
};

class Canvas {
  readonly pixels: Buffer;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = Buffer.alloc(width * height * 4, 255);
  }

  set(x: number, y: number, [r, g, b]: Rgb): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    this.pixels[i] = r;
    this.pixels[i + 1] = g;
    this.pixels[i + 2] = b;
    this.pixels[i + 3] = 255;
  }

  rect(x: number, y: number, w: number, h: number, colour: Rgb): void {
    for (let py = Math.max(0, y); py < Math.min(this.height, y + h); py++) {
      for (let px = Math.max(0, x); px < Math.min(this.width, x + w); px++) this.set(px, py, colour);
    }
  }

  ellipse(cx: number, cy: number, rx: number, ry: number, colour: Rgb): void {
    for (let py = Math.floor(cy - ry); py <= cy + ry; py++) {
      for (let px = Math.floor(cx - rx); px <= cx + rx; px++) {
        if (((px - cx) / rx) ** 2 + ((py - cy) / ry) ** 2 <= 1) this.set(px, py, colour);
      }
    }
  }

  text(text: string, x: number, y: number, scale: number, colour: Rgb): void {
    rasterizeText(text, x, y, scale, (px, py) => this.set(px, py, colour));
  }

  /** Deterministic noise (xorshift), so the same spec always gives the same bytes. */
  noise(amplitude: number, seed: number): void {
    let state = seed || 1;
    for (let i = 0; i < this.pixels.length; i += 4) {
      for (let c = 0; c < 3; c++) {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        const delta = ((state >>> 0) % (2 * amplitude + 1)) - amplitude;
        this.pixels[i + c] = Math.min(255, Math.max(0, this.pixels[i + c]! + delta));
      }
    }
  }
}

export function drawPicture(spec: PictureSpec): Buffer {
  const { width, height } = spec;
  const style = STYLE[spec.kind];
  const canvas = new Canvas(width, height);
  const unit = Math.max(1, Math.round(Math.min(width / 120, height / 80)));

  canvas.rect(0, 0, width, height, style.paper);
  canvas.rect(0, 0, width, unit * 12, style.band);
  const fitScale = (text: string, wanted: number) => Math.max(1, Math.floor(Math.min(wanted, (width - unit * 8) / textWidth(text, 1))));
  const titleScale = fitScale(style.title, unit * 1.4);
  canvas.text(style.title, unit * 4, Math.round(unit * 6 - (7 * titleScale) / 2), titleScale, [255, 255, 255]);

  // A portrait: head and shoulders in a frame.
  const frame = { x: unit * 6, y: unit * 18, w: Math.round(width * 0.3), h: Math.round(height * 0.62) };
  canvas.rect(frame.x, frame.y, frame.w, frame.h, [203, 213, 225]);
  const headX = frame.x + frame.w / 2;
  canvas.ellipse(headX, frame.y + frame.h * 0.95, frame.w * 0.42, frame.h * 0.38, style.band);
  canvas.ellipse(headX, frame.y + frame.h * 0.38, frame.w * 0.22, frame.h * 0.24, [180, 140, 110]);

  const textX = frame.x + frame.w + unit * 6;
  const longest = spec.lines.reduce((a, b) => (textWidth(b, 1) > textWidth(a, 1) ? b : a), '');
  const lineScale = Math.max(1, Math.floor(Math.min(unit * 0.9, (width - textX - unit * 4) / Math.max(1, textWidth(longest, 1)))));
  spec.lines.forEach((line, index) => {
    canvas.text(line, textX, frame.y + index * lineScale * 12, lineScale, style.ink);
  });
  // Machine-readable-zone look-alike along the bottom.
  canvas.rect(0, height - unit * 12, width, unit * 12, [248, 250, 252]);
  const notice = 'SAMPLE DATA - NOT A REAL DOCUMENT';
  canvas.text(notice, unit * 4, height - unit * 9, fitScale(notice, unit * 0.8), style.ink);

  if (spec.cameraNoise) canvas.noise(24, width * 31 + height + spec.lines.join('').length);

  const stored = spec.orientation ? turnAnticlockwise(canvas) : canvas;
  if (spec.format === 'png') {
    const png = new PNG({ width: stored.width, height: stored.height });
    stored.pixels.copy(png.data);
    return PNG.sync.write(png);
  }
  const encoded = jpeg.encode({ data: stored.pixels, width: stored.width, height: stored.height }, 88).data;
  return spec.orientation === 'exif' ? withExifOrientation(encoded, 6) : encoded;
}

function turnAnticlockwise(source: Canvas): Canvas {
  const turned = new Canvas(source.height, source.width);
  for (let y = 0; y < source.height; y++) {
    for (let x = 0; x < source.width; x++) {
      const from = (y * source.width + x) * 4;
      // (x, y) lands at column y, row (width - 1 - x).
      const to = ((source.width - 1 - x) * turned.width + y) * 4;
      source.pixels.copy(turned.pixels, to, from, from + 4);
    }
  }
  return turned;
}

/**
 * Adds an APP1 segment holding a one-entry EXIF IFD (Orientation, tag 0x0112) after the JFIF header.
 * Orientation 6 means "turn a quarter clockwise to show": what phone cameras write for portrait shots.
 */
export function withExifOrientation(jpegBytes: Buffer, orientation: number): Buffer {
  const tiff = Buffer.from([
    ...[0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08], // big endian, first IFD at offset 8
    ...[0x00, 0x01], // one entry
    ...[0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00], // Orientation, SHORT, 1 value
    ...[0x00, 0x00, 0x00, 0x00], // no next IFD
  ]);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const segment = Buffer.concat([Buffer.from([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]), payload]);
  // SOI, then APP0 (JFIF) when present: EXIF goes after it.
  const app0 = jpegBytes[2] === 0xff && jpegBytes[3] === 0xe0 ? 2 + 2 + jpegBytes.readUInt16BE(4) : 2;
  return Buffer.concat([jpegBytes.subarray(0, app0), segment, jpegBytes.subarray(app0)]);
}
