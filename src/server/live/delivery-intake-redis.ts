import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Redis } from 'ioredis';
import { webhookDeliverySchema, liveEventSchema } from '../../kyc/contract/live-events.ts';
import {
  type DeliveryIntake,
  INTAKE_IN_FLIGHT,
  INTAKE_MAX_ENTRIES,
  INTAKE_MAX_TRIES,
  type OnDropped,
  type ProcessDelivery,
  type QueuedDelivery,
} from './delivery-intake.ts';

export interface RedisIntakeOptions {
  /** Put before the stream's key (default `candidate-lookup:`, as the shared store's). */
  keyPrefix?: string;
  /** A delivery taken by an instance and not acknowledged for this long is taken by another (default 60 s). */
  claimIdleMs?: number;
  /** How long one read waits for new deliveries (default 1 s): also how soon a closed intake stops reading. */
  blockMs?: number;
  maxEntries?: number;
}

const GROUP = 'processors';
type Entry = [id: string, fields: string[]];

/**
 * Forgets consumers of the group that hold nothing pending: this instance's own when it closes, and
 * those idle for over ARGV[1] ms (instances that died; a living one is made again by its next read).
 * One script, so that no delivery is handed to a consumer between the check and the deletion (a
 * deleted consumer's pending deliveries could never be claimed again).
 */
const FORGET = `
local forgotten = 0
for _, c in ipairs(redis.call('XINFO', 'CONSUMERS', KEYS[1], ARGV[3])) do
  local name, pending, idle = c[2], c[4], c[6]
  if pending == 0 and (name == ARGV[2] or idle > tonumber(ARGV[1])) then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[3], name)
    forgotten = forgotten + 1
  end
end
return forgotten
`;
/** A consumer idle this long with nothing pending is forgotten (its instance died), looked for this often. */
const FORGET_IDLE_MS = 60 * 60_000;
const FORGET_EVERY_MS = 10 * 60_000;

type Forgetting = Redis & { forgetConsumers(stream: string, idleMs: number, name: string, group: string): Promise<number> };

/**
 * The queue of accepted deliveries in a Redis Stream (issue 32), which every instance consumes.
 *
 * The receiver's XADD (bounded by MAXLEN ~ `maxEntries`) is what its 200 waits for. Each instance reads
 * with XREADGROUP in one consumer group, so each delivery goes to one instance, and acknowledges it
 * (XACK, then XDEL: a processed delivery is not kept) only once it is processed. A delivery taken by an
 * instance that died stays pending: after `claimIdleMs` without an acknowledgement, XAUTOCLAIM gives it
 * to whichever instance reads next (the restarted one too). While a delivery is processed it is claimed
 * again every third of `claimIdleMs` (XCLAIM JUSTID), so that a slow check is not taken for a death. A delivery claimed more than INTAKE_MAX_TRIES times is given up. The stream holds deliveries not
 * processed yet only: past `maxEntries` of them, the oldest are trimmed (counted as dropped).
 */
