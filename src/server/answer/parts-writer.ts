import { createGzip } from 'node:zlib';
import {
  PART_NAME_HEADER,
  PARTS_MEDIA_TYPE,
  PICTURES_AT_ONCE,
  previewPartName,
  recordPartName,
  statusPartName,
} from '../../kyc/contract/picture-parts.ts';
import { countBytes } from '../http/http-reply.ts';
import { drained, gzipAccepted, type PartsTarget } from './multipart-answer.ts';
import type { PartsHolding } from './parts-budget.ts';
import { isDecoded, makePreview, PREVIEW_LIMITS, type PreviewLimits, previewPool } from './picture-preview.ts';
import type { PreviewPool } from './preview-pool.ts';
import { lookupSlots, type PreviewSlots } from './preview-slots.ts';
import type { PicturePart, SplitRecord } from './record-parts.ts';

/**
 * Writes an answer in parts, in the order the page needs them: the status level (a few hundred bytes: the
 * header, status chip and timeline), the record (a few kB, gzipped), a preview of every large picture
 * (tens of kB each), then every picture whole (megabytes each). So on a slow link the reviewer sees the
 * status at once and every document within about a second, and the full pictures arrive as before.
 * Each part has its Content-Length; the answer's own length is not known before the previews are made, so
 * it is sent chunked, and the closing delimiter says it is whole.
 */

/** Preview making, as the instance does it; tests may give other limits and slots. */
export interface PreviewMaking {
  limits: PreviewLimits;
  /** Lookups making previews at once, taken in the name of the person each is for (`lookupSlots`). */
  slots: PreviewSlots;
  /** The preview processes, shared by every lookup: the pictures decoded at once. */
  pool: PreviewPool;
}

/** This process's preview making with `lookupsAtOnce` lookups' previews at once; undefined (no previews) for 0. */
export function instancePreviews(lookupsAtOnce: number): PreviewMaking | undefined {
  return lookupsAtOnce > 0 ? { limits: PREVIEW_LIMITS, slots: lookupSlots(lookupsAtOnce), pool: previewPool } : undefined;
}

function gzipAll(chunks: readonly Buffer[]): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const zip = createGzip();
    zip.on('data', (chunk: Buffer) => out.push(chunk));
    zip.once('end', () => resolve(out));
    zip.once('error', reject);
    for (const chunk of chunks) zip.write(chunk);
    zip.end();
  });
}

/** Whether the delimiter occurs in any of the bytes, also across two chunks. */
function holdsDelimiter(chunks: readonly Buffer[], boundary: string): boolean {
  const needle = Buffer.from(`--${boundary}`);
  return chunks.some((chunk, i) => {
    if (chunk.includes(needle)) return true;
    const next = chunks[i + 1];
    return next !== undefined && Buffer.concat([chunk.subarray(-needle.length), next.subarray(0, needle.length)]).includes(needle);
  });
}

/**
 * One lookup's previews, each started the moment its picture's bytes are all in (record-parts.ts), while
 * the rest of the service's answer is still being read, once the lookup has one of the instance's slots
 * (held until its last preview is made and no picture can follow). sharp needs a picture in one buffer:
 * its decoded chunks are joined, and the joined buffer becomes the picture's bytes (the chunks are
 * dropped), so the record holds each picture once; the join is taken from the answer's share of the parts
 * budget all the same, and a picture the budget has no room for gets no preview.
 *
 * One lookup's pictures do not hold another's (red team: one record of 60 large pictures held the one
 * preview process, and another user's lookup of 0.26 s took 11.7 s): at most PICTURES_AT_ONCE pictures
 * get previews, as many as the page shows at first, the first to arrive (the others' cards show their
 * progress until their full part is in, as a small picture's do); the pool's turns go round the lookups
 * waiting, one picture each (preview-pool.ts); the slot is taken in the name of `owner`, the person the
 * lookup is for, so that one person's lookups never hold another's behind them (preview-slots.ts; none
 * named: the lookup is an owner of its own, served in order); and once the record part is written the
 * answer waits for its previews at most `waitMs`, together: past it its pictures follow without those not
 * made, and none not yet begun is made.
 */
export class LookupPreviews {
  private readonly made = new Map<PicturePart, Promise<Buffer | undefined>>();
  private slot: Promise<() => void> | undefined;
  private inProgress = 0;
  private closed = false;
  private abandoned = false;
  /** Resolves (with no preview) once the answer has waited `waitMs` for its previews; begun at the first `of`. */
  private waited: Promise<undefined> | undefined;
  private waitTimer: NodeJS.Timeout | undefined;
  private late = false;

  constructor(
    private readonly holding: PartsHolding,
    private readonly making: PreviewMaking | undefined,
    private readonly owner?: string,
  ) {}

  add = (picture: PicturePart): void => {
    const making = this.making;
    if (!making || this.closed || picture.reference.size <= making.limits.thresholdBytes) return;
    // Sniffed from its first bytes (record-parts.ts): an SVG, a TIFF, a PDF… is never decoded, nor waits for a slot.
    if (!isDecoded(picture.reference.type) || this.made.size >= PICTURES_AT_ONCE) return;
    this.slot ??= making.slots.take(this.owner);
    this.inProgress++;
    const preview = this.slot.then(() => this.make(picture, making));
    this.made.set(picture, preview);
    void preview.finally(() => {
      this.inProgress--;
      this.releaseWhenDone();
    });
  };

  /** No more pictures will come (the record was read whole, or not at all). */
  close(): void {
    this.closed = true;
    this.releaseWhenDone();
  }

  /**
   * The answer is done with (sent, refused or cut): a preview not yet begun is not made, so that nothing
   * is taken from the answer's share of the budget once it has been given back.
   */
  abandon(): void {
    this.abandoned = true;
    clearTimeout(this.waitTimer);
    this.close();
  }

