/**
 * At most `slots` holders at once; the others wait their turn, which goes round the owners waiting, one
 * each, in the order they came: an owner with many in line takes one turn a round, so that one owner's
 * many (a lookup's hundred pictures, a user's sixty reads of the audit trail) never hold another's one
 * behind them (red team). A take with no owner named is an owner of its own, so such takes are served in
 * order. Past `maxWaiting` in line a take is refused (`full`), and one whose `signal` ends while it waits
 * leaves the line at once (`gone`), holding no place in it. Used for the previews (answer/preview-slots.ts)
 * and this instance's reads of its audit files (trail/trail-reads.ts).
 *
 * With `keepLast`, the last free slot is kept for an owner holding fewer than half the slots: one holding
 * half or more waits for it until another slot is free too, so such an owner goes after every owner
 * holding fewer who waits, and holds at most every slot but one (every slot when there is one). The round
 * alone did not stop one user's four lookups from taking the instance's four preview slots before another
 * user's lookup came, which then waited its full wait for one (red team); now it finds the last one free.
 * A take with no owner named holds none, so such takes are served as before.
 */
export class FairTurns {
  private busy = 0;
  private count = 0;
  /** Each owner's line, in the order their turns come round (a Map keeps the order it was given). */
  private readonly lines = new Map<unknown, Array<() => void>>();
  /** The slots each owner holds now; an owner holding none is not kept. */
  private readonly held = new Map<unknown, number>();

  constructor(
    private readonly slots: number,
    private readonly maxWaiting = Number.POSITIVE_INFINITY,
    private readonly keepLast = false,
  ) {}

  get inUse(): number {
    return this.busy;
  }

  get waiting(): number {
    return this.count;
  }

  /**
   * Resolves with the slot's release (calling it again does nothing) once a slot is free and `owner`'s
   * turn has come; `always`: it waits however long the line (what has begun must not be refused now).
   */
  async take(owner: unknown = {}, signal?: AbortSignal, always = false): Promise<() => void> {
    if (signal?.aborted) throw new TurnRefused('gone');
    if (this.mayTake(owner)) this.hold(owner, 1);
    else await this.turn(owner, signal, always);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.hold(owner, -1);
      this.next();
    };
  }

  private turn(owner: unknown, signal: AbortSignal | undefined, always: boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (!always && this.count >= this.maxWaiting) return reject(new TurnRefused('full'));
      const onAbort = () => {
        if (this.leave(owner, go)) reject(new TurnRefused('gone'));
      };
      const go = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const line = this.lines.get(owner);
      if (line) line.push(go);
      else this.lines.set(owner, [go]);
      this.count += 1;
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** A waiter whose owner has gone leaves the line; false when its turn had already come. */
  private leave(owner: unknown, go: () => void): boolean {
    const line = this.lines.get(owner);
    const at = line?.indexOf(go) ?? -1;
    if (!line || at === -1) return false;
    line.splice(at, 1);
    if (!line.length) this.lines.delete(owner);
    this.count -= 1;
    return true;
  }

  /** Counts a slot taken (1) or given back (-1) by `owner`. */
  private hold(owner: unknown, slots: 1 | -1): void {
    this.busy += slots;
    const now = (this.held.get(owner) ?? 0) + slots;
    if (now > 0) this.held.set(owner, now);
    else this.held.delete(owner);
  }

  /** Whether a slot is free for `owner`: with `keepLast`, the last one only for an owner holding fewer than half. */
  private mayTake(owner: unknown): boolean {
    if (this.busy >= this.slots) return false;
    return !this.keepLast || this.busy < this.slots - 1 || (this.held.get(owner) ?? 0) < this.slots / 2;
  }

  /** The slots free pass to the first owners in the round they are free for, each going to the back of it with what it has left. */
  private next(): void {
    for (let turn = this.nextTurn(); turn; turn = this.nextTurn()) {
      const [owner, line] = turn;
      this.lines.delete(owner);
      const go = line.shift()!;
      if (line.length) this.lines.set(owner, line);
      this.count -= 1;
      this.hold(owner, 1);
      go();
    }
  }

  private nextTurn(): [unknown, Array<() => void>] | undefined {
    for (const turn of this.lines) if (this.mayTake(turn[0])) return turn;
    return undefined;
  }
}

/** A take refused: the line is full, or its owner went before its turn came. */
export class TurnRefused extends Error {
  constructor(readonly why: 'full' | 'gone') {
    super(why === 'full' ? 'too many waiting for a turn' : 'gone before its turn');
  }
}
