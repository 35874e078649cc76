/**
 * How long the answers being read may keep the event loop, together, before they let others have a
 * turn. A large answer from a near service arrives faster than it is read: libuv reads up to 32 chunks of
 * a socket in one go, about 30 ms of tokenizing and decoding (ten times that for a list page of small
 * tokens), during which /healthz, other lookups and the audit log's writes (the status part waits for its
 * line) wait. So once the answers have worked this long in one turn of the loop, the next step of any of
 * them waits for the loop's next turn, and the stream's backpressure pauses the service's socket
 * meanwhile (docs/performance.md, "Turns").
 *
 * The slice is one for the whole process, not one per answer: four answers each with a slice of its own
 * held every turn of the loop four slices long, and another user's lookup, which needs several turns,
 * waited that many times over (docs/performance.md, "One user's heavy answers and everyone else's").
 */
export const SLICE_MS = 4;

/**
 * An answer's first steps never wait: a small record is read in one or two, so another user's lookup is
 * answered between the heavy answers' steps instead of queueing behind them.
 */
const FREE_STEPS = 2;

/** Steps waiting for a turn of the loop, in the order they asked: the first to ask is the first to go on. */
const waiting: Array<() => void> = [];
/** When the loop's current turn's first step began; undefined: none yet this turn. */
let turnStart: number | undefined;
let scheduled = false;
/** Turns of the loop in which steps had to wait: what a test counts the heavy answers' slices by. */
let slicesGiven = 0;

/**
 * The loop's check phase (setImmediate), after its poll phase served what else had come: the steps waiting
 * go on in the order they asked, the first always, the others while the slice lasts; those left, and any
 * that asked again meanwhile (behind them), wait for the next turn.
 */
function nextTurn(): void {
  scheduled = false;
  if (waiting.length > 0) {
    slicesGiven++;
    turnStart = performance.now();
    do waiting.shift()?.();
    while (waiting.length > 0 && performance.now() - turnStart < SLICE_MS);
  }
  turnStart = undefined;
  if (waiting.length > 0) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(nextTurn);
}

/** Calls `done` now while the loop's turn has slice left and no step is waiting, else in its turn. */
function step(done: () => void): void {
  const now = performance.now();
  if (turnStart === undefined) {
    turnStart = now;
    schedule();
  }
  if (waiting.length === 0 && now - turnStart < SLICE_MS) return void done();
  waiting.push(done);
  schedule();
}

/**
 * An answer's steps: each calls `done` now, or in a later turn of the event loop once the answers being
 * read have worked `SLICE_MS` in the loop's current turn (the first `FREE_STEPS` of an answer at once). A
 * turn starts at the first step after the loop's last check phase, so an answer whose chunks come a
 * socket read at a time, with the loop turning between them, is never held up.
 */
export function turns(): (done: () => void) => void {
  let steps = 0;
  return (done) => {
    if (++steps <= FREE_STEPS) return void done();
    step(done);
  };
}

/** How many turns of the loop steps have waited for, since the process started (tests count slices by it). */
export function slicesSoFar(): number {
  return slicesGiven;
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
