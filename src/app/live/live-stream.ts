import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { LiveEvent } from '../../kyc/contract/live-events.ts';
import { ApiError } from '../api/api-error.ts';
import { apiResponse, openEventStream } from '../api/api-request.ts';
import { createLiveStore, type LiveNotification, type LiveState } from './live-store.ts';

/**
 * The tab's one live stream (issue 22): opened after sign-in, closed at sign-out. Each `kyc` event is
 * checked with the contract's schema (loaded with the stream, so zod stays off the first load), kept in
 * the notifications list, handed to the pages that listen and shown by the browser if asked for (that
 * code, and the words of each event it needs, load with the stream too).
 */

export { type LiveNotification, type LiveState, MAX_NOTIFICATIONS } from './live-store.ts';

/** The tab's one store of its stream's state, its notifications and the pages listening (live-store.ts). */
const live = createLiveStore();

/** An event that arrived: listed, handed to every page listening, and shown by the browser if asked for. */
function deliverLiveEvent(event: LiveEvent, notifyBrowser: (event: LiveEvent) => void): void {
  live.dispatch({ type: 'received', event });
  live.publish(event);
  notifyBrowser(event);
}

/** The pages that read what they show again when events may have been missed (useLiveResync). */
const resyncListeners = new Set<() => void>();
const resync = () => {
  for (const listener of resyncListeners) listener();
};

/** Forgets the tab's notifications: at sign-out, as soon as it is asked, as the recent lookups are. */
export function clearLiveNotifications(): void {
  live.dispatch({ type: 'cleared' });
}

/**
 * A stream the server refused (its session store away, a proxy's 502 during a deploy) is not retried by
 * the browser: it is opened anew after this long, twice as long each time, 30 s at most, until it opens.
 */
const REOPEN_FIRST_MS = 2000;
const REOPEN_MAX_MS = 30_000;

/** A wait spread over ±20 %: tabs refused together (a proxy's 502 in a deploy) do not all come back, and read their pages again, at once. */
const jittered = (ms: number) => Math.round(ms * (0.8 + Math.random() * 0.4));

/**
 * Why the server refused the stream, asked once by a request of the app's own (the browser's stream is
 * told no status): the error's code, or undefined where it opens now (it is let go at once) or nothing answers.
 */
async function refusalOf(path: string): Promise<string | undefined> {
  const asking = new AbortController();
  try {
    await apiResponse(path, { signal: asking.signal, headers: { Accept: 'text/event-stream' } });
    return undefined;
  } catch (error) {
    return error instanceof ApiError ? error.code : undefined;
  } finally {
    asking.abort();
  }
}

/** Opens the stream; the returned function closes it and forgets the session's notifications. */
export function startLiveStream(): () => void {
  live.dispatch({ type: 'started' });
  const mine = live.get().opening;
  const current = () => live.get().opening === mine;
  let stream: ReturnType<typeof openEventStream> | undefined;
  let reopen: ReturnType<typeof setTimeout> | undefined;
  // Presence, too, loads with the stream: the first load carries neither (nor zod).
  const presence = Promise.all([import('../../kyc/contract/presence.ts'), import('./presence.ts')]);
  const events = Promise.all([import('../../kyc/contract/live-events.ts'), import('./browser-notifications.ts')]);
  Promise.all([events, presence]).then(
    ([[eventsContract, { notifyBrowser }], [contract, tab]]) => {
      let refused = 0;
      const open = () => {
        if (!current()) return;
        let opened: ReturnType<typeof openEventStream>;
        try {
          opened = openEventStream(eventsContract.LIVE_EVENTS_PATH);
        } catch {
          // A browser without server-sent events: the pages work as before, without live updates.
          live.dispatch({ type: 'unavailable' });
          return;
        }
        stream = opened;
        opened.onopen = () => {
          live.dispatch({ type: 'opened' });
          // A stream opened anew has no Last-Event-ID to be replayed from: every page reads what it shows again.
          if (refused > 0) resync();
          refused = 0;
        };
        opened.onerror = () => {
          live.dispatch({ type: 'failed' });
          // The browser retries by itself while its stream is CONNECTING; CLOSED means the server refused it.
          if (opened.readyState !== opened.CLOSED) return;
          opened.close();
          const wait = jittered(Math.min(REOPEN_MAX_MS, REOPEN_FIRST_MS * 2 ** refused++));
          void refusalOf(eventsContract.LIVE_EVENTS_PATH).then((code) => {
            if (!current()) return;
            // A tab more than the streams one user may hold (429): no restart to wait for, so not "Reconnecting…"
            // for as long as the tab stays open; off, as it is, and opened once another tab closes.
            if (code === 'too_many_event_streams') live.dispatch({ type: 'unavailable' });
            reopen = setTimeout(open, wait);
          });
        };
        listenForEvents(opened, eventsContract, notifyBrowser);
        listenForPresence(opened, contract, tab);
      };
      open();
    },
    () => {
      if (current()) live.dispatch({ type: 'unavailable' });
    },
  );
  return () => {
    clearTimeout(reopen);
    stream?.close();
    void presence.then(
      ([, tab]) => tab.setPresenceStream(undefined),
      () => {},
    );
    if (current()) live.dispatch({ type: 'stopped' });
  };
}

