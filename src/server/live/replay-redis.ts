import type { Redis } from 'ioredis';
import { liveEventSchema } from '../../kyc/contract/live-events.ts';
import type { LiveHub, SequencedEvent } from './live-hub.ts';
import { parseEventId, type ReplayBounds } from './replay-buffer.ts';

/**
 * The replay shared by every instance (issue 32): with REDIS_URL, each published event is also kept in a
 * Redis Stream whose entry ids are the events' own ids (`<id>-0`), so a page that reconnects to another
 * instance, or to one started since, gets from Redis what it missed after its `Last-Event-ID`.
 *
 * The id, the stream, the trim and the publish are one script: Redis runs it atomically, so the channel
 * carries the events in the order of their ids, whichever instance accepted each, and an event is in the
 * stream before any instance hears it. The trim drops the oldest entries while the stream is over
 * `maxEvents`, over `maxBytes` (the events' JSON, counted in a key beside it) or older than the oldest id
 * to keep (now − `maxAgeMs`, by the publisher's clock: ids are microseconds of Redis's). At most 1000
 * go per publish, so a publish after a long quiet never holds Redis for long; a flood drops at least one
 * per event it adds, so the caps hold. Both keys expire after `maxAgeMs` of silence.
 */
export const PUBLISH_SCRIPT = `local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local newest = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
local after = 0
if #newest > 0 then after = tonumber(string.match(newest[1][1], '^%d+')) end
local id = math.max(tonumber(redis.call('GET', KEYS[1]) or '0') + 1, now, after + 1)
local text = string.format('%.0f', id)
redis.call('SET', KEYS[1], text)
redis.call('XADD', KEYS[2], text .. '-0', 'e', ARGV[2])
local count = redis.call('XLEN', KEYS[2])
local bytes = #ARGV[2]
if count > 1 then bytes = bytes + tonumber(redis.call('GET', KEYS[3]) or '0') end
local oldest, maxEvents, maxBytes = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local cursor, cut, dropped, stop = '-', nil, 0, false
while not stop do
  local batch = redis.call('XRANGE', KEYS[2], cursor, '+', 'COUNT', 100)
  stop = #batch == 0
  for _, entry in ipairs(batch) do
    local seq = tonumber(string.match(entry[1], '^%d+'))
    if dropped >= 1000 or seq == id or not (count > maxEvents or bytes > maxBytes or seq < oldest) then
      stop = true
      break
    end
    count, bytes, dropped, cut = count - 1, bytes - #entry[2][2], dropped + 1, seq
  end
  if not stop then cursor = '(' .. batch[#batch][1] end
end
if cut then redis.call('XTRIM', KEYS[2], 'MINID', string.format('%.0f', cut + 1)) end
redis.call('SET', KEYS[3], bytes, 'PX', ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
redis.call('PUBLISH', ARGV[1], text .. ' ' .. ARGV[2])
return text`;

export interface ReplayKeys {
  counter: string;
  stream: string;
  bytes: string;
}

export function replayKeys(prefix: string): ReplayKeys {
  return { counter: `${prefix}live-events:id`, stream: `${prefix}live-events:replay`, bytes: `${prefix}live-events:replay-bytes` };
}

/** The arguments of PUBLISH_SCRIPT after its keys: the channel, the event, and the bounds as of `now`. */
export function publishArguments(channel: string, json: string, bounds: ReplayBounds, now: number): string[] {
  const oldest = Math.max(0, Math.floor((now - bounds.maxAgeMs) * 1000));
  return [channel, json, String(oldest), String(bounds.maxEvents), String(bounds.maxBytes), String(Math.ceil(bounds.maxAgeMs))];
}

/** Stream ids are two 64-bit numbers: a `Last-Event-ID` above that names no event of ours. */
const MAX_STREAM_SEQ = 2n ** 63n;
const PAGE = 1000;

/**
 * The kept events after `since`, a page at a time, in id order; those older than `maxAgeMs` by `now` are
 * not replayed (the trim may not have reached them yet), and an entry that is not an event (another
 * program's, sharing Redis) is skipped and reported.
 */
export async function* replayPages(
  redis: Redis,
  stream: string,
  since: bigint,
  oldest: number,
  onBadEntry: () => void,
): AsyncGenerator<SequencedEvent[]> {
  if (since >= MAX_STREAM_SEQ) return;
  let cursor = `(${since}-0`;
  for (;;) {
    const entries = (await redis.xrange(stream, cursor, '+', 'COUNT', PAGE)) as [string, string[]][];
    if (entries.length === 0) return;
    const page: SequencedEvent[] = [];
    for (const [entryId, fields] of entries) {
      const event = readEntry(entryId, fields);
      if (!event) onBadEntry();
      else if (Number(event.id) >= oldest) page.push(event);
    }
    yield page;
    if (entries.length < PAGE) return;
    cursor = `(${entries[entries.length - 1]![0]}`;
  }
}

function readEntry(entryId: string, fields: string[]): SequencedEvent | undefined {
  const match = /^(\d+)-0$/.exec(entryId);
  if (!match || fields[0] !== 'e' || fields[1] === undefined) return undefined;
  try {
    const parsed = liveEventSchema.safeParse(JSON.parse(fields[1]));
    return parsed.success ? { id: match[1]!, event: parsed.data } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Subscribes a listener with a `Last-Event-ID` on an instance whose replay is in Redis: it hears the live
 * events at once, held back while the kept ones after `since` are read, then the kept ones, then the held
 * ones; each id once and in increasing order (an event read from the stream and heard on the channel
 * too goes out once). When Redis cannot be read, the page gets the live events only, and `onFailure` says so.
 */
export function subscribeWithReplay(
  subscribe: LiveHub['subscribe'],
  listener: (event: SequencedEvent) => void,
  since: string,
  read: (since: bigint) => AsyncGenerator<SequencedEvent[]>,
  onFailure: (error: unknown) => void,
): () => void {
  const seq = parseEventId(since);
  if (seq === undefined) return subscribe(listener);
  let last = seq;
  let held: SequencedEvent[] | undefined = [];
  let stopped = false;
  const forward = (event: SequencedEvent) => {
    const id = BigInt(event.id);
    if (stopped || id <= last) return;
    last = id;
    listener(event);
  };
  const stop = subscribe((event) => (held ? held.push(event) : forward(event)));
  void (async () => {
    try {
      for await (const page of read(seq)) {
        if (stopped) return;
        for (const event of page) forward(event);
      }
    } catch (error) {
      onFailure(error);
    } finally {
      const waiting = held ?? [];
      held = undefined;
      try {
        for (const event of waiting) forward(event);
      } catch {
        stop();
      }
    }
  })();
  return () => {
    stopped = true;
    stop();
  };
}
