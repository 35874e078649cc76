import { act } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import type { LiveEvent } from '../../src/kyc/contract/live-events.ts';

/**
 * jsdom has no EventSource: this stands in for the browser's, and lets a test play the server's side
 * (open, an event, a dropped connection). The app's own code runs unchanged.
 */
export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSED = 2;
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    super();
    FakeEventSource.instances.push(this);
  }
  close() {
    this.readyState = 2;
  }
  open() {
    this.readyState = 1;
    act(() => this.onopen?.(new Event('open')));
  }
  fail(readyState: 0 | 2) {
    this.readyState = readyState;
    act(() => this.onerror?.(new Event('error')));
  }
  /** A `kyc` event, with its id. */
  send(event: LiveEvent, id = '1') {
    act(() => void this.dispatchEvent(new MessageEvent('kyc', { data: JSON.stringify(event), lastEventId: id })));
  }
  /** An event of any name (`hello`, `presence`…), without an id. */
  emit(name: string, data: unknown) {
    act(() => void this.dispatchEvent(new MessageEvent(name, { data: JSON.stringify(data) })));
  }
}

/** Each test of the enclosing file or describe gets the fake as the browser's EventSource, with no stream opened yet. */
export function withFakeEventSource() {
  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
}
