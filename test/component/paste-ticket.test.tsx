import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { pageStatus, renderWithProviders, stubApi } from './render.tsx';

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
});
