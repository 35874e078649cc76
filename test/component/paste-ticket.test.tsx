import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { pageStatus, renderWithProviders, stubApi } from './render.tsx';

/** The batch page is its own chunk, fetched when first opened: slower to appear on a busy machine. */
const LAZY_PAGE = { timeout: 10_000 };
const BOX_NAME = /^(refId|recordId) to look up$/;
const searchBox = () => screen.getByLabelText(BOX_NAME);

/** The home page, its search box clicked and `text` pasted into it (the API stubbed first). */
async function pasteOnHome(text: string) {
  const user = userEvent.setup();
  const rendered = renderWithProviders('/');
  await user.click(await screen.findByLabelText(BOX_NAME));
  await user.paste(text);
  return { user, ...rendered };
}

/** The ids of every batch the page posted. */
function batchesSent(fetchMock: ReturnType<typeof stubApi>['fetchMock']) {
  return fetchMock.mock.calls
    .filter(([input]) => input === '/api/batch')
    .map(([, init]) => (JSON.parse(String((init as RequestInit).body)) as { ids: string[] }).ids);
}

const batchDone = () =>
  new Response(`${JSON.stringify({ type: 'done', found: 0, failed: 0 })}\n`, {
    headers: { 'content-type': 'application/x-ndjson' },
  });

describe('pasting into the search box (a UX review in Chromium)', { timeout: 20_000 }, () => {
  it.each([
    ['Use the first one', 'support-ticket-4410'],
    ['Dismiss', ''],
  ])(
    '"%s" pressed by the keyboard gives the focus back to the box, so that the next Enter is the box\'s (it fell to the page)',
    async (name, value) => {
      const { requests } = stubApi();
      const { user, router } = await pasteOnHome('support-ticket-4410 crm-55102');
      await waitFor(() => expect(pageStatus()).toHaveTextContent(/^You pasted a list of 2 ids/));
      within(pageStatus()).getByRole('button', { name: 'Look up all 2 in a batch' }).focus();
      await user.tab();
      if (name === 'Dismiss') await user.tab();
      expect(within(pageStatus()).getByRole('button', { name })).toHaveFocus();
      await user.keyboard('{Enter}');
      expect(searchBox()).toHaveFocus();
      expect(searchBox()).toHaveValue(value);
      await user.keyboard('{Enter}');
      if (value === '') {
        // Dismissed: the box is empty, and Enter in it says so.
        expect(await screen.findByText('Enter a refId to look up.')).toBeInTheDocument();
        return;
      }
      await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/support-ticket-4410'));
      expect(requests).toContain('/api/candidates/refId/support-ticket-4410');
    },
  );

  it.each(['Mehmet Yılmaz', 'mehmet yilmaz', 'Zoë Ångström'])(
    'attack: a name pasted alone (%s) is one entry, asked about, not a list of its words sent as ids',
    async (name) => {
      const { requests } = stubApi();
      const { user } = await pasteOnHome(name);
      // Before: "You pasted a list of 2 ids", and Look up all sent each word as a refId.
      await waitFor(() => expect(searchBox()).toHaveValue(name));
      expect(screen.queryByText(/You pasted a list/)).toBeNull();
      await user.keyboard('{Enter}');
      expect(await screen.findByTestId('personal-data-question')).toHaveTextContent(/reads like a person's name/);
      expect(requests.filter((request) => request.startsWith('/api/candidates') || request === '/api/batch')).toEqual([]);
    },
  );

  it("attack: a ticket's e-mail address beside its id is left out, the id kept, and the box says which id it kept", async () => {
    const { requests } = stubApi();
    const { user, router } = await pasteOnHome('Hi team, customer mehmet.yilmaz@example.com.tr says ref user-7781 is stuck');
    // Before: "You pasted a list of 2 ids", and "Use the first one" put the e-mail address in the box.
    await waitFor(() => expect(searchBox()).toHaveValue('user-7781'));
    expect(screen.queryByText(/^You pasted a list/)).not.toBeInTheDocument();
    expect(pageStatus()).toHaveTextContent('Removed from the pasted id: the words around "user-7781".');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/user-7781'));
    expect(requests.filter((url) => url.includes('mehmet'))).toEqual([]);
  });

  it('a phone number or a date written over several words is left out too; an e-mail address alone is still what the box gets, and asked about', async () => {
    stubApi();
    const { user } = await pasteOnHome('Please call +33 6 12 34 56 78 about acct-30291, born 12 March 1990');
    await waitFor(() => expect(searchBox()).toHaveValue('acct-30291'));
    await user.clear(searchBox());
    await user.paste('Hi, my address is maria@example.com, thanks');
    await waitFor(() => expect(searchBox()).toHaveValue('maria@example.com'));
    await user.keyboard('{Enter}');
    expect(await screen.findByTestId('personal-data-question')).toHaveTextContent(/This reads like an e-mail address/);
  });

  it('"RefID #user-7781" is the id after a label the box knows, its "#" dropped, not a list whose first id is "RefID"', async () => {
    stubApi();
    await pasteOnHome('RefID #user-7781');
    await waitFor(() => expect(searchBox()).toHaveValue('user-7781'));
    expect(screen.queryByText(/^You pasted a list/)).not.toBeInTheDocument();
    expect(pageStatus()).toHaveTextContent('Removed from the pasted id: the label "RefID" and the hash before it.');
  });

  it('a list\'s ids are read as the box reads one: the offer counts them and hands them to the batch without their "#"', async () => {
    const { fetchMock } = stubApi({ candidates: { '/api/batch': batchDone } });
    const { user, router } = await pasteOnHome('#user-7781\n#acct-30291\nuser-7781');
    await waitFor(() => expect(pageStatus()).toHaveTextContent('You pasted a list of 2 ids (3 given).'));
    await user.click(within(pageStatus()).getByRole('button', { name: 'Look up all 2 in a batch' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/batch'));
    await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE);
    // Before: "#user-7781" was looked up with its "#", and reported Not found.
    await waitFor(() => expect(batchesSent(fetchMock)).toEqual([['user-7781', 'acct-30291']]));
  });

  it('the batch page reads each line it is given as the box reads one id: label and "#" dropped, and says so', async () => {
    const { fetchMock } = stubApi({ candidates: { '/api/batch': batchDone } });
    renderWithProviders('/batch');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE));
    await user.paste('#user-7781\nRefID #acct-30291\nrefId: cust_000482\ncrm-55102');
    expect(screen.getByTestId('batch-hint')).toHaveTextContent(
      '4 ids, one per line (spaces inside a line are part of its id), a sentence\'s marks around 1 id dropped (commas, full stops, quotes, brackets), the label or "#" before 2 ids dropped',
    );
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    await waitFor(() => expect(batchesSent(fetchMock)).toEqual([['user-7781', 'acct-30291', 'cust_000482', 'crm-55102']]));
  });
});
