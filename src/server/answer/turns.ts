/**
 * How long one answer may keep the event loop before it lets others have a turn. A large answer from a
 * near service arrives faster than it is read: libuv reads up to 32 chunks of a socket in one go, about
 * 30 ms of tokenizing and decoding (ten times that for a list page of small tokens), during which
 * /healthz, other lookups and the audit log's writes (the status part waits for its line) wait. So once
 * an answer has worked this long in one turn of the loop, its next chunk is taken after a turn of the
 * loop (setImmediate), and the stream's backpressure pauses the service's socket meanwhile
 * (docs/performance.md, "Turns").
 */
export const SLICE_MS = 4;

/**
 * Calls `done` now, or after a turn of the event loop when this answer has worked `SLICE_MS` in the
 * loop's current turn. A turn starts at the answer's first chunk after the loop's last check phase (a
 * `setImmediate` marks its end), so an answer whose chunks come a socket read at a time, with the loop
 * turning between them, is never held up.
 */
export function turns(): (done: () => void) => void {
  let turnStart: number | undefined;
  const turned = () => {
    turnStart = undefined;
  };
  return (done) => {
    const now = performance.now();
    if (turnStart === undefined) {
      turnStart = now;
      setImmediate(turned);
    }
    if (now - turnStart < SLICE_MS) return done();
    setImmediate(done);
  };
}

/**
 * Calls `each` for every item in order, letting the loop have a turn whenever this has worked `SLICE_MS`
 * in one: the records of a list page of 20 000 are read in about 100 ms, which /healthz would wait for.
 */
export async function eachInTurns<T>(items: Iterable<T>, each: (item: T) => void): Promise<void> {
  const turn = turns();
  let count = 0;
  for (const item of items) {
    each(item);
    if (++count % 64 === 0) await new Promise<void>((resolve) => turn(resolve));
  }
}
