import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withFakeEventSource } from './fake-event-source.ts';
import type { stubApi } from './render.tsx';
import { openEditor } from './reply-fixture.ts';
import { pageWithStream, record, type Shown, showDuringDeploys } from './restart-fixture.ts';

/**
 * The server restarts (a deploy) under open pages: for a second or two nothing answers, not even the
 * session's re-check that a dropped live stream starts. A session the page already knows has not ended
 * for that: the page and its work stay, a notice says the server is being asked again, and it goes once
 * the server answers. Only the very first check, with nothing on the page yet, shows the error in full.
 */

withFakeEventSource();

/** The page's own live region for the notice, above the page: there, empty, from the start. */
const pageRegion = () => screen.getByTestId('session-retry');
/** A modal dialog's place for the page's notices: a live region of its own. */
const dialogRegion = (dialog: HTMLElement) => within(dialog).getByTestId('dialog-notices');

/**
 * The live region holding the notice's words, null while none does: never more than one, as each would be
 * read out.
 */
function regionSaying(): Element | null {
  const regions = [...document.querySelectorAll('[aria-live], [role="status"], [role="alert"]')].filter((region) =>
    region.textContent?.includes('— retrying.'),
  );
  expect(regions.length).toBeLessThanOrEqual(1);
  return regions[0] ?? null;
}

/** The restart begins: nothing answers, the live stream drops, and the session's re-check shows the notice. */
async function restartBegins({ server, source }: Shown) {
  server.down = true;
  source.fail(0);
  await waitFor(() => expect(regionSaying()).not.toBeNull(), { timeout: 10_000 });
}

/** The server answers again without the session (kept in its memory, sessions did not survive it), and the stream is back. */
function backWithoutSession({ server, source }: Shown) {
  server.session = { mode: 'users' };
  server.down = false;
  source.open();
}

/** The server answers again, its session store too, with the session kept, and the stream is back: the notice goes. */
async function backUp({ server, source }: Pick<Shown, 'server' | 'source'>) {
  server.down = false;
  server.storeDown = false;
  source.open();
  await waitFor(() => expect(regionSaying()).toBeNull());
}

