/**
 * The connections nobody has signed in on (connection-guard.ts), and which one makes room when they are
 * at their cap: the oldest of the address that holds the most (those waiting for a request before those
 * whose request is under way), so that a flood from a few addresses makes room from its own connections
 * and a user's single new connection, not yet read, is never the one closed while any address holds more
 * than one. When every address holds one (or the only ones are a trusted proxy's, which are not counted
 * by address), the oldest of all, waiting first, as before.
 */

interface Entry {
  /** The address it counts against; undefined: a trusted proxy's, not counted by address. */
  key: string | undefined;
  busy: boolean;
}

/** One address's connections, oldest first. */
interface Address<C> {
  waiting: Set<C>;
  busy: Set<C>;
}

const first = <C>(set: Set<C>): C | undefined => set.values().next().value;

export class ConnectionTable<C> {
  private readonly entries = new Map<C, Entry>();
  private readonly waiting = new Set<C>();
  private readonly busyOnes = new Set<C>();
  private readonly addresses = new Map<string, Address<C>>();
  /** The addresses holding each count of connections, and the largest count held. */
  private readonly byCount = new Map<number, Set<string>>();
  private most = 0;

  get size(): number {
    return this.entries.size;
  }

  /** How many connections `key` holds. */
  count(key: string): number {
    const address = this.addresses.get(key);
    return address ? address.waiting.size + address.busy.size : 0;
  }

  /** A new connection, waiting for its first request; `key` undefined: not counted by address. */
  add(connection: C, key: string | undefined): void {
    if (this.entries.has(connection)) return;
    this.entries.set(connection, { key, busy: false });
    this.waiting.add(connection);
    if (key === undefined) return;
    const held = this.count(key);
    let address = this.addresses.get(key);
    if (!address) {
      address = { waiting: new Set(), busy: new Set() };
      this.addresses.set(key, address);
    }
    address.waiting.add(connection);
    this.recount(key, held, held + 1);
  }

  /** Gone: closed, or signed in on. */
  remove(connection: C): void {
    const entry = this.entries.get(connection);
    if (!entry) return;
    this.entries.delete(connection);
    this.waiting.delete(connection);
    this.busyOnes.delete(connection);
    const key = entry.key;
    const address = key === undefined ? undefined : this.addresses.get(key);
    if (key === undefined || !address) return;
    const held = this.count(key);
    address.waiting.delete(connection);
    address.busy.delete(connection);
    if (held === 1) this.addresses.delete(key);
    this.recount(key, held, held - 1);
  }

  /** A request on it is under way: it makes room only after those waiting. */
  busy(connection: C): void {
    this.move(connection, true);
  }

  /** Its request was answered: it waits again, the newest. */
  idle(connection: C): void {
    this.move(connection, false);
  }

  /** The connection to close to make room, or undefined when there is none. */
  victim(): C | undefined {
    if (this.most > 1) {
      const key = first(this.byCount.get(this.most) ?? new Set<string>());
      const address = key === undefined ? undefined : this.addresses.get(key);
      if (address) return first(address.waiting) ?? first(address.busy);
    }
    return first(this.waiting) ?? first(this.busyOnes);
  }

  private move(connection: C, busy: boolean): void {
    const entry = this.entries.get(connection);
    if (!entry || entry.busy === busy) return;
    entry.busy = busy;
    (busy ? this.waiting : this.busyOnes).delete(connection);
    (busy ? this.busyOnes : this.waiting).add(connection);
    const address = entry.key === undefined ? undefined : this.addresses.get(entry.key);
    if (!address) return;
    (busy ? address.waiting : address.busy).delete(connection);
    (busy ? address.busy : address.waiting).add(connection);
  }

  private recount(key: string, from: number, to: number): void {
    const before = this.byCount.get(from);
    before?.delete(key);
    if (before?.size === 0) this.byCount.delete(from);
    if (to > 0) {
      const after = this.byCount.get(to) ?? new Set<string>();
      after.add(key);
      this.byCount.set(to, after);
    }
    if (to > this.most) this.most = to;
    else if (from === this.most && !this.byCount.has(from)) this.most = to;
  }
}
