import type { JsonPath } from './answer-scan.ts';
import { CONTAINER_COST, setMember, ValueBuilder } from './answer-value.ts';

/**
 * A page of the service's applicants list read for what the queue index takes from it (crawler-list.ts,
 * list-record.ts with `names: false`), from the answer's one scan: the envelope's `status` and `message`
 * (an error envelope's reason, which crawler-list.ts shows cut and cleaned), `data`'s
 * `total`, `skip` and `limit`, and of each record only its status, ids, archive flag and dates. Everything
 * else (the identities with their pictures, certificates, custom fields: the current documentation's list
 * carries whole records) is passed over as it arrives. Before, a page was built whole, as JSON.parse would
 * build it, and the crawler has four pages in flight: a service whose pages hold pictures made it hold up
 * to four times limits.maxResponseBytes at once. Now a page costs what its kept fields hold, at most
 * MAX_KEPT, whatever its size in bytes; a page that keeps more (a hostile one: millions of empty records,
 * or an id of megabytes) is refused. For every list answer, `readListRecord` reads the same applicants
 * from this value as from JSON.parse's (list-page-reader.test.ts, a property test).
 */

/** What one page may keep: a hundred records of a few hundred bytes each is about 50 KiB. */
export const MAX_LIST_PAGE_KEPT = 1024 * 1024;

/** The record fields the index reads: the status, the ids, the archive flag; and every `…Date`, whichever the status names. */
const KEPT_FIELDS = new Set(['status', 'recordId', '_id', 'refId', 'isArchived', 'blockPassID']);
const isKeptField = (key: string) => KEPT_FIELDS.has(key) || key.endsWith('Date');
const KEPT_DATA = new Set(['records', 'total', 'skip', 'limit']);

export class ListPageReader extends ValueBuilder {
  private root: Record<string, unknown> | undefined;
  private data: Record<string, unknown> | undefined;
  private records: unknown[] | undefined;
  private record: Record<string, unknown> | undefined;

  constructor(path: JsonPath) {
    super(path, MAX_LIST_PAGE_KEPT);
  }

  /** The reduced envelope once the body was read whole (undefined when it was not an object). */
  value(): unknown {
    return this.root;
  }

  /** Where the tokenizer is in `data.records`: at a record (1), at one of its fields (2), or elsewhere (0). */
  private inRecords(): 0 | 1 | 2 {
    const { kinds, keys } = this.path;
    if (!this.records || kinds.length < 3 || kinds.length > 4) return 0;
    if (kinds[0] !== '{' || kinds[1] !== '{' || kinds[2] !== '[' || keys[0] !== 'data' || keys[1] !== 'records') return 0;
    return kinds.length === 3 ? 1 : kinds[3] === '{' && isKeptField(keys[3]!) ? 2 : 0;
  }

  /**
   * The containers this reader opens itself: the root, `data`, `data.records` and each record. A later
   * `data` or `records`, as JSON.parse keeps the last, replaces the earlier one; one of the wrong kind
   * stands as an empty container of its kind, for the envelope's schema to refuse.
   */
  protected override openOutside(bracket: '{' | '['): boolean {
    const empty = () => (bracket === '{' ? {} : []);
    if (this.path.depth === 0) {
      if (bracket === '{') this.root = {};
      return true;
    }
    if (this.root && this.path.at(['data'])) {
      this.data = bracket === '{' ? {} : undefined;
      this.records = this.record = undefined;
      setMember(this.root, 'data', this.data ?? empty());
      return true;
    }
    if (this.data && this.path.at(['data', 'records'])) {
      this.records = bracket === '[' ? [] : undefined;
      this.record = undefined;
      setMember(this.data, 'records', this.records ?? empty());
      return true;
    }
    if (this.inRecords() !== 1) return false;
    // A record that is a list is kept as an empty one: read as "not an object" all the same.
    this.record = bracket === '{' ? {} : undefined;
    this.records!.push(this.record ?? []);
    this.count(CONTAINER_COST);
    return true;
  }

  /** Where a value starting outside every kept one goes; undefined when it is passed over. */
  protected outside(): ((value: unknown) => void) | undefined {
    const { root, data, records, record, path } = this;
    if (root && (path.at(['status']) || path.at(['message']))) {
      const key = path.keys[0]!;
      return (value) => setMember(root, key, value);
    }
    if (root && path.at(['data'])) return (value) => setMember(root, 'data', value);
    if (data && path.at(['data', '*']) && KEPT_DATA.has(path.keys[1]!)) {
      const key = path.keys[1]!;
      if (key === 'records') this.records = this.record = undefined;
      return (value) => setMember(data, key, value);
    }
    const where = this.inRecords();
    if (where === 1 && records) return (value) => records.push(value);
    if (where === 2 && record) {
      const key = path.keys[3]!;
      return (value) => setMember(record, key, value);
    }
    return undefined;
  }
}
