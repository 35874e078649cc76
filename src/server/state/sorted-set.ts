import { compareMembers } from './queue-entry.ts';

/**
 * A sorted set in memory, ordered as Redis orders one (by score, then by member's bytes), for the queue
 * index of a single instance. Kept in blocks of at most BLOCK entries: an insert moves at most a block,
 * and a rank is found by summing the blocks' sizes, so 500 000 members cost microseconds per write and
 * per page, where one sorted array would move half a million entries per insert.
 */

interface Item {
  score: number;
  member: string;
}

const BLOCK = 512;

const before = (a: Item, b: Item) => a.score < b.score || (a.score === b.score && compareMembers(a.member, b.member) < 0);

export class SortedSet {
  private readonly scores = new Map<string, number>();
  private blocks: Item[][] = [];

  get size(): number {
    return this.scores.size;
  }

  score(member: string): number | undefined {
    return this.scores.get(member);
  }

  add(member: string, score: number): void {
    if (this.scores.get(member) === score) return;
    this.delete(member);
    this.scores.set(member, score);
    const item = { score, member };
    if (this.blocks.length === 0) {
      this.blocks.push([item]);
      return;
    }
    const index = this.blockFor(item);
    const block = this.blocks[index]!;
    block.splice(lowerBound(block, item), 0, item);
    if (block.length > BLOCK * 2) this.blocks.splice(index, 1, block.slice(0, BLOCK), block.slice(BLOCK));
  }

  delete(member: string): boolean {
    const score = this.scores.get(member);
    if (score === undefined) return false;
    this.scores.delete(member);
    const item = { score, member };
    const index = this.blockFor(item);
    const block = this.blocks[index]!;
    block.splice(lowerBound(block, item), 1);
    if (block.length === 0) this.blocks.splice(index, 1);
    return true;
  }

  /** `count` members from rank `start` (0: the lowest score; `reverse`: the highest). */
  range(start: number, count: number, reverse = false): string[] {
    const size = this.size;
    if (start >= size || count <= 0) return [];
    const from = reverse ? Math.max(0, size - start - count) : start;
    const to = reverse ? size - start : Math.min(size, start + count);
    const out = this.slice(from, to).map((item) => item.member);
    return reverse ? out.reverse() : out;
  }

  /** How many members score strictly below `max`. */
  countBelow(max: number): number {
    let count = 0;
    for (const block of this.blocks) {
      if (block.at(-1)!.score < max) {
        count += block.length;
        continue;
      }
      return count + lowerBound(block, { score: max, member: '' });
    }
    return count;
  }

  /** `count` of the members scoring below `max`, from the `offset`th (lowest first; `reverse`: highest first). */
  rangeBelow(max: number, offset: number, count: number, reverse = false): string[] {
    const below = this.countBelow(max);
    if (offset >= below || count <= 0) return [];
    const from = reverse ? Math.max(0, below - offset - count) : offset;
    const to = reverse ? below - offset : Math.min(below, offset + count);
    const out = this.slice(from, to).map((item) => item.member);
    return reverse ? out.reverse() : out;
  }

  private slice(from: number, to: number): Item[] {
    const out: Item[] = [];
    let passed = 0;
    for (const block of this.blocks) {
      const end = passed + block.length;
      if (end > from && passed < to) out.push(...block.slice(Math.max(0, from - passed), Math.min(block.length, to - passed)));
      passed = end;
      if (passed >= to) break;
    }
    return out;
  }

  /** The block an item belongs in: the first whose last item is not before it (else the last block). */
  private blockFor(item: Item): number {
    let low = 0;
    let high = this.blocks.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (before(this.blocks[mid]!.at(-1)!, item)) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/** The first position in a sorted block whose item is not before `item`. */
function lowerBound(block: readonly Item[], item: Item): number {
  let low = 0;
  let high = block.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (before(block[mid]!, item)) low = mid + 1;
    else high = mid;
  }
  return low;
}
