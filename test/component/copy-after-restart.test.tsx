import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withFakeEventSource } from './fake-event-source.ts';
import { openEditor } from './reply-fixture.ts';
import { certified, pageWithStream } from './restart-fixture.ts';

/**
 * A copy pressed while the server restarts could not be recorded, so nothing was copied, and the page says
 * so in red. Once the server answers again that line must not stay as if it still held (UX review: the
 * header said Live, the retry notice had gone, and nothing said Copy would work now): it says the server
 * is back and to press Copy again, and the draft stays.
 */

withFakeEventSource();

const UNREACHABLE = 'The Candidate Lookup server could not be reached, so this could not be recorded.';

/** The support user's candidate page with its live stream open, on a server that can be taken down (`server.down`). */
async function pageOnServer(page?: Parameters<typeof pageWithStream>[0]) {
  const shown = await pageWithStream(page);
  await screen.findByRole('heading', { level: 1 });
  return shown;
}

const exports = () => screen.queryAllByText(UNREACHABLE);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a copy refused while the server restarts', { timeout: 20_000 }, () => {
  it('says in the reply editor that the server is back, once it answers again, and keeps the draft', async () => {
    const user = userEvent.setup();
    const { server, source } = await pageOnServer();
    const { editor, text } = await openEditor(user);
    await user.type(text(), '\nMY DRAFT');
    const draft = text().value;

    server.down = true;
    source.fail(0);
    await user.click(within(editor).getByRole('button', { name: 'Copy' }));
    expect(await within(editor).findByText(UNREACHABLE)).toBeVisible();

    // The server is back: the stream reconnects and the session is answered again.
    server.down = false;
    source.open();
    await waitFor(() => expect(within(editor).getByTestId('dialog-notices')).toBeEmptyDOMElement(), { timeout: 10_000 });
    expect(await within(editor).findByText('The server is back: press Copy again.')).toBeVisible();
    expect(exports()).toEqual([]);
    expect(text()).toHaveValue(draft);

    await user.click(within(editor).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Reply copied')).toBeInTheDocument();
  });

  it("says under the hand-off bar that the server is back, once it answers again, in place of Copy summary's refusal", async () => {
    const user = userEvent.setup();
    const { server, source } = await pageOnServer();
    server.down = true;
    source.fail(0);
    await user.click(screen.getByRole('button', { name: 'Copy summary' }));
    const note = screen.getByTestId('hand-off-note');
    await waitFor(() => expect(note).toHaveTextContent(UNREACHABLE));

    // The stream never says it is back (refused, or slow): the session is asked again until the server answers.
    server.down = false;
    await waitFor(() => expect(note).toHaveTextContent('The server is back: press Copy summary again.'), { timeout: 10_000 });
    expect(exports()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Copy summary' }));
    expect(await screen.findByText('Summary copied')).toBeInTheDocument();
  });

  it("says beside a certificate's Copy that the server is back, once it answers again, in place of its refusal, and the button no longer says Copy failed", async () => {
    const user = userEvent.setup();
    const { server, source } = await pageOnServer({ session: { mode: 'users', user: 'ana', role: 'compliance' }, candidate: certified });
    const onfido = await screen.findByRole('article', { name: 'Onfido' });
    await user.click(within(onfido).getByText('Raw JSON'));
    const copy = () => within(onfido).getByRole('button', { name: 'Copy Onfido certificate' });
    server.down = true;
    source.fail(0);
    await user.click(copy());
    expect(await within(onfido).findByText(UNREACHABLE)).toBeVisible();

    // The stream never says it is back (refused, or slow): the session is asked again until the server answers.
    server.down = false;
    expect(await within(onfido).findByText('The server is back: press Copy again.', {}, { timeout: 10_000 })).toBeVisible();
    expect(exports()).toEqual([]);
    // The button no longer says "Copy failed" beside the words that say to press it again (as the reply editor's Copy).
    expect(copy()).toHaveTextContent(/^Copy$/);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(copy());
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
    expect(copy()).toHaveTextContent('Copied');
  });
});
