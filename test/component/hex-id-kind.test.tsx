import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { fetchPasteBy, loadPaste } from '../../src/app/lookup/use-lookup-form.ts';
import { envelope, renderWithProviders, stubApi } from './render.tsx';

// A 24-hex id (a recordId's form) is looked up as a recordId unless something chose refId for it: these are
// the two ways the search box still sent it as a refId first, found by no one, then again as a recordId.
const kwame = (await sampleCandidates({ now: new Date() })).map((c) => c.record).find((r) => !r.refId)!;
const hex = kwame.recordId!;
const apiPath = (kind: string, id: string) => `/api/candidates/${kind}/${encodeURIComponent(id)}`;
const kwameFound = { [apiPath('recordId', hex)]: envelope(kwame) };
const lookups = (requests: string[]) => requests.filter((url) => url.startsWith('/api/candidates/'));
const searchBox = () => screen.getByLabelText(/^(refId|recordId) to look up$/);

describe('a 24-hex id in the search box', { timeout: 20_000 }, () => {
  it("after the automatic fallback from refId, the header says recordId, and Enter on the page's id sends no refId lookup", async () => {
    const user = userEvent.setup();
    const { requests } = stubApi({ candidates: kwameFound });
    const { router } = renderWithProviders('/');
    await screen.findByLabelText('refId to look up');
    await user.type(searchBox(), hex);
    await user.click(screen.getByRole('radio', { name: 'refId' }));
    await user.click(searchBox());
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { level: 1, name: 'Kwame Mensah' });
    expect(router.state.location.pathname).toBe(`/candidates/recordId/${hex}`);
    expect(lookups(requests)).toEqual([apiPath('refId', hex), apiPath('recordId', hex)]);

    // Before: the header's switch said refId over this recordId's page, and Enter looked it up as a refId
    // again (found by no one, audited), then as a recordId once more.
    requests.length = 0;
    expect(searchBox()).toHaveValue(hex);
    await user.click(searchBox());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/candidates/recordId/${hex}`));
    expect(await screen.findByRole('heading', { level: 1, name: 'Kwame Mensah' })).toBeInTheDocument();
    expect(lookups(requests)).not.toContain(apiPath('refId', hex));
    expect(screen.getByLabelText('recordId to look up')).toHaveValue(hex);
  });

  it('typed with a full stop and looked up before the paste reader came, it is looked up as a recordId once the reader reads it', async () => {
    const { requests } = stubApi({ candidates: kwameFound });
    const fetch = () => import('../../src/app/lookup/paste.ts');
    let open = () => {};
    const opened = new Promise<void>((resolve) => (open = resolve));
    fetchPasteBy(() => opened.then(fetch));
    try {
      const user = userEvent.setup();
      const { router } = renderWithProviders('/');
      await screen.findByLabelText('refId to look up');
      // Without the reader, "<hex>." has no recordId's form: the switch says refId, as the box read it then.
      await user.type(searchBox(), `${hex}.{Enter}`);
      expect(screen.getByRole('radio', { name: 'refId' })).toBeChecked();
      open();
      await loadPaste();
      await screen.findByRole('heading', { level: 1, name: 'Kwame Mensah' });
      // Before: the kind stayed the one read before the reader, refId, and found no one first (two audited lookups).
      expect(lookups(requests)).toEqual([apiPath('recordId', hex)]);
      expect(router.state.location.pathname).toBe(`/candidates/recordId/${hex}`);
      expect(screen.queryByText(/No candidate has the refId/)).not.toBeInTheDocument();
    } finally {
      open();
      fetchPasteBy(fetch);
      await loadPaste();
    }
  });
});

describe('Enter on a page that found the id under neither kind', { timeout: 20_000 }, () => {
  const unknown = 'bbbbbbbbbbbbbbbbbbbbbbbb';
  const neither = `No candidate with refId or recordId "${unknown}"`;

  it("is the page's lookup once more, not both lookups again", async () => {
    const user = userEvent.setup();
    const { requests } = stubApi();
    const { router, queryClient } = renderWithProviders('/');
    await screen.findByLabelText('refId to look up');
    await user.type(searchBox(), `${unknown}{Enter}`);
    await screen.findByRole('heading', { name: neither });
    expect(router.state.location.pathname).toBe(`/candidates/refId/${unknown}`);
    expect(lookups(requests)).toEqual([apiPath('recordId', unknown), apiPath('refId', unknown)]);

    requests.length = 0;
    expect(searchBox()).toHaveValue(unknown);
    await user.click(searchBox());
    await user.keyboard('{Enter}');
    // The page keeps what it says of how the id was looked up (both ways), as its own Retry would.
    expect(router.state.location.state).toEqual(expect.objectContaining({ triedAsRecordId: true }));
    await waitFor(() => expect(lookups(requests).length).toBeGreaterThan(0));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(await screen.findByRole('heading', { name: neither })).toBeInTheDocument();
    // Before: the page forgot it had tried both, looked the id up as a refId, then as a recordId again (two audit lines).
    expect(router.state.location.pathname).toBe(`/candidates/refId/${unknown}`);
    expect(lookups(requests)).toEqual([apiPath('refId', unknown)]);
    expect(screen.getByRole('radio', { name: 'refId' })).toBeChecked();
  });

  it('a kind chosen with the switch, or another id, is a new lookup', async () => {
    const user = userEvent.setup();
    const { requests } = stubApi();
    const { router } = renderWithProviders(`/candidates/refId/${unknown}`);
    await screen.findByRole('heading', { name: neither });
    requests.length = 0;
    await user.click(screen.getByRole('radio', { name: 'refId' }));
    await user.click(searchBox());
    await user.keyboard('{Enter}');
    // The switch chose refId: looked up as one, with the page's one automatic try as a recordId, said.
    await waitFor(() => expect(lookups(requests)).toEqual([apiPath('refId', unknown), apiPath('recordId', unknown)]));
    await screen.findByRole('heading', { name: neither });
    expect(router.state.location.pathname).toBe(`/candidates/recordId/${unknown}`);

    requests.length = 0;
    await user.clear(searchBox());
    await user.type(searchBox(), 'nobody{Enter}');
    await screen.findByRole('heading', { name: 'No candidate with refId "nobody"' });
    expect(lookups(requests)).toEqual([apiPath('refId', 'nobody')]);
  });
});

describe('an unknown 24-hex id in capitals, tried both ways', { timeout: 20_000 }, () => {
  const upper = 'BBBBBBBBBBBBBBBBBBBBBBB9';
  const neither = `No candidate with refId or recordId "${upper}"`;

  it('is said to be looked for as both a refId and a recordId, with the id in lower case offered', async () => {
    const user = userEvent.setup();
    const { requests } = stubApi();
    const { router } = renderWithProviders('/');
    await screen.findByLabelText('refId to look up');
    await user.type(searchBox(), `${upper}{Enter}`);
    // Before: "No candidate with recordId …", though the page had looked it up as a refId too.
    expect(await screen.findByRole('heading', { name: neither })).toBeInTheDocument();
    expect(lookups(requests)).toEqual([apiPath('recordId', upper), apiPath('refId', upper)]);
    expect(screen.getByRole('alert')).toHaveTextContent('The KYC service has no candidate with this id, as a refId or as a recordId.');
    expect(screen.getByRole('alert')).toHaveTextContent(/writes recordIds in lower case, and this one has capitals/);
    await user.click(screen.getByRole('link', { name: `Look up recordId ${upper.toLowerCase()}` }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/candidates/recordId/${upper.toLowerCase()}`));
  });

  it('says the same when the switch chose refId and the page tried it as a recordId', async () => {
    const user = userEvent.setup();
    stubApi();
    const { router } = renderWithProviders('/');
    await screen.findByLabelText('refId to look up');
    await user.type(searchBox(), upper);
    await user.click(screen.getByRole('radio', { name: 'refId' }));
    await user.click(searchBox());
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: neither })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/candidates/recordId/${upper}`);
    expect(screen.getByRole('link', { name: `Look up recordId ${upper.toLowerCase()}` })).toBeInTheDocument();
  });
});
