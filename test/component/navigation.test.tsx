import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AppLocation, BrowserHistory, Link, navigate, ScrollToTopOnOpen, useLocation } from '../../src/app/navigation.tsx';
import { renderWithProviders, stubApi } from './render.tsx';

let shown: AppLocation | undefined;

function Probe() {
  shown = useLocation();
  return null;
}

function renderAt(path: string, link: { to: string; target?: string }) {
  window.history.replaceState(null, '', path);
  render(
    <BrowserHistory>
      <Link {...link}>The link</Link>
      <Probe />
    </BrowserHistory>,
  );
  return screen.getByRole('link', { name: 'The link' });
}

/** Whether the app took each click over (jsdom would otherwise try to load the page, which it cannot). */
let prevented: boolean[] = [];
const record = (event: MouseEvent) => {
  prevented.push(event.defaultPrevented);
  event.preventDefault();
};
beforeEach(() => {
  prevented = [];
  document.addEventListener('click', record);
});
afterEach(() => document.removeEventListener('click', record));

describe("the app's history", () => {
  it('renders a link as a real <a href> that a plain click follows in the app, with a new history entry', async () => {
    const user = userEvent.setup();
    const link = renderAt('/', { to: '/applicants?status=waiting' });
    expect(link).toHaveAttribute('href', '/applicants?status=waiting');
    // Counted by the calls, not by history.length: the component files share one jsdom, whose history
    // another file's late traversal (a back() queued on a timer) can move while this test runs.
    const push = vi.spyOn(window.history, 'pushState');
    const replace = vi.spyOn(window.history, 'replaceState');
    await user.click(link);
    expect(prevented).toEqual([true]);
    await waitFor(() => expect(shown?.pathname).toBe('/applicants'));
    expect(shown?.search).toBe('?status=waiting');
    expect(push.mock.calls.map((call) => call[2])).toEqual(['/applicants?status=waiting']);
    expect(replace).not.toHaveBeenCalled();
    push.mockRestore();
    replace.mockRestore();
  });

  it('leaves a click with a modifier key or the middle button to the browser', () => {
    const link = renderAt('/', { to: '/batch' });
    fireEvent.click(link, { ctrlKey: true });
    fireEvent.click(link, { metaKey: true });
    fireEvent.click(link, { shiftKey: true });
    fireEvent.click(link, { button: 1 });
    expect(prevented).toEqual([false, false, false, false]);
    expect(shown?.pathname).toBe('/');
  });

  it('leaves a link with a target of its own to the browser', () => {
    const link = renderAt('/', { to: '/batch', target: '_blank' });
    fireEvent.click(link);
    expect(prevented).toEqual([false]);
    expect(shown?.pathname).toBe('/');
  });

  it('replaces the entry shown when a link leads to it, as a browser does', async () => {
    const user = userEvent.setup();
    const link = renderAt('/batch', { to: '/batch' });
    const push = vi.spyOn(window.history, 'pushState');
    const replace = vi.spyOn(window.history, 'replaceState');
    await user.click(link);
    expect(prevented).toEqual([true]);
    expect(push).not.toHaveBeenCalled();
    expect(replace.mock.calls.map((call) => call[2])).toEqual(['/batch']);
    push.mockRestore();
    replace.mockRestore();
  });

  it('goes back to the entry before with the state it was given', async () => {
    renderAt('/', { to: '/' });
    act(() => navigate('/batch', { state: { batch: { kind: 'refId', ids: ['a'] } } }));
    act(() => navigate('/applicants'));
    await waitFor(() => expect(shown?.pathname).toBe('/applicants'));
    expect(shown?.state).toBeNull();
    act(() => window.history.back());
    await waitFor(() => expect(shown?.pathname).toBe('/batch'));
    expect(shown?.state).toEqual({ batch: { kind: 'refId', ids: ['a'] } });
  });

  it('keeps the pathname as the address bar has it: an id written "%41" is not read as "A"', async () => {
    const { requests } = stubApi();
    const { router } = renderWithProviders('/candidates/refId/%2541');
    await screen.findByRole('heading', { name: /No candidate with refId "%41"/ });
    expect(router.state.location.pathname).toBe('/candidates/refId/%2541');
    expect(requests).toContain('/api/candidates/refId/%2541');
  });

  it('starts a page the app opens at its top, keeps the place of an entry replaced, and leaves Back to the browser', async () => {
    const scrolled = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    try {
      window.history.replaceState(null, '', '/applicants');
      render(
        <BrowserHistory>
          <ScrollToTopOnOpen />
          <Probe />
        </BrowserHistory>,
      );
      act(() => navigate('/candidates/refId/a'));
      await waitFor(() => expect(shown?.pathname).toBe('/candidates/refId/a'));
      expect(scrolled).toHaveBeenCalledTimes(1);
      expect(scrolled).toHaveBeenLastCalledWith(0, 0);
      act(() => navigate('/candidates/refId/a?tab=2', { replace: true }));
      await waitFor(() => expect(shown?.search).toBe('?tab=2'));
      expect(scrolled).toHaveBeenCalledTimes(1);
      // Another page in place of this one (the review bar's Next): its top.
      act(() => navigate('/candidates/refId/b', { replace: true }));
      await waitFor(() => expect(shown?.pathname).toBe('/candidates/refId/b'));
      expect(scrolled).toHaveBeenCalledTimes(2);
      act(() => {
        window.history.back();
      });
      await waitFor(() => expect(shown?.pathname).toBe('/applicants'));
      expect(scrolled).toHaveBeenCalledTimes(2);
    } finally {
      scrolled.mockRestore();
    }
  });
});
