import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders, stubApi } from './render.tsx';

/**
 * A name copied from a sentence, with its punctuation (UX review): asked about in the search box as the
 * name alone is, and never offered again in one click by the not-found page without its marks.
 */
const BOX_NAME = /^(refId|recordId) to look up$/;
const searchBox = () => screen.getByLabelText<HTMLInputElement>(BOX_NAME);
const candidateRequests = (requests: string[]) => requests.filter((url) => url.includes('/candidates/'));

async function home() {
  const user = userEvent.setup();
  const { requests } = stubApi();
  const rendered = renderWithProviders('/');
  await waitFor(() => expect(searchBox()).toHaveFocus());
  return { user, requests, ...rendered };
}

// Whole-page tests: slower than 5 s when the machine is busy.
describe("a name in a sentence's punctuation", { timeout: 20_000 }, () => {
  it('attack: a name followed by a comma (or ! ? or a remark in brackets) is looked up without the personal-data question', async () => {
    // Before: `Maria Souza.` was asked about, these went to the service, the address, the history and the audit file.
    for (const typed of ['Maria Souza,', 'John Smith!', 'john smith?', 'Maria Souza (customer)', 'Maria Souza.']) {
      const { user, requests, router, unmount } = await home();
      await user.type(searchBox(), `${typed}{Enter}`);
      expect(await screen.findByRole('alert'), typed).toHaveTextContent(
        "This reads like a person's name. Candidate Lookup finds candidates by refId or recordId only; look it up anyway?",
      );
      expect(candidateRequests(requests), typed).toEqual([]);
      expect(router.state.location.pathname, typed).toBe('/');
      unmount();
    }
  });

  it('attack: the not-found page of a name looked up anyway with its comma offers no one-click lookup of the name without it', async () => {
    const user = userEvent.setup();
    const { requests } = stubApi({ candidates: {} });
    renderWithProviders('/');
    await waitFor(() => expect(searchBox()).toHaveFocus());
    await user.type(searchBox(), 'Maria Souza,{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Look it up anyway' }));
    const heading = await screen.findByRole('heading', { name: 'No candidate with refId "Maria Souza,"' });
    const card = heading.closest('[role="alert"]')!;
    // Before: "Look up refId Maria Souza", which sent the name again without the question.
    expect(screen.queryByRole('link', { name: /^Look up refId/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Try as/ })).not.toBeInTheDocument();
    expect(card).toHaveTextContent("It reads like a person's name: the KYC service finds candidates by refId or recordId only.");
    expect(card).not.toHaveTextContent(/likely the one meant/);
    expect(candidateRequests(requests)).toEqual(['/api/candidates/refId/Maria%20Souza%2C']);
  });

  it('the not-found page still offers an id without its one mark, "the id without it"', async () => {
    stubApi({ candidates: {} });
    renderWithProviders('/candidates/refId/support-ticket-4410%2C');
    await screen.findByRole('heading', { name: 'No candidate with refId "support-ticket-4410,"' });
    expect(
      screen.getByText(
        'The refId has the comma after it, likely from the sentence it was copied from: the id without it is likely the one meant.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Look up refId support-ticket-4410' })).toBeInTheDocument();
  });

  it("the home page says a refId is the id the company gave the customer, not the reviewer's own", async () => {
    await home();
    const intro = screen.getByText(/the id your company gave the customer/);
    expect(intro).toHaveTextContent('By refId (the id your company gave the customer, what support agents usually have) or by recordId');
    expect(intro).not.toHaveTextContent(/your own user id/);
  });
});
