import { useState } from 'react';

/** `degrees` turned by a quarter (1 clockwise, -1 back), within 0, 90, 180 and 270. */
export function turned(degrees: number, quarterTurns: 1 | -1): number {
  return (degrees + quarterTurns * 90 + 360) % 360;
}

/**
 * Each picture's turn, by its name, while the viewer is open. A pane shows its picture at the turn
 * given to that picture, wherever it was given: Compare's new panes, a picture paged away from and back,
 * the full picture replacing its preview. The review turned a national ID upright, pressed Compare (as
 * the note asked) and met it sideways again, when each pane kept a turn of its own. A Map: a picture's
 * name is the service's attribute name, and `constructor` read from an object is no number.
 */
export function usePictureTurns() {
  const [turns, setTurns] = useState<ReadonlyMap<string, number>>(() => new Map());
  return {
    of: (name: string) => turns.get(name) ?? 0,
    turn: (name: string, quarterTurns: 1 | -1) => setTurns((all) => new Map(all).set(name, turned(all.get(name) ?? 0, quarterTurns))),
  };
}
