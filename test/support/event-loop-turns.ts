/**
 * Counts the turns of the event loop (a `setImmediate` each) from now until the returned function is
 * called, which stops counting and gives the count; `soFar` gives it without stopping.
 */
export function countTurns(): (() => number) & { soFar: () => number } {
  let turns = 0;
  let counting = true;
  const count = () => {
    if (!counting) return;
    turns++;
    setImmediate(count);
  };
  setImmediate(count);
  const stop = () => {
    counting = false;
    return turns;
  };
  return Object.assign(stop, { soFar: () => turns });
}
