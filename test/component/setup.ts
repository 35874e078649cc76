import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { loadCandidatePage } from '../../src/app/candidate/page-load.ts';
import { clearRecentLookups } from '../../src/app/recent/recent-lookups.ts';

// findBy… waits for what proves an outcome; on a machine shared with other test runs that can take more than the default second.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no object URLs and no modal dialogs: minimal stand-ins that tests can observe.
let nextUrl = 0;
URL.createObjectURL = vi.fn(() => `blob:test/${++nextUrl}`);
URL.revokeObjectURL = vi.fn();
if (!HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

// As the app does when the browser is first idle: the candidate page's module is ready before a lookup.
// Likewise the document viewer, which the app fetches as soon as the pointer or focus is on a picture.
beforeAll(() => Promise.all([loadCandidatePage(), import('../../src/app/viewer/document-viewer.tsx')]));

afterEach(() => {
  cleanup();
  // Recent lookups live in the module and sessionStorage, like in a tab (and with them go the tab's other
  // memory of candidates: reply drafts, the queue's and audit page's places): each test starts a new tab, and a
  // new browser profile (the UTC choice and a support agent's greeting and sign-off are kept in localStorage).
  clearRecentLookups();
  sessionStorage.clear();
  localStorage.clear();
  vi.unstubAllGlobals();
  // user-event's clipboard stub is one per jsdom, so one per worker: a method a test set on it
  // (batch-handoff's writeText, a vi.fn) outlived the file, and a later file's spyOn answered that vi.fn
  // with its calls of before (handoff's "copies nothing" saw 8 copies). The stub's own methods come back.
  takeBackClipboardMethods();
  // A test's fake clock ends with it. Here, not in the helper that fakes it (wait-clock.ts): the component
  // files share one module graph per worker, so a helper module's own afterEach is registered by the first
  // file that imports it only. The next file's fake Date and one-second tick outlived it, and with them
  // waitFor's polling (a setInterval): later files' waits saw only DOM changes, and a countdown never moved.
  vi.useRealTimers();
});

function takeBackClipboardMethods() {
  const clipboard = navigator.clipboard as (Clipboard & Record<string, unknown>) | undefined;
  if (!clipboard) return;
  for (const name of ['read', 'readText', 'write', 'writeText']) if (Object.hasOwn(clipboard, name)) delete clipboard[name];
}
