import type { Readable } from 'node:stream';
import { SLICE_MS, turns } from './turns.ts';

/**
 * A chunk of the service's socket is up to 64 KiB, and the answer's scan of 64 KiB of small tokens (a
 * record of 100 000 one-letter identities) takes 10 to 30 ms: read whole where it is received, that is
 * work no slice can share out (turns.ts). So the body's chunks are read in pieces, each piece a step in
 * turns, sized from the answer's own pace so that one takes about a quarter of a slice: a picture's
 * base64 is read some hundred times faster than small tokens, so its chunks stay whole (one step each).
 */

const FIRST_PIECE = 16 * 1024;
const MIN_PIECE = 4 * 1024;
/** Past a chunk's size: a fast answer's chunks are read whole. */
const MAX_PIECE = 1024 * 1024;
const PIECE_MS = SLICE_MS / 4;

export interface PieceReader {
  /** Reads a piece of a chunk (the answer's scan). */
  piece(piece: Buffer): void;
  /** A chunk, every piece of it read: handed on whole, in order; false: the source is to stay paused (backpressure). */
  chunk(chunk: Buffer): boolean;
  /** The source ended, and every chunk was handed on. */
  end(): void;
}

/** The next piece's size: what the last piece's pace says fits in PIECE_MS. */
function nextSize(bytes: number, ms: number): number {
  if (ms <= 0) return MAX_PIECE;
  return Math.min(MAX_PIECE, Math.max(MIN_PIECE, Math.floor((bytes * PIECE_MS) / ms)));
}

/**
 * Reads `source`'s chunks in pieces, each in its turn (turns.ts), pausing the source while a step waits;
 * hands each chunk on once all its pieces are read, and the end once every chunk was handed on.
 */
export function readPiecesInTurns(source: Readable, reader: PieceReader): void {
  const turn = turns();
  const chunks: Buffer[] = [];
  let at = 0;
  let size = FIRST_PIECE;
  let working = false;
  let ended = false;
  /** Whether the reader last took a chunk without asking for a pause. */
  let more = true;
  /** `granted`: called in its turn, the step it waited for may be taken at once. */
  const work = (granted = false) => {
    working = true;
    for (let chunk = chunks[0], go = granted; chunk; chunk = chunks[0], go = false) {
      if (!go && !stepNow()) return;
      const piece = chunk.subarray(at, at + size);
      const started = performance.now();
      reader.piece(piece);
      size = nextSize(piece.length, performance.now() - started);
      at += piece.length;
      if (at < chunk.length) continue;
      chunks.shift();
      at = 0;
      more = reader.chunk(chunk);
    }
    working = false;
    if (ended) reader.end();
    else if (!more) source.pause();
    else if (source.isPaused()) source.resume();
  };
  /** Whether the next piece may be read now; if not, the source waits paused and `work` is called in its turn. */
  const stepNow = () => {
    let now = true;
    let went = false;
    turn(() => {
      went = true;
      if (!now) work(true);
    });
    now = false;
    if (!went) source.pause();
    return went;
  };
  source.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    // A chunk that came while another waits for its turn (the source resumed by the reader's drain): the
    // source stays paused until they are read, so that no more than one chunk is held here.
    if (working) source.pause();
    else work();
  });
  source.once('end', () => {
    ended = true;
    if (!working) reader.end();
  });
}
