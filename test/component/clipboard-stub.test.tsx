import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

/**
 * The component files share one jsdom per worker, and user-event's clipboard stub with it: a method one
 * test sets on the stub (batch-handoff copies with a writeText of its own) is taken back after it
 * (setup.ts), or a later file's spy on writeText answers that one, with the copies of before.
 */
describe("the clipboard stub's methods set by a test", () => {
  it('are set by this test, which copies with them', async () => {
    userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.assign(navigator.clipboard, { write: undefined, writeText });
    await navigator.clipboard.writeText('a copy of this test');
    expect(writeText).toHaveBeenCalledTimes(1);
  });

  it("are the stub's own again in the next test, which sees none of the last test's copies", async () => {
    userEvent.setup();
    expect(Object.hasOwn(navigator.clipboard, 'writeText')).toBe(false);
    expect(typeof navigator.clipboard.write).toBe('function');
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    expect(writeText).not.toHaveBeenCalled();
    writeText.mockRestore();
  });
});
