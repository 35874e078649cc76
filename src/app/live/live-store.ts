import type { LiveEvent } from '../../kyc/contract/live-events.ts';

/**
 * `connecting` until the first answer; `reconnecting` while it is tried again (a restart, a refusal: the
 * session store away); `off` when there is no stream: nobody signed in, or a browser without server-sent events.
 */
export type LiveState = 'connecting' | 'on' | 'reconnecting' | 'off';

/** A received event with a key of its own for lists. */
export interface LiveNotification {
  key: number;
  event: LiveEvent;
}

/** The notifications list holds this many, newest first; memory only, never storage. */
export const MAX_NOTIFICATIONS = 50;

/** What the tab knows of its live stream. */
export interface LiveSnapshot {
  state: LiveState;
  notifications: readonly LiveNotification[];
  /** The key the next notification gets. */
  nextKey: number;
  /**
   * Which opening of the stream is the current one: an opening's late callbacks (its contract loaded
   * after a sign-out, or after the next sign-in) see another number and do nothing.
   */
  opening: number;
}

/**
 * Everything that changes it. `started` and `stopped` begin and end an opening; `opened`, `failed` and
 * `unavailable` are what the browser said of the stream; `received` and `cleared` are the list.
 */
export type LiveAction =
  | { type: 'started' }
  | { type: 'opened' }
  | { type: 'failed' }
  | { type: 'unavailable' }
  | { type: 'stopped' }
  | { type: 'received'; event: LiveEvent }
  | { type: 'cleared' };

export const INITIAL_LIVE: LiveSnapshot = { state: 'off', notifications: [], nextKey: 1, opening: 0 };

const withState = (snapshot: LiveSnapshot, state: LiveState): LiveSnapshot =>
  snapshot.state === state ? snapshot : { ...snapshot, state };

export function liveReducer(snapshot: LiveSnapshot, action: LiveAction): LiveSnapshot {
  switch (action.type) {
    case 'started':
      return { ...snapshot, state: 'connecting', opening: snapshot.opening + 1 };
    case 'opened':
      return withState(snapshot, 'on');
    // Tried again either way: by the browser while its stream is CONNECTING, anew after a refusal (live-stream.ts).
    case 'failed':
      return withState(snapshot, 'reconnecting');
    case 'unavailable':
      return withState(snapshot, 'off');
    // The session's notifications go with it.
    case 'stopped':
      return { ...snapshot, state: 'off', notifications: [], opening: snapshot.opening + 1 };
    case 'received': {
      const notification = { key: snapshot.nextKey, event: action.event };
      return {
        ...snapshot,
        notifications: [notification, ...snapshot.notifications].slice(0, MAX_NOTIFICATIONS),
        nextKey: snapshot.nextKey + 1,
      };
    }
    case 'cleared':
      return snapshot.notifications.length === 0 ? snapshot : { ...snapshot, notifications: [] };
  }
}

export interface LiveStore {
  get(): LiveSnapshot;
  dispatch(action: LiveAction): void;
  /** Told after every change (for useSyncExternalStore); the returned function stops it. */
  subscribe(listener: () => void): () => void;
  /** Hands an event to the pages listening (they act on it; the store only lists it). */
  publish(event: LiveEvent): void;
  onEvent(listener: (event: LiveEvent) => void): () => void;
}

export function createLiveStore(): LiveStore {
  let snapshot = INITIAL_LIVE;
  const listeners = new Set<() => void>();
  const eventListeners = new Set<(event: LiveEvent) => void>();
  return {
    get: () => snapshot,
    dispatch(action) {
      const next = liveReducer(snapshot, action);
      if (next === snapshot) return;
      snapshot = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish(event) {
      for (const listener of eventListeners) listener(event);
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
  };
}
