/**
 * At most `slots` holders at once; the others wait their turn. Used for the lookups making previews at
 * once (parts-writer.ts) and for the pictures being decoded at once (preview-pool.ts). The turns go round
 * the owners waiting, one each, in the order they came (red team: one lookup's hundred pictures, all
 * asked for first, held another lookup's one picture behind them): an owner with many in line takes one
 * turn a round, and a take with no owner named is an owner of its own, so such takes are served in order.
 */
export class PreviewSlots {
  private busy = 0;
  /** Each owner's line, in the order their turns come round (a Map keeps the order it was given). */
  private readonly lines = new Map<object, Array<() => void>>();

  constructor(private readonly slots: number) {}

  get inUse(): number {
    return this.busy;
  }

  /** Resolves with the slot's release (calling it again does nothing) once a slot is free and `owner`'s turn has come. */
  async take(owner: object = {}): Promise<() => void> {
    if (this.busy < this.slots) this.busy++;
    else
      await new Promise<void>((resolve) => {
        const line = this.lines.get(owner);
        if (line) line.push(resolve);
        else this.lines.set(owner, [resolve]);
      });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.next();
    };
  }

  /** The slot passes straight to the first owner in the round, who goes to the back of it with what it has left. */
  private next(): void {
    const first = this.lines.entries().next();
    if (first.done) {
      this.busy--;
      return;
    }
    const [owner, line] = first.value;
    this.lines.delete(owner);
    const go = line.shift()!;
    if (line.length) this.lines.set(owner, line);
    go();
  }
}