const sessionChecks = (fetchMock: ReturnType<typeof stubApi>['fetchMock']) =>
  fetchMock.mock.calls.filter(([input]) => String(input) === '/api/session').length;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a restart of the server', { timeout: 20_000 }, () => {
  it('a restart of the server keeps the open reply draft and the candidate page', async () => {
    const user = userEvent.setup();
    const page = await pageWithStream();
    const { server, fetchMock, source } = page;
    const { editor, text } = await openEditor(user);
    await user.type(text(), '\nMY CAREFULLY WRITTEN NOTE');
    const draft = text().value;

    // The server goes down: the stream drops, and the session's re-check finds nobody there.
    await restartBegins(page);
    expect(regionSaying()).toHaveTextContent("Can't reach the server — retrying. This page and what you typed stay here.");
    expect(regionSaying()).toHaveAttribute('aria-live', 'polite');
    expect(editor).toContainElement(regionSaying() as HTMLElement);
    expect(screen.queryByText(/could not be reached/)).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Reply to the customer' })).toBe(editor);
    expect(text()).toHaveValue(draft);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(record.refId!);
    expect(screen.getByTestId('session')).toHaveTextContent('sam');

    // Back up: the stream reconnects, the session is asked again at once and the notice goes.
    server.down = false;
    const before = sessionChecks(fetchMock);
    source.open();
    await waitFor(() => expect(regionSaying()).toBeNull());
    expect(sessionChecks(fetchMock)).toBeGreaterThan(before);
    expect(text()).toHaveValue(draft);
    expect(screen.getByTestId('session')).toHaveTextContent('sam');
  });

  it('shows the words inside the open reply editor, in the only region holding them, and above the page again once it closes', async () => {
    const user = userEvent.setup();
    const { server, source } = await pageWithStream();
    const page = pageRegion();
    const { editor } = await openEditor(user);
    // The page behind a modal dialog is hidden by its backdrop and inert: the dialog has a live region of
    // its own, empty from when it opens (one added with its words is not always read out).
    const inEditor = dialogRegion(editor);
    expect(inEditor).toBeEmptyDOMElement();
    expect(inEditor).toHaveAttribute('aria-live', 'polite');

    server.down = true;
    source.fail(0);
    await waitFor(() => expect(inEditor).toHaveTextContent("Can't reach the server — retrying."), { timeout: 10_000 });
    expect(screen.getAllByText(/Can't reach the server/)).toHaveLength(1);
    expect(regionSaying()).toBe(inEditor);
    expect(page).toBeEmptyDOMElement();

    // Closed: the words are back above the page, in its region, the same node as before.
    await user.click(within(editor).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(regionSaying()).toBe(page);
    expect(screen.getByRole('main')).toContainElement(page);
    expect(page).toHaveTextContent("Can't reach the server — retrying.");
    expect(screen.getAllByText(/Can't reach the server/)).toHaveLength(1);

    await backUp({ server, source });
  });

  it('puts the words into regions already there when a dialog opens and closes while the notice shows', async () => {
    const user = userEvent.setup();
    const shown = await pageWithStream();
    await screen.findByRole('heading', { level: 1 });
    await restartBegins(shown);
    const page = pageRegion();
    expect(regionSaying()).toBe(page);

    // The agent opens the reply editor while the notice shows: its region is there, empty, before the
    // words come into that same node. Seen as it is added (a busy machine may take longer to find the
    // dialog than the words take to come), with what it held then.
    const added: Array<{ region: Element; words: string }> = [];
    const watch = new MutationObserver((records) => {
      for (const node of records.flatMap((record) => [...record.addedNodes])) {
        if (!(node instanceof Element)) continue;
        const region = node.matches('[data-testid="dialog-notices"]') ? node : node.querySelector('[data-testid="dialog-notices"]');
        if (region) added.push({ region, words: region.textContent ?? '' });
      }
    });
    watch.observe(document.body, { subtree: true, childList: true });
    const { editor } = await openEditor(user);
    const inEditor = dialogRegion(editor);
    watch.disconnect();
    expect(added.map(({ region, words }) => ({ region, words }))).toContainEqual({ region: inEditor, words: '' });
    expect(inEditor).toHaveAttribute('aria-live', 'polite');
    await waitFor(() => expect(regionSaying()).toBe(inEditor));
    expect(dialogRegion(editor)).toBe(inEditor);
    expect(inEditor).toHaveTextContent("Can't reach the server — retrying.");
    expect(page).toBeEmptyDOMElement();

    // Closed: the page's region is the one it had all along, and the words come back into it.
    await user.click(within(editor).getByRole('button', { name: 'Cancel' }));
    expect(pageRegion()).toBe(page);
    expect(regionSaying()).toBe(page);

    await backUp(shown);
  });

  it('asks again by itself when the live stream stays away, and the notice goes once the server answers', async () => {
    const page = await pageWithStream();
    await screen.findByRole('heading', { level: 1 });
    await restartBegins(page);
    expect(pageRegion()).toHaveTextContent("Can't reach the server");
    // The stream never says it is back; the next try after a wait finds the server.
    page.server.down = false;
    await waitFor(() => expect(pageRegion()).toBeEmptyDOMElement(), { timeout: 10_000 });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(record.refId!);
  });

  it('says the session store is away, not the server, while the server answers store_unavailable', async () => {
    const { server, source } = await pageWithStream();
    await screen.findByRole('heading', { level: 1 });
    // Redis goes away: the server is up and answers every check, 503 store_unavailable.
    server.storeDown = true;
    source.fail(0);
    await waitFor(
      () =>
        expect(pageRegion()).toHaveTextContent(
          'Candidate Lookup cannot reach its session store right now — retrying. This page and what you typed stay here.',
        ),
      { timeout: 10_000 },
    );
    expect(pageRegion()).not.toHaveTextContent("Can't reach the server");
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(record.refId!);
    await backUp({ server, source });
  });

  it('goes to the sign-in page when the restart ended the session and nothing holds the page', async () => {
    const page = await pageWithStream();
    await screen.findByRole('heading', { level: 1 });
    await restartBegins(page);
    backWithoutSession(page);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(pageRegion()).toBeEmptyDOMElement();
  });

  it('keeps the draft and offers to sign in again when the restart ended the session under the reply editor', async () => {
    const user = userEvent.setup();
    const page = await pageWithStream();
    const { editor, text } = await openEditor(user);
    await user.type(text(), '\nkept');
    await restartBegins(page);
    backWithoutSession(page);
    await waitFor(() => expect(screen.getByTestId('session')).toHaveTextContent('Not signed in'));
    expect(within(editor).getByRole('textbox', { name: 'Reply' })).toHaveValue(text().value);
    expect(text().value).toMatch(/kept$/);
    expect(screen.queryByRole('heading', { name: 'Sign in' })).not.toBeInTheDocument();
  });
});

describe('the first load with the server down', { timeout: 20_000 }, () => {
  it('shows the error in full with Try again, which shows the page once the server answers', async () => {
    const user = userEvent.setup();
    const { server } = showDuringDeploys(true);
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('The Candidate Lookup server could not be reached. Check your connection.');
    server.down = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(record.refId!);
  });
});
