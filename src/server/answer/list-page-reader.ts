import { APPLICANTS_MAX_LIMIT } from '../../kyc/contract/applicants.ts';
import { MAX_ID_LENGTH } from '../../kyc/contract/lookup.ts';
import { MAX_STATUS_LENGTH } from '../../kyc/contract/status.ts';
import { ApiFailure } from '../http/api-failure.ts';
import type { JsonPath } from './answer-scan.ts';
import { CONTAINER_COST, setMember, ValueBuilder } from './answer-value.ts';
import { MAX_ARCHIVE_DATE } from './archive-watch.ts';
import { errorMemberPlace, openedEnvelopePlace } from './envelope-members.ts';

/**
 * A page of the service's applicants list read for what the queue index takes from it (crawler-list.ts,
 * list-record.ts with `names: false`), from the answer's one scan: the envelope's `status` and `message`
 * (an error envelope's reason, which crawler-list.ts shows cut and cleaned), `data`'s
 * `total`, `skip` and `limit`, and of each record only its status, ids, archive flag and dates. Everything
 * else (the identities with their pictures, certificates, custom fields: the current documentation's list
 * carries whole records) is passed over as it arrives. Before, a page was built whole, as JSON.parse would
 * build it, and the crawler has four pages in flight: a service whose pages hold pictures made it hold up
 * to four times limits.maxResponseBytes at once. Now a page costs what its kept fields hold, at most
 * MAX_LIST_PAGE_KEPT, whatever its size in bytes; a page that keeps more (a hostile one: millions of
 * records) is refused. Each kept field is held up to its own bound (fieldBound): one record whose id is
 * megabytes long is left out and counted as any id the lookup refuses, where it used to cost the whole page,
 * and with it every reviewer's queue. For every list answer, `readListRecord` reads the same applicants
 * from this value as from JSON.parse's (list-page-reader.test.ts, a property test).
 */

/** What one page may keep: a hundred records of a few hundred bytes each is about 50 KiB. */
export const MAX_LIST_PAGE_KEPT = 1024 * 1024;

/**
 * The most records one page may hold (the crawler asks for APPLICANTS_MAX_LIMIT): as many as the page's
 * bound holds at CONTAINER_COST each, as each is an object of the heap however empty. A page of more
 * (a hundred thousand `{}`, 300 kB) is refused for its number of records, and said so: not as 1 MiB
 * of fields it does not have.
 */
export const MAX_LIST_PAGE_RECORDS = MAX_LIST_PAGE_KEPT / CONTAINER_COST;

export const TOO_MANY_RECORDS = new ApiFailure(
  'upstream_error',
  `A page of the applicants list of the KYC service holds more than ${MAX_LIST_PAGE_RECORDS.toLocaleString('en')} records (the crawler asks for ${APPLICANTS_MAX_LIMIT} at a time), so it was refused.`,
);

/** The record fields the index reads: the status, the ids, the archive flag; and every `…Date`, whichever the status names. */
const KEPT_FIELDS = new Set(['status', 'recordId', '_id', 'refId', 'isArchived', 'blockPassID', 'serviceID']);
/** The longest name a status's date has (statusDateFields): a longer `…Date` is no date the index reads. */
const MAX_DATE_FIELD = MAX_STATUS_LENGTH + 'Date'.length;
const isKeptField = (key: string) => KEPT_FIELDS.has(key) || (key.endsWith('Date') && key.length <= MAX_DATE_FIELD);
const KEPT_DATA = new Set(['records', 'total', 'skip', 'limit']);

/**
 * How many characters of a record's field are held (ValueBuilder.ownBound): past it, every reading of
 * the field refuses the value whatever follows, so what is held reads as the whole would. A status longer
 * than MAX_STATUS_LENGTH leaves its record out (list-record.ts); a date longer than the archive watch's 64
 * characters is none (a timestamp is at most 35); an id, blockPassID or archive flag of more than 512
 * code units is more than the lookup's 256 characters (an id is left out, as any the lookup refuses).
 */
function fieldBound(key: string): number {
  if (key === 'status') return MAX_STATUS_LENGTH;
  return key.endsWith('Date') ? MAX_ARCHIVE_DATE : 2 * MAX_ID_LENGTH;
}

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
    // The envelope itself, and an `extra` or `error` object of an error envelope, as the error members' reader opens them.
    const opened = openedEnvelopePlace(this.path, bracket, this.root);
    if (opened) {
      this.root = opened.root;
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
    const where = this.inRecords();
    if (where === 2 && this.record) {
      // A field holding an object or a list is kept as an empty one: it is read as "not text" all the same.
      setMember(this.record, this.field(), empty());
      this.count(CONTAINER_COST);
      return true;
    }
    if (where !== 1) return false;
    if (!this.roomForRecord()) return true;
    // A record that is a list is kept as an empty one: read as "not an object" all the same.
    this.record = bracket === '{' ? {} : undefined;
    this.records!.push(this.record ?? []);
    this.count(CONTAINER_COST);
    return true;
  }

  /** A record's field is held to its fieldBound; a record that is text or a number to one character: it reads as "not an object" whatever it holds. */
  protected override ownBound(): number {
    const where = this.inRecords();
    if (where === 1) return 0;
    return where === 2 ? fieldBound(this.path.keys[3]!) : Number.POSITIVE_INFINITY;
  }

  /** Room for one more record; past MAX_LIST_PAGE_RECORDS the page is refused, and nothing more is kept. */
  private roomForRecord(): boolean {
    if (this.records!.length < MAX_LIST_PAGE_RECORDS) return true;
    this.refused ??= TOO_MANY_RECORDS;
    this.tooLarge = true;
    return false;
  }

  /** The key of the record's field starting here, counted: a kept member's name is held as its value is. */
  private field(): string {
    const key = this.path.keys[3]!;
    this.count(key.length);
    return key;
  }

  /** Where a value starting outside every kept one goes; undefined when it is passed over. */
  protected outside(): ((value: unknown) => void) | undefined {
    const { root, data, records, record, path } = this;
    // `status`, and an error envelope's members (its `code` and its wait, read as the lookups read them: crawler-list.ts).
    const errorMember = root && errorMemberPlace(path, root);
    if (errorMember) return errorMember;
    if (root && path.at(['data'])) return (value) => setMember(root, 'data', value);
    if (data && path.at(['data', '*']) && KEPT_DATA.has(path.keys[1]!)) {
      const key = path.keys[1]!;
      if (key === 'records') this.records = this.record = undefined;
      return (value) => setMember(data, key, value);
    }
    const where = this.inRecords();
    if (where === 1 && records) return this.roomForRecord() ? (value) => records.push(value) : undefined;
    if (where === 2 && record) {
      const key = this.field();
      return (value) => setMember(record, key, value);
    }
    return undefined;
  }
}
