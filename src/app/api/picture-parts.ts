import type { PictureReference } from '../../kyc/contract/picture-parts.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import type { PictureSize } from '../../kyc/contract/picture-size.ts';
import { type SniffedType, sniffedTypeOfMime } from '../../kyc/contract/picture-type.ts';

/**
 * The pictures of a record that came in parts, as they arrive: each picture's state (bytes received of
 * its size, then its Blob, or why it never came), for the picture cards to show one by one. Kept beside
 * the record, not in it, and dropped with it.
 */

export type PictureState =
  /** `preview`: the server's downscaled copy (a raster JPEG, sniffed here too), shown until the picture is in. */
  | { state: 'loading'; received: number; size: number; type: SniffedType; preview?: Blob }
  /**
   * `blob` only for a raster image (sniffed again here from the bytes): anything else is never rendered,
   * and its bytes are `file` instead, inert octets that are only ever saved as a file (the card's Download).
   * `pixels`: a raster image's width and height, read from its header (picture-size.ts), when it has them.
   */
  | { state: 'ready'; size: number; type: SniffedType; blob?: Blob; file?: Blob; pixels?: PictureSize }
  | { state: 'failed'; size: number; type: SniffedType; problem: string };

export class PictureParts {
  private readonly states = new Map<string, PictureState>();
  private readonly listeners = new Set<() => void>();
  private readonly partToName = new Map<string, string>();
  private holders = 0;
  private cancelTimer: ReturnType<typeof setTimeout> | undefined;

  /** `references`: attribute name -> reference; `cancel` stops the download (nobody looks any more). */
  constructor(
    references: Map<string, PictureReference>,
    private readonly cancel: () => void,
  ) {
    for (const [name, reference] of references) {
      this.partToName.set(reference.part, name);
      this.states.set(name, { state: 'loading', received: 0, size: reference.size, type: sniffedTypeOfMime(reference.type) });
    }
  }

  get(name: string): PictureState | undefined {
    return this.states.get(name);
  }

  /** The attribute whose picture travels in this part. */
  nameOf(part: string): string | undefined {
    return this.partToName.get(part);
  }

  /** Names in the order their parts come. */
  names(): string[] {
    return [...this.partToName.values()];
  }

  update(name: string, next: PictureState): void {
    this.states.set(name, next);
    for (const listener of this.listeners) listener();
  }

  /** Every picture not yet complete failed: the answer ended, or broke, before its part. */
  failRest(problem: string): void {
    for (const [name, state] of this.states) {
      if (state.state === 'loading') this.update(name, { state: 'failed', size: state.size, type: state.type, problem });
    }
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** A page shows these pictures; once none has for a second, the rest of the download is not needed. */
  hold(): () => void {
    this.holders++;
    clearTimeout(this.cancelTimer);
    return () => {
      if (--this.holders > 0) return;
      this.cancelTimer = setTimeout(() => {
        if (this.holders === 0) this.cancel();
      }, 1000);
    };
  }
}

const byRecord = new WeakMap<CandidateRecord, PictureParts>();

export function attachPictureParts(record: CandidateRecord, parts: PictureParts): void {
  byRecord.set(record, parts);
}

/** The parts the record's pictures come in, when it came in parts. */
export function picturePartsOf(record: CandidateRecord): PictureParts | undefined {
  return byRecord.get(record);
}