  /**
   * The picture's preview once made; undefined when it has none, or when it is not made within the
   * answer's wait for its previews, which the first call begins (the record part is written).
   */
  of(picture: PicturePart): Promise<Buffer | undefined> {
    const preview = this.made.get(picture);
    const making = this.making;
    if (!preview || !making) return Promise.resolve(undefined);
    this.waited ??= new Promise((resolve) => {
      this.waitTimer = setTimeout(() => {
        this.late = true;
        resolve(undefined);
      }, making.limits.waitMs);
    });
    // A preview already made is taken, even once the wait is over.
    return Promise.race([preview, this.waited]);
  }

  /** Whether the answer still waits for previews not yet begun. */
  private readonly waitedFor = () => !this.abandoned && !this.late;

  private async make(picture: PicturePart, making: PreviewMaking): Promise<Buffer | undefined> {
    if (!this.waitedFor() || !this.holding.take(picture.reference.size)) return undefined;
    const whole = picture.chunks.length === 1 ? picture.chunks[0]! : Buffer.concat(picture.chunks);
    picture.chunks = [whole];
    const preview = await makePreview(whole, making.limits, making.pool, { lookup: this, wanted: this.waitedFor });
    return preview.ok ? preview.bytes : undefined;
  }

  private releaseWhenDone(): void {
    if (!this.closed || this.inProgress > 0 || !this.slot) return;
    const slot = this.slot;
    this.slot = undefined;
    void slot.then((release) => release());
  }
}

const partHead = (boundary: string, first: boolean, headers: Record<string, string | number>) =>
  [...(first ? [] : ['']), `--${boundary}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', ''].join('\r\n');

/**
 * Writes the answer: status line and headers, then part after part, each waiting for the socket to take
 * the last (a slow link holds at most about one picture in the socket's buffer). A browser that stops
 * reading is cut off after `stallMs`, as the plain answer is by the service's idle timeout, so that no
 * record is held for it.
 */
export class PartsWriter {
  private first = true;

  constructor(
    private readonly target: PartsTarget,
    private readonly boundary: string,
  ) {}

  /**
   * The record part's body (gzipped when the browser takes it), or undefined when the delimiter turned up
   * in the record or a picture: such an answer cannot be framed, and nothing more of it is written.
   */
  async recordBody(split: SplitRecord): Promise<Buffer[] | undefined> {
    const body = gzipAccepted(this.target.req) ? await gzipAll(split.first) : split.first;
    const framed = !holdsDelimiter(body, this.boundary) && !split.pictures.some((picture) => holdsDelimiter(picture.chunks, this.boundary));
    return framed ? body : undefined;
  }

  /** The status line and headers, and the status part when there is one. */
  async open(status: Buffer | undefined): Promise<void> {
    this.target.res.writeHead(200, {
      'content-type': `${PARTS_MEDIA_TYPE}; boundary="${this.boundary}"`,
      'cache-control': 'no-store',
      vary: 'Accept, Accept-Encoding',
    });
    if (status && !holdsDelimiter([status], this.boundary)) {
      await this.part({ 'Content-Type': JSON_TYPE, [PART_NAME_HEADER]: statusPartName(this.boundary) }, [status]);
    }
  }

  /**
   * The record part, each preview as soon as it and those before it are made, every picture whole, then
   * `closing` (the request's closing audit line, lookup/full-answer.ts), then the closing delimiter.
   */
  async rest(split: SplitRecord, recordBody: Buffer[], previews: LookupPreviews, closing: () => Promise<void>): Promise<void> {
    const encoding: Record<string, string> = gzipAccepted(this.target.req) ? { 'Content-Encoding': 'gzip' } : {};
    await this.part({ 'Content-Type': JSON_TYPE, ...encoding, [PART_NAME_HEADER]: recordPartName(this.boundary) }, recordBody);
    for (const [index, picture] of split.pictures.entries()) {
      const preview = await previews.of(picture);
      // A preview that happens to hold the delimiter is simply left out: the picture follows whole.
      if (preview && !holdsDelimiter([preview], this.boundary)) {
        await this.part({ 'Content-Type': 'image/jpeg', [PART_NAME_HEADER]: previewPartName(index, this.boundary) }, [preview]);
      }
    }
    for (const picture of split.pictures) {
      const chunks = picture.chunks;
      // Freed as written: the socket holds what it has not sent, this record no longer does.
      picture.chunks = [];
      await this.part({ 'Content-Type': picture.contentType, [PART_NAME_HEADER]: picture.reference.part }, chunks);
    }
    await closing();
    await this.send([Buffer.from(`\r\n--${this.boundary}--\r\n`)]);
    this.target.res.end();
  }

  private async part(headers: Record<string, string | number>, body: readonly Buffer[]): Promise<void> {
    const length = body.reduce((sum, chunk) => sum + chunk.length, 0);
    await this.send([Buffer.from(partHead(this.boundary, this.first, { ...headers, 'Content-Length': length })), ...body]);
    this.first = false;
  }

  private send(pieces: Buffer[]): Promise<void> {
    return send(this.target.res, this.target.stallMs, pieces);
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A picture joined for its preview is written in slices of this (views, not copies), as its chunks were. */
const SLICE_BYTES = 64 * 1024;

async function send(res: PartsTarget['res'], stallMs: number, pieces: Buffer[]): Promise<void> {
  for (const piece of pieces) {
    for (let at = 0; at < piece.length; at += SLICE_BYTES) {
      if (res.destroyed) return;
      const slice = piece.subarray(at, at + SLICE_BYTES);
      countBytes(res, slice.length);
      if (!res.write(slice)) await drained(res, stallMs);
    }
  }
}
