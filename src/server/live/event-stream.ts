import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { LIVE_EVENT_NAME, LIVE_EVENTS_PATH } from '../../kyc/contract/live-events.ts';
import { STREAM_HELLO_EVENT_NAME, STREAM_RESYNC_EVENT_NAME } from '../../kyc/contract/presence.ts';
import { type AccessControl, mayUse } from '../auth/access-control.ts';
import { ApiFailure } from '../http/api-failure.ts';
import type { Identity } from '../http/identity.ts';
import { get, type Route, type SignedInCall } from '../http/routes.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { LiveHub, SequencedEvent } from './live-hub.ts';
import type { Presence } from './presence.ts';
import { createStreamBudget, type StreamBudget } from './stream-budget.ts';

export interface EventStreamOptions {
  /** A comment line this often keeps proxies from closing a quiet stream, and re-checks the session (default 15 s). */
  heartbeatMs?: number;
  /** Streams one user may hold open on this instance (default 5): a page per tab, and a few reconnecting. */
  maxPerUser?: number;
  /** Bytes a stream may have waiting to be sent before it is closed as too slow (default 1 MiB). */
  maxBufferedBytes?: number;
  /** Bytes all streams together may have waiting; past it the one furthest behind is closed first (default 64 MiB: stream-budget.ts). */
  maxBufferedTotalBytes?: number;
  /** Aborted when the server stops: every stream ends, so that it does not hold the shutdown for its 10 s. */
  stop?: AbortSignal;
}

export interface EventStreams {
  route: Route;
  /** Ends every stream (the server stops). */
  closeAll(): void;
  /** Streams open now. */
  count(): number;
}

const DEFAULTS = { heartbeatMs: 15_000, maxPerUser: 5, maxBufferedBytes: 1024 * 1024, maxBufferedTotalBytes: 64 * 1024 * 1024 };
/** What one turn of the event loop may queue for a stream, in `maxBufferedBytes`: a burst passes, a whole replay does not. */
const QUEUED_PER_TURN = 4;
/** How soon a browser reconnects after the stream was closed (its `retry:`). */
const RETRY_MS = 2000;

interface Stream {
  /** Whose stream it is: the user's name as signed in. */
  user(): string;
  recheck(): void;
  close(): void;
  /** Closed as too far behind: the connection destroyed, what it held unsent dropped. */
  cut(): void;
}

/**
 * `GET /api/events`: Server-Sent Events of the live hub, for a signed-in user, filtered to the
 * environments that user may use. Each stream writes to its socket and never waits: one whose unsent
 * bytes pass the bound is closed (the browser reconnects with `Last-Event-ID`), so a slow reader costs
 * nobody else. It ends when its session does: re-checked on each heartbeat and after a sign-out, and
 * closed at once when its user is removed or given another password, role or environments (revocations
 * of every instance, through the hub).
 */
export function createEventStreams(
  hub: LiveHub,
  access: AccessControl,
  metrics: Metrics,
  options: EventStreamOptions = {},
  presence?: Pick<Presence, 'attach'>,
): EventStreams {
  const { stop, ...given } = options;
  const settings = { ...DEFAULTS, ...given };
  const streams = new Set<Stream>();
  const perUser = new Map<string, number>();
  const budget = createStreamBudget<Stream>(settings.maxBufferedTotalBytes);

  function open(call: SignedInCall): void {
    if (stop?.aborted) return void call.res.destroy();
    const key = access.rateLimitKey(call.req, call.identity);
    const held = perUser.get(key) ?? 0;
    if (held >= settings.maxPerUser) {
      throw new ApiFailure(
        'too_many_event_streams',
        `You already have ${held} live update streams open (at most ${settings.maxPerUser}): close a tab of Candidate Lookup, or wait a moment for closed ones to end.`,
      );
    }
    perUser.set(key, held + 1);
    metrics.eventStreams.inc();
    const stream = startStream(call, { hub, access, presence, budget }, settings, () => {
      streams.delete(stream);
      budget.forget(stream);
      const left = (perUser.get(key) ?? 1) - 1;
      if (left > 0) perUser.set(key, left);
      else perUser.delete(key);
      metrics.eventStreams.dec();
    });
    streams.add(stream);
  }

  const closeAll = () => {
    for (const stream of [...streams]) stream.close();
  };
  // Closed in the very turn the revocation is heard: no event published after it reaches them.
  const stopRevocations = hub.onRevocation((revocation) => {
    if (revocation.kind === 'sign-out') {
      for (const stream of streams) stream.recheck();
      return;
    }
    const users = new Set(revocation.users.map((user) => user.toLowerCase()));
    for (const stream of [...streams]) if (users.has(stream.user().toLowerCase())) stream.close();
  });
  stop?.addEventListener(
    'abort',
    () => {
      stopRevocations();
      closeAll();
    },
    { once: true },
  );

  return {
    route: { ...get(LIVE_EVENTS_PATH, open), eventStream: true },
    closeAll,
    count: () => streams.size,
  };
}

