import { useEffect, useRef, useSyncExternalStore } from 'react';
import { EVENTS_API_PATH } from '../../kyc/contract/api-paths.ts';
import type { LiveEvent } from '../../kyc/contract/live-events.ts';
import { openEventStream } from '../api/api-request.ts';
import { notifyBrowser } from './browser-notifications.ts';

/**
 * The tab's one live stream (issue 22): opened after sign-in, closed at sign-out. Each `kyc` event is
 * checked with the contract's schema (loaded with the stream, so zod stays off the first load), kept in
 * the notifications list and handed to the pages that listen.
 */

/** `connecting` until the first answer; `off` when the server refused or ended the stream for good. */
export type LiveState = 'connecting' | 'on' | 'reconnecting' | 'off';

/** A received event with a key of its own for lists. */
export interface LiveNotification {
  key: number;
  event: LiveEvent;
}

/** The notifications list holds this many, newest first; memory only, never storage. */
export const MAX_NOTIFICATIONS = 50;

let state: LiveState = 'off';
let notifications: readonly LiveNotification[] = [];
let nextKey = 0;
let generation = 0;
const stateListeners = new Set<() => void>();
const noteListeners = new Set<() => void>();
const eventListeners = new Set<(event: LiveEvent) => void>();

function setState(next: LiveState): void {
  if (state === next) return;
  state = next;
  for (const listener of stateListeners) listener();
}

function setNotifications(next: readonly LiveNotification[]): void {
  notifications = next;
  for (const listener of noteListeners) listener();
}

/** An event that arrived: listed, handed to every page listening, and shown by the browser if asked for. */
export function deliverLiveEvent(event: LiveEvent): void {
  setNotifications([{ key: ++nextKey, event }, ...notifications].slice(0, MAX_NOTIFICATIONS));
  for (const listener of eventListeners) listener(event);
  notifyBrowser(event);
}

/** Forgets the tab's notifications: at sign-out, as soon as it is asked, as the recent lookups are. */
export function clearLiveNotifications(): void {
  setNotifications([]);
}

/** Opens the stream; the returned function closes it and forgets the session's notifications. */
export function startLiveStream(): () => void {
  const mine = ++generation;
  let stream: ReturnType<typeof openEventStream> | undefined;
  setState('connecting');
  // Presence, too, loads with the stream: the first load carries neither (nor zod).
  const presence = Promise.all([import('../../kyc/contract/presence.ts'), import('./presence.ts')]);
  Promise.all([import('../../kyc/contract/live-events.ts'), presence]).then(
    ([{ LIVE_EVENT_NAME, liveEventSchema }, [contract, tab]]) => {
      if (mine !== generation) return;
      let opened: ReturnType<typeof openEventStream>;
      try {
        opened = openEventStream(EVENTS_API_PATH);
      } catch {
        // A browser without server-sent events: the pages work as before, without live updates.
        setState('off');
        return;
      }
      stream = opened;
      opened.onopen = () => setState('on');
      // The browser retries by itself while the state is CONNECTING; CLOSED means it gave up (a refusal).
      opened.onerror = () => setState(opened.readyState === opened.CLOSED ? 'off' : 'reconnecting');
      opened.addEventListener(LIVE_EVENT_NAME, (message) => {
        let data: unknown;
        try {
          data = JSON.parse(String((message as MessageEvent).data));
        } catch {
          return;
        }
        // An event this page cannot read is skipped: the next one, or a Refresh, still tells the truth.
        const parsed = liveEventSchema.safeParse(data);
        if (parsed.success) deliverLiveEvent(parsed.data);
      });
      listenForPresence(opened, contract, tab);
    },
    () => setState('off'),
  );
  return () => {
    if (mine === generation) generation++;
    stream?.close();
    void presence.then(
      ([, tab]) => tab.setPresenceStream(undefined),
      () => {},
    );
    setState('off');
    setNotifications([]);
  };
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
  opened.addEventListener(contract.PRESENCE_EVENT_NAME, (message) => {
    const snapshot = read(message, contract.presenceSnapshotSchema);
    if (snapshot) tab.setPresenceViewers(snapshot.viewers);
  });
}

/** Keeps the stream open while `enabled` (a signed-in user with an environment that has live updates). */
export function useLiveStream(enabled: boolean): void {
  useEffect(() => (enabled ? startLiveStream() : undefined), [enabled]);
}

export function useLiveState(): LiveState {
  return useSyncExternalStore(
    (listener) => {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    () => state,
  );
}

export function useLiveNotifications(): readonly LiveNotification[] {
  return useSyncExternalStore(
    (listener) => {
      noteListeners.add(listener);
      return () => noteListeners.delete(listener);
    },
    () => notifications,
  );
}

/** Calls `listener` with every event while the component is shown (the latest `listener`, not the first). */
export function useLiveEvents(listener: (event: LiveEvent) => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const forward = (event: LiveEvent) => latest.current(event);
    eventListeners.add(forward);
    return () => {
      eventListeners.delete(forward);
    };
  }, []);
}
