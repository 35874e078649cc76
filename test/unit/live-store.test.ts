import { describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../../src/kyc/contract/live-events.ts';
import { createLiveStore, INITIAL_LIVE, liveReducer, MAX_NOTIFICATIONS } from '../../src/app/live/live-store.ts';

const event = (n: number): LiveEvent => ({
  environment: 'default',
  event: 'status_changed',
  recordId: `rec_${n}`,
  refId: `ref_${n}`,
  status: 'approved',
  isArchived: false,
  at: '2026-01-01T00:00:00.000Z',
});

describe("the tab's live store", () => {
  it('started connects a new opening; opened, failed and unavailable are what the EventSource said', () => {
    const started = liveReducer(INITIAL_LIVE, { type: 'started' });
    expect(started).toMatchObject({ state: 'connecting', opening: 1 });
    expect(liveReducer(started, { type: 'opened' }).state).toBe('on');
    // A refusal too: the stream is opened anew after it (live-stream.ts), so it is not off.
    expect(liveReducer(started, { type: 'failed' }).state).toBe('reconnecting');
    expect(liveReducer(started, { type: 'unavailable' }).state).toBe('off');
  });

  it('received lists the newest first with a key of its own, at most MAX_NOTIFICATIONS', () => {
    let snapshot = INITIAL_LIVE;
    for (let n = 1; n <= MAX_NOTIFICATIONS + 5; n++) snapshot = liveReducer(snapshot, { type: 'received', event: event(n) });
    expect(snapshot.notifications).toHaveLength(MAX_NOTIFICATIONS);
    expect(snapshot.notifications[0]).toEqual({ key: MAX_NOTIFICATIONS + 5, event: event(MAX_NOTIFICATIONS + 5) });
    expect(snapshot.notifications.at(-1)?.event.refId).toBe('ref_6');
  });

  it('stopped turns the stream off, forgets the notifications and ends the opening; cleared forgets only the list', () => {
    const on = liveReducer(liveReducer(liveReducer(INITIAL_LIVE, { type: 'started' }), { type: 'opened' }), {
      type: 'received',
      event: event(1),
    });
    expect(liveReducer(on, { type: 'stopped' })).toMatchObject({ state: 'off', notifications: [], opening: on.opening + 1 });
    expect(liveReducer(on, { type: 'cleared' })).toMatchObject({ state: 'on', notifications: [], opening: on.opening });
  });

  it('the store tells its subscribers of a change only, and hands published events to the pages listening', () => {
    const store = createLiveStore();
    const told = vi.fn();
    const stop = store.subscribe(told);
    store.dispatch({ type: 'cleared' });
    store.dispatch({ type: 'unavailable' });
    expect(told).not.toHaveBeenCalled();
    store.dispatch({ type: 'started' });
    expect(told).toHaveBeenCalledTimes(1);
    stop();
    store.dispatch({ type: 'opened' });
    expect(told).toHaveBeenCalledTimes(1);
    expect(store.get().state).toBe('on');

    const page = vi.fn();
    const leave = store.onEvent(page);
    store.publish(event(1));
    leave();
    store.publish(event(2));
    expect(page.mock.calls).toEqual([[event(1)]]);
  });
});
