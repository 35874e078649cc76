/**
 * The bytes of an answer in parts (picture-parts.ts in the contract), read part by part as they stream.
 * The server gives every part a Content-Length, so a part's body is taken by its length, as the network's
 * chunks came (no copy, no text decoding, nothing searched in it), and only the delimiter after it is
 * checked. The reader is strict about the framing the server writes: a part without a Content-Length, a
 * delimiter not where the length says, or headers that never end make the answer unreadable
 * (PartsUnreadable); a body that ends, or a connection that breaks, before the closing delimiter is
 * incomplete (PartsCutShort), never a short answer that looks whole.
 */

export interface RawPart {
  /** Names lowercased. */
  headers: Record<string, string>;
  /** The body, as pieces of the network's chunks. */
  chunks: Uint8Array[];
  size: number;
}

/** The answer's framing is not what the server writes. */
export class PartsUnreadable extends Error {
  override name = 'PartsUnreadable';
}

/** The answer ended, or its connection broke, before its closing delimiter. */
export class PartsCutShort extends Error {
  override name = 'PartsCutShort';
}

/** A part's headers longer than this are not the server's. */
const MAX_HEAD_BYTES = 16 * 1024;
const CR = 13;
const LF = 10;
const DASH = 45;

export class PartReader {
  /** Bytes received and not yet taken. */
  private held: Uint8Array = new Uint8Array(0);
  private readonly delimiter: Uint8Array;
  private atFirst = true;
  private closed = false;
  /** Bytes of the current part's body received so far. */
  bodyBytes = 0;
  /** The Content-ID of the part being read, once its headers are in. */
  partName: string | undefined;

  /** `onBytes`: every chunk's size as it arrives. */
  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    boundary: string,
    private readonly onBytes: (bytes: number) => void,
  ) {
    this.delimiter = new TextEncoder().encode(`--${boundary}`);
  }

  /** The next part, or undefined after the closing delimiter. Throws PartsUnreadable or PartsCutShort. */
  async next(): Promise<RawPart | undefined> {
    if (this.closed) return undefined;
    this.bodyBytes = 0;
    this.partName = undefined;
    if (await this.closingDelimiter()) {
      this.closed = true;
      void this.drain();
      return undefined;
    }
    const headers = await this.headers();
    this.partName = headers['content-id'];
    const length = headers['content-length'];
    if (length === undefined || !/^\d{1,15}$/.test(length)) throw new PartsUnreadable('a part without a valid Content-Length');
    const size = Number(length);
    return { headers, chunks: await this.body(size), size };
  }

  /** Stops reading (the answer is done with, or given up). */
  cancel(): void {
    this.reader.cancel().catch(() => {});
  }

  /** After the closing delimiter: the rest of the body (a line break) read and dropped; more than a little is not waited for. */
  private async drain(): Promise<void> {
    let after = this.held.byteLength;
    try {
      for (let read = await this.reader.read(); !read.done && after < 1024; read = await this.reader.read()) after += read.value.byteLength;
    } catch {
      return;
    }
    if (after >= 1024) this.cancel();
  }

  /** Reads one more chunk into `held`; false at the end of the body. A broken connection is PartsCutShort. */
  private async more(): Promise<boolean> {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await this.reader.read();
    } catch {
      throw new PartsCutShort('the connection broke');
    }
    if (read.done) return false;
    this.onBytes(read.value.byteLength);
    if (this.held.byteLength === 0) this.held = read.value;
    else {
      const joined = new Uint8Array(this.held.byteLength + read.value.byteLength);
      joined.set(this.held);
      joined.set(read.value, this.held.byteLength);
      this.held = joined;
    }
    return true;
  }

  private async atLeast(bytes: number): Promise<void> {
    while (this.held.byteLength < bytes) if (!(await this.more())) throw new PartsCutShort('the answer ended early');
  }

  private take(bytes: number): Uint8Array {
    const taken = this.held.subarray(0, bytes);
    this.held = this.held.subarray(bytes);
    return taken;
  }

  /**
   * The delimiter before a part (`--boundary` CRLF, after CRLF but for the first), or the closing one
   * (`--boundary--`): true for the closing one.
   */
  private async closingDelimiter(): Promise<boolean> {
    const lead = this.atFirst ? 0 : 2;
    this.atFirst = false;
    await this.atLeast(lead + this.delimiter.byteLength + 2);
    const line = this.take(lead + this.delimiter.byteLength + 2);
    if (lead > 0 && (line[0] !== CR || line[1] !== LF)) throw new PartsUnreadable('a part longer than its Content-Length');
    for (let i = 0; i < this.delimiter.byteLength; i++) {
      if (line[lead + i] !== this.delimiter[i]) throw new PartsUnreadable('a delimiter that is not the boundary');
    }
    const [a, b] = line.subarray(lead + this.delimiter.byteLength);
    if (a === DASH && b === DASH) return true;
    if (a === CR && b === LF) return false;
    throw new PartsUnreadable('a delimiter line that does not end');
  }

  /** A part's headers, up to the empty line after them. */
  private async headers(): Promise<Record<string, string>> {
    let end = -1;
    for (let from = 0; end < 0; ) {
      end = indexOfBlankLine(this.held, from);
      if (end >= 0) break;
      if (this.held.byteLength > MAX_HEAD_BYTES) throw new PartsUnreadable('part headers that do not end');
      from = Math.max(0, this.held.byteLength - 3);
      if (!(await this.more())) throw new PartsCutShort('the answer ended in part headers');
    }
    const text = new TextDecoder().decode(this.take(end + 4).subarray(0, end));
    const headers: Record<string, string> = {};
    for (const line of text.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new PartsUnreadable('a part header without a name');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    return headers;
  }

  /** `size` bytes of body, as pieces of the chunks they came in. */
  private async body(size: number): Promise<Uint8Array[]> {
    const chunks: Uint8Array[] = [];
    while (this.bodyBytes < size) {
      if (this.held.byteLength === 0 && !(await this.more())) throw new PartsCutShort('the answer ended in a part');
      const piece = this.take(Math.min(size - this.bodyBytes, this.held.byteLength));
      chunks.push(piece);
      this.bodyBytes += piece.byteLength;
    }
    return chunks;
  }
}

/** Where CR LF CR LF starts in `bytes` at or after `from`, or -1. */
function indexOfBlankLine(bytes: Uint8Array, from: number): number {
  for (let i = bytes.indexOf(CR, from); i >= 0 && i + 3 < bytes.byteLength; i = bytes.indexOf(CR, i + 1)) {
    if (bytes[i + 1] === LF && bytes[i + 2] === CR && bytes[i + 3] === LF) return i;
  }
  return -1;
}

/** The first `bytes` of a part's body (fewer when it is shorter), joined only when its first chunk is shorter. */
export function headOf(part: RawPart, bytes: number): Uint8Array {
  const first = part.chunks[0] ?? new Uint8Array(0);
  if (first.byteLength >= bytes || part.chunks.length < 2) return first.subarray(0, bytes);
  const head = new Uint8Array(Math.min(bytes, part.size));
  let at = 0;
  for (const chunk of part.chunks) {
    if (at >= head.byteLength) break;
    const piece = chunk.subarray(0, head.byteLength - at);
    head.set(piece, at);
    at += piece.byteLength;
  }
  return head;
}
