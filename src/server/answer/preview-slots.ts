/**
 * At most `slots` holders at once; the others wait their turn, in order. Used for the lookups making
 * previews at once (parts-writer.ts) and for the pictures being decoded at once (preview-pool.ts).
 */
export class PreviewSlots {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly slots: number) {}

  get inUse(): number {
    return this.busy;
  }

  /** Resolves with the slot's release (calling it again does nothing) once a slot is free. */
  async take(): Promise<() => void> {
    if (this.busy < this.slots) this.busy++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next in line.
      if (next) next();
      else this.busy--;
    };
  }
}
