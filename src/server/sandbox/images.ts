import sharp from 'sharp';
import { rasterizeText, textWidth } from './font.ts';

/**
 * Placeholder identity pictures for the sandbox: real, decodable JPEG and PNG files drawn here,
 * labelled so nobody mistakes them for real documents. The shapes and the bitmap font are drawn into
 * RGB pixels here (a font of sharp's would depend on the machine's fonts); sharp turns and encodes them,
 * on libvips' threads: ten times faster than the JavaScript encoders it replaced (docs/performance.md).
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

/** Three bytes a pixel (RGB), rows top to bottom: what sharp reads as `raw` input. */
class Canvas {
  readonly pixels: Buffer;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = Buffer.alloc(width * height * 3, 255);
  }

  /** Fills the pixels x0..x1 (exclusive) of row y, clipped to the canvas, a row at a time (Buffer.fill repeats the colour). */
  private span(y: number, x0: number, x1: number, colour: Buffer): void {
    const from = Math.max(0, x0);
    const to = Math.min(this.width, x1);
    if (y < 0 || y >= this.height || from >= to) return;
    this.pixels.fill(colour, (y * this.width + from) * 3, (y * this.width + to) * 3);
  }

  rect(x: number, y: number, w: number, h: number, colour: Rgb): void {
    const fill = Buffer.from(colour);
    for (let py = y; py < y + h; py++) this.span(py, x, x + w, fill);
  }

  /** The pixels whose ((x - cx) / rx)² + ((y - cy) / ry)² is at most 1: one span a row. */
  ellipse(cx: number, cy: number, rx: number, ry: number, colour: Rgb): void {
    const fill = Buffer.from(colour);
    for (let py = Math.ceil(cy - ry); py <= cy + ry; py++) {
      const half = rx * Math.sqrt(Math.max(0, 1 - ((py - cy) / ry) ** 2));
      this.span(py, Math.ceil(cx - half), Math.floor(cx + half) + 1, fill);
    }
  }

  text(text: string, x: number, y: number, scale: number, colour: Rgb): void {
    rasterizeText(text, x, y, scale, (px, py) => this.rect(px, py, scale, scale, colour));
  }

  /** Deterministic noise (xorshift), so the same spec always gives the same bytes. */
  noise(amplitude: number, seed: number): void {
    // A clamped view: each sum is held to 0..255 as it is stored, with no test in the loop.
    const pixels = new Uint8ClampedArray(this.pixels.buffer, this.pixels.byteOffset, this.pixels.length);
    let state = seed || 1;
    for (let i = 0; i < pixels.length; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      pixels[i] = pixels[i]! + ((state >>> 0) % (2 * amplitude + 1)) - amplitude;
    }
  }
}

/** The picture's pixels as the document shows upright: band, title, portrait, lines, the notice along the bottom. */
function drawDocument(spec: PictureSpec): Canvas {
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
  return canvas;
}

/**
 * The picture's file. A turned one (`orientation`) stores its pixels a quarter anticlockwise; `exif`
 * adds EXIF Orientation 6 ("turn a quarter clockwise to show"), what phone cameras write for portrait
 * shots. The same spec always gives the same bytes.
 */
export async function drawPicture(spec: PictureSpec): Promise<Buffer> {
  const canvas = drawDocument(spec);
  let image = sharp(canvas.pixels, { raw: { width: canvas.width, height: canvas.height, channels: 3 } });
  if (spec.orientation) image = image.rotate(270);
  if (spec.format === 'png') return image.png().toBuffer();
  // As the JavaScript encoder before sharp wrote them: every pixel's colour kept (no chroma subsampling) and
  // the standard Huffman tables (optimising them is a second pass, three times the encoding for 10 % fewer
  // bytes). A large picture with camera noise weighs about 3 MB, as a phone camera's does.
  image = image.jpeg({ quality: 88, chromaSubsampling: '4:4:4', optimiseCoding: false });
  return (spec.orientation === 'exif' ? image.withMetadata({ orientation: 6 }) : image).toBuffer();
}