export function createRedisIntake(url: string, options: RedisIntakeOptions = {}): DeliveryIntake {
  const prefix = options.keyPrefix ?? 'candidate-lookup:';
  const connection = { maxRetriesPerRequest: 0, connectTimeout: 2000, retryStrategy: (times: number) => Math.min(times * 100, 2000) };
  const state = { closed: false };
  const consumer: Consumer = {
    stream: `${prefix}webhook-intake`,
    name: `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    claimIdleMs: options.claimIdleMs ?? 60_000,
    blockMs: options.blockMs ?? 1000,
    maxEntries: options.maxEntries ?? INTAKE_MAX_ENTRIES,
    // Fail fast: the receiver answers 503 at once rather than holding the service's request.
    commands: new Redis(url, { ...connection, enableOfflineQueue: false, commandTimeout: 2000 }),
    // XREADGROUP BLOCK holds its connection: one of its own, without a command timeout.
    reader: new Redis(url, { ...connection, enableOfflineQueue: true }),
    closed: () => state.closed,
  };
  const { commands, reader } = consumer;
  commands.defineCommand('forgetConsumers', { numberOfKeys: 1, lua: FORGET });
  const forget = (name: string) => (commands as Forgetting).forgetConsumers(consumer.stream, FORGET_IDLE_MS, name, GROUP).catch(() => 0);
  const sweeper = setInterval(() => void forget(''), FORGET_EVERY_MS);
  sweeper.unref();
  commands.on('error', () => undefined);
  reader.on('error', () => undefined);
  let started = false;
  return {
    async add(queued) {
      if (commands.status !== 'ready') throw new Error('Redis is not reachable: the delivery was not queued.');
      await commands.xadd(consumer.stream, 'MAXLEN', '~', consumer.maxEntries, '*', 'd', JSON.stringify(queued));
    },
    start(process, onDropped) {
      if (started) return;
      started = true;
      void consume(consumer, process, onDropped);
    },
    // Not waiting for the deliveries under way: what is not acknowledged stays pending, for another instance.
    // The reader goes first, so that nothing more is handed to this consumer; then it is forgotten if
    // it holds nothing pending (one consumer per start would otherwise pile up in the group).
    async close() {
      state.closed = true;
      clearInterval(sweeper);
      reader.disconnect();
      if (commands.status === 'ready') await forget(consumer.name);
      commands.disconnect();
    },
  };
}

interface Consumer {
  stream: string;
  /** This instance's name in the group: its host, process and a random part (a restart is another consumer). */
  name: string;
  claimIdleMs: number;
  blockMs: number;
  maxEntries: number;
  commands: Redis;
  reader: Redis;
  closed(): boolean;
}

/** Reads the group until the intake closes: the deliveries left pending by a dead instance first, else new ones. */
async function consume(consumer: Consumer, process: ProcessDelivery, onDropped: OnDropped): Promise<void> {
  const { stream, commands, reader, claimIdleMs } = consumer;
  /** The entries this instance is processing now, claimed again now and then so that their idle time restarts. */
  const inFlight = new Set<string>();
  let slotFreed: (() => void) | undefined;
  const done = (id: string) => commands.multi().xack(stream, GROUP, id).xdel(stream, id).exec();
  const handle = async ([id, fields]: Entry) => {
    try {
      const queued = readEntry(fields);
      if (!queued) {
        onDropped('unreadable', 'a queued entry is not a delivery');
        await done(id);
      } else if ((await process(queued).catch(() => 'retry' as const)) === 'done') await done(id);
    } catch {
      // Not acknowledged (Redis away): it stays pending, and is taken again after `claimIdleMs`.
    } finally {
      inFlight.delete(id);
      slotFreed?.();
    }
  };
  const keeper = setInterval(
    () => {
      if (inFlight.size === 0 || commands.status !== 'ready') return;
      commands.xclaim(stream, GROUP, consumer.name, 0, ...inFlight, 'JUSTID').catch(() => undefined);
    },
    Math.max(10, Math.floor(claimIdleMs / 3)),
  );
  let pause = 0;
  while (!consumer.closed()) {
    try {
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
      if (consumer.closed()) break;
      await ensureGroup(reader, stream);
      for (;;) {
        if (inFlight.size >= INTAKE_IN_FLIGHT) await new Promise<void>((resolve) => (slotFreed = resolve));
        slotFreed = undefined;
        const room = INTAKE_IN_FLIGHT - inFlight.size;
        const entries = (await claimed(consumer, room, inFlight, onDropped, done)) ?? (await fresh(consumer, room));
        pause = 0;
        if (consumer.closed()) break;
        for (const entry of entries) {
          inFlight.add(entry[0]);
          void handle(entry);
        }
      }
    } catch {
      // Redis away (or the stream deleted): try again, at most every 2 s, until the intake closes.
      pause = Math.min(Math.max(pause * 2, 100), 2000);
    }
  }
  clearInterval(keeper);
}

async function ensureGroup(reader: Redis, stream: string): Promise<void> {
  try {
    await reader.xgroup('CREATE', stream, GROUP, '0', 'MKSTREAM');
  } catch (error) {
    if (!String((error as Error).message).startsWith('BUSYGROUP')) throw error;
  }
}

/** The deliveries left pending by an instance that died (or by this one's failed tries), or undefined for none. */
async function claimed(
  consumer: Consumer,
  room: number,
  inFlight: ReadonlySet<string>,
  onDropped: OnDropped,
  done: (id: string) => Promise<unknown>,
): Promise<Entry[] | undefined> {
  const { reader, stream, name } = consumer;
  const [, entries, deleted] = (await reader.xautoclaim(stream, GROUP, name, consumer.claimIdleMs, '0-0', 'COUNT', room)) as [
    string,
    (Entry | null)[],
    string[]?,
  ];
  for (const _id of deleted ?? []) onDropped('trimmed', `over ${consumer.maxEntries} deliveries were waiting`);
  // Not those this instance is processing now (its own, idle for a moment before the keeper came by).
  const taken = entries.filter((entry): entry is Entry => entry !== null && !inFlight.has(entry[0]));
  if (taken.length === 0) return undefined;
  const first = taken[0]![0];
  const last = taken[taken.length - 1]![0];
  const pending = (await reader.xpending(stream, GROUP, first, last, taken.length, name)) as [string, string, number, number][];
  const tries = new Map(pending.map(([id, , , count]) => [id, count]));
  const kept: Entry[] = [];
  for (const entry of taken) {
    if ((tries.get(entry[0]) ?? 0) <= INTAKE_MAX_TRIES) kept.push(entry);
    else {
      onDropped('failed', `${INTAKE_MAX_TRIES} tries failed`);
      await done(entry[0]);
    }
  }
  return kept;
}

async function fresh(consumer: Consumer, room: number): Promise<Entry[]> {
  const { reader, stream, name, blockMs } = consumer;
  const read = (await reader.xreadgroup('GROUP', GROUP, name, 'COUNT', room, 'BLOCK', blockMs, 'STREAMS', stream, '>')) as
    | [string, Entry[]][]
    | null;
  return read?.[0]?.[1] ?? [];
}

/** A stream entry as a queued delivery, checked like any input: Redis may be shared with other programs. */
function readEntry(fields: string[]): QueuedDelivery | undefined {
  if (fields[0] !== 'd' || typeof fields[1] !== 'string') return undefined;
  try {
    const value = JSON.parse(fields[1]) as { environment?: unknown; delivery?: unknown; live?: unknown };
    const delivery = webhookDeliverySchema.safeParse(value.delivery);
    const live = liveEventSchema.safeParse(value.live);
    if (typeof value.environment !== 'string' || !delivery.success || !live.success) return undefined;
    return { environment: value.environment, delivery: delivery.data, live: live.data };
  } catch {
    return undefined;
  }
}
