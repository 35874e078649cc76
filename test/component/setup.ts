import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// jsdom has no object URLs and no modal dialogs: minimal stand-ins that tests can observe.
let nextUrl = 0;
URL.createObjectURL = vi.fn(() => `blob:test/${++nextUrl}`);
URL.revokeObjectURL = vi.fn();
if (!HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