/** Each `kyc` event the page can read, delivered; one it cannot is skipped: the next one, or a Refresh, still tells the truth. */
function listenForEvents(
  opened: ReturnType<typeof openEventStream>,
  { LIVE_EVENT_NAME, liveEventSchema }: typeof import('../../kyc/contract/live-events.ts'),
  notifyBrowser: (event: LiveEvent) => void,
): void {
  opened.addEventListener(LIVE_EVENT_NAME, (message) => {
    let data: unknown;
    try {
      data = JSON.parse(String((message as MessageEvent).data));
    } catch {
      return;
    }
    const parsed = liveEventSchema.safeParse(data);
    if (parsed.success) deliverLiveEvent(parsed.data, notifyBrowser);
  });
}

/** The stream's name for this tab's presence announcements, and who else has which candidate open. */
function listenForPresence(
  opened: ReturnType<typeof openEventStream>,
  contract: typeof import('../../kyc/contract/presence.ts'),
  tab: typeof import('./presence.ts'),
): void {
  const read = <T>(message: Event, schema: { safeParse(data: unknown): { success: true; data: T } | { success: false } }) => {
    try {
      const parsed = schema.safeParse(JSON.parse(String((message as MessageEvent).data)));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  };
  opened.addEventListener(contract.STREAM_HELLO_EVENT_NAME, (message) => {
    const hello = read(message, contract.streamHelloSchema);
    if (hello) tab.setPresenceStream(hello.stream);
  });
  // The stream could not send all that was missed: every page reads what it shows again.
  opened.addEventListener(contract.STREAM_RESYNC_EVENT_NAME, resync);
  opened.addEventListener(contract.PRESENCE_EVENT_NAME, (message) => {
    const snapshot = read(message, contract.presenceSnapshotSchema);
    if (snapshot) tab.setPresenceViewers(snapshot.viewers);
  });
}

/**
 * Calls `listener` when events may have been missed: the stream says it could not send them all (a
 * `resync`), or was opened anew after a refusal. What is shown must be read again.
 */
export function useLiveResync(listener: () => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const call = () => latest.current();
    resyncListeners.add(call);
    return () => {
      resyncListeners.delete(call);
    };
  }, []);
}

/** Keeps the stream open while `enabled` (a signed-in user with an environment that has live updates). */
export function useLiveStream(enabled: boolean): void {
  useEffect(() => (enabled ? startLiveStream() : undefined), [enabled]);
}

export function useLiveState(): LiveState {
  return useSyncExternalStore(live.subscribe, () => live.get().state);
}

export function useLiveNotifications(): readonly LiveNotification[] {
  return useSyncExternalStore(live.subscribe, () => live.get().notifications);
}

/** Calls `listener` with every event while the component is shown (the latest `listener`, not the first). */
export function useLiveEvents(listener: (event: LiveEvent) => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const stop = live.onEvent((event) => latest.current(event));
    return () => {
      stop();
    };
  }, []);
}