interface StreamDeps {
  hub: LiveHub;
  access: AccessControl;
  presence: Pick<Presence, 'attach'> | undefined;
  budget: StreamBudget<Stream>;
}

function startStream(
  { req, res, identity: first }: SignedInCall,
  { hub, access, presence, budget }: StreamDeps,
  settings: typeof DEFAULTS,
  onClosed: () => void,
): Stream {
  let identity: Identity = first;
  let closed = false;
  const id = writeHello(res, hub);
  // What a burst of events adds in one turn of the event loop goes out in one write, not one per event.
  let queued: string[] = [];
  let queuedBytes = 0;
  const flush = () => {
    const text = queued.join('');
    queued = [];
    queuedBytes = 0;
    if (closed) return;
    // Ending would wait behind what is unsent, held in memory: a reader this far behind is cut.
    if (res.writableLength > settings.maxBufferedBytes) return close(true);
    res.write(text);
    held();
  };
  // What it holds unsent, in the instance's budget: past it the streams furthest behind are cut.
  const held = () => {
    if (closed) return;
    for (const behind of budget.note(self, res.writableLength)) behind.cut();
  };
  /**
   * Queues a frame (`id`: its event's). Never more than four times `maxBufferedBytes` in one turn: a
   * replay of everything a page missed (up to 64 MiB, all at once for a `Last-Event-ID: 0` that never
   * reads) was held whole per stream, about 110 MB each. Past the bound what is queued is dropped for a
   * `resync`, under the id of the last event it stands for, so that the page reads the queue again and
   * re-checks an open candidate's status, and a reconnection goes on from there.
   */
  const send = (text: string, id?: string) => {
    if (closed) return;
    queuedBytes += text.length;
    if (queuedBytes > QUEUED_PER_TURN * settings.maxBufferedBytes && id !== undefined) {
      const resync = `id: ${id}\nevent: ${STREAM_RESYNC_EVENT_NAME}\ndata: {}\n\n`;
      const first = queued.length === 0;
      queued = [resync];
      queuedBytes = resync.length;
      if (first) setImmediate(flush);
      return;
    }
    if (queued.push(text) === 1) setImmediate(flush);
  };
  const close = (cut = false) => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    leave?.();
    if (cut) res.destroy();
    else res.end();
    onClosed();
  };
  const recheck = () => {
    // Not activity: a page left open must not keep its session from idling out.
    access.identify(req, { touch: false }).then(
      (now) => {
        if (now) identity = now;
        else close();
      },
      // The session cannot be checked (Redis is away): closed, as every request is refused then.
      () => close(),
    );
  };
  const heartbeat = setInterval(() => {
    send(': heartbeat\n\n');
    recheck();
  }, settings.heartbeatMs);
  heartbeat.unref();
  const unsubscribe = hub.subscribe((sequenced) => {
    if (mayUse(identity, sequenced.event.environment)) send(frame(sequenced), sequenced.id);
  }, lastEventId(req));
  const leave = presence?.attach({ id, identity: () => identity, send });
  const self: Stream = { user: () => identity.user, recheck, close: () => close(), cut: () => close(true) };
  req.on('close', () => close());
  res.on('error', () => close(true));
  res.on('drain', held);
  return self;
}

/**
 * The stream's head and first message. The stream's name, which the page's presence announcements give
 * (presence.ts): a new one on each reconnection. With it, the hub's mark as the message's id: a page
 * reconnecting before its first event sends it back as Last-Event-ID and is replayed what it missed
 * (live-hub.ts `mark`).
 */
function writeHello(res: http.ServerResponse, hub: LiveHub): string {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    // nginx and others buffer answers unless told not to; an event must not wait in a proxy.
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  const id = randomBytes(16).toString('base64url');
  const mark = hub.mark();
  const hello = `${mark === undefined ? '' : `id: ${mark}\n`}event: ${STREAM_HELLO_EVENT_NAME}\ndata: ${JSON.stringify({ stream: id })}\n\n`;
  res.write(`retry: ${RETRY_MS}\n\n${hello}`);
  return id;
}

const frames = new WeakMap<SequencedEvent, string>();

/**
 * One event as the stream sends it, made once for all the streams it goes to; the JSON holds no line
 * break, so one `data:` line carries it.
 */
export function frame(sequenced: SequencedEvent): string {
  let text = frames.get(sequenced);
  if (text === undefined) {
    text = `id: ${sequenced.id}\nevent: ${LIVE_EVENT_NAME}\ndata: ${JSON.stringify(sequenced.event)}\n\n`;
    frames.set(sequenced, text);
  }
  return text;
}

function lastEventId(req: http.IncomingMessage): string | undefined {
  const header = req.headers['last-event-id'];
  return typeof header === 'string' && header.length <= 32 ? header : undefined;
}
