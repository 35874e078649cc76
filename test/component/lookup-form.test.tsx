import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { envelope, renderWithProviders, stubApi, testMeta } from './render.tsx';

describe('lookup form', () => {
  it('looks up by refId by default, trimming the input, and navigates to the candidate URL', async () => {
    const user = userEvent.setup();
    stubApi();
    const { router } = renderWithProviders('/');
    await screen.findByRole('textbox');
    expect(screen.getByRole('radio', { name: 'refId' })).toBeChecked();
    await user.type(screen.getByRole('textbox', { name: 'refId to look up' }), '  cust_000482 {Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/cust_000482'));
  });

  it('looks up by recordId when chosen, with the keyboard only', async () => {
    const user = userEvent.setup();
    stubApi();
    const { router } = renderWithProviders('/');
    // The box has focus when the home page opens; the kind toggle is just before it.
    await waitFor(() => expect(screen.getByRole('textbox')).toHaveFocus());
    await user.tab({ shift: true });
    expect(screen.getByRole('radio', { name: 'refId' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'recordId' })).toBeChecked();
    await user.tab();
    await user.keyboard('65f1c2a9e4b0d3a1f0c9b810{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/recordId/65f1c2a9e4b0d3a1f0c9b810'));
  });

  it.each([
    ['a/b c', '/candidates/refId/a%2Fb%20c'],
    ['?x=1#h', '/candidates/refId/%3Fx%3D1%23h'],
    ['张伟', '/candidates/refId/%E5%BC%A0%E4%BC%9F'],
    ['100%', '/candidates/refId/100%25'],
  ])('encodes %j as one path segment', async (id, path) => {
    const user = userEvent.setup();
    stubApi();
    const { router } = renderWithProviders('/');
    await screen.findByRole('textbox');
    await user.type(screen.getByRole('textbox'), `${id}{Enter}`);
    await waitFor(() => expect(router.state.location.pathname).toBe(path));
  });

  it.each([
    ['/', '/api/candidates/refId/cust_000482'],
    ['/e/staging', '/api/e/staging/candidates/refId/cust_000482'],
  ])('from %s, sends the lookup from the search box before the candidate page is on screen, and only once', async (from, api) => {
    const user = userEvent.setup();
    const record = (await sampleCandidates({ now: new Date() }))[1]!.record;
    // Whether the candidate page (its skeleton, while the lookup runs) was on screen when the request left.
    const pageShownAtRequest: boolean[] = [];
    const { requests } = stubApi({
      candidates: {
        [api]: () => {
          pageShownAtRequest.push(screen.queryByText('Looking the candidate up…') !== null);
          return envelope(record);
        },
      },
    });
    renderWithProviders(from);
    await screen.findByRole('textbox');
    await user.type(screen.getByRole('textbox', { name: 'refId to look up' }), 'cust_000482{Enter}');
    // cust_000482's record, on the page.
    expect(await screen.findByRole('heading', { level: 1, name: '王秀英' })).toBeInTheDocument();
    expect(requests.filter((url) => url.includes('/candidates/'))).toEqual([api]);
    expect(pageShownAtRequest).toEqual([false]);
  });

  it('keeps only the latest lookup on the performance timeline, however many a tab makes', async () => {
    const user = userEvent.setup();
    const [first, second] = (await sampleCandidates({ now: new Date() })).map((candidate) => candidate.record);
    stubApi({
      candidates: {
        [`/api/candidates/refId/${first!.refId}`]: envelope(first!),
        [`/api/candidates/refId/${second!.refId}`]: envelope(second!),
      },
    });
    renderWithProviders('/');
    for (const record of [first!, second!]) {
      // A textbox, or a combobox once recent lookups give it suggestions.
      const box = await screen.findByLabelText('refId to look up');
      await user.clear(box);
      await user.type(box, `${record.refId}{Enter}`);
      await screen.findByText(record.recordId!);
    }
    const marks = performance.getEntriesByType('mark').filter((entry) => entry.name.startsWith('candidate-lookup:'));
    expect(marks.map((entry) => entry.name).sort()).toEqual([
      'candidate-lookup:body-read',
      'candidate-lookup:fetch',
      'candidate-lookup:parsed',
    ]);
  });

  it('refuses an empty value with a message, without a request', async () => {
    const user = userEvent.setup();
    const { requests } = stubApi();
    const { router } = renderWithProviders('/');
    await screen.findByRole('textbox');
    await user.type(screen.getByRole('textbox'), '   ');
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    // The message is set by the same submit handler that would have navigated, so once it shows, the
    // handler is done: the location is final.
    expect(screen.getByRole('alert')).toHaveTextContent('Enter a refId to look up.');
    expect(screen.getByRole('textbox')).toHaveAttribute('aria-invalid', 'true');
    expect(router.state.location.pathname).toBe('/');
    expect(requests.filter((url) => url.startsWith('/api/candidates'))).toEqual([]);
  });

  it('refuses "..", which no URL could carry', async () => {
    const user = userEvent.setup();
    stubApi();
    renderWithProviders('/');
    await screen.findByRole('textbox');
    await user.type(screen.getByRole('textbox'), '..{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('".." is not a valid id.');
  });
});

describe('home page', () => {
  it('offers the sandbox samples as one-click examples and marks sandbox data', async () => {
    const user = userEvent.setup();
    stubApi({
      meta: testMeta({
        upstream: 'sandbox',
        samples: [
          { kind: 'refId', id: 'cust_000482', status: 'inreview', name: 'Wang Xiuying', summary: 'In review' },
          { kind: 'recordId', id: '65f1c2a9e4b0d3a1f0c9b810', status: 'mystery', summary: 'No refId' },
        ],
      }),
    });
    const { router } = renderWithProviders('/');
    await screen.findByRole('textbox');
    expect(await screen.findByTestId('environment-badge')).toHaveTextContent('Sandbox');
    const samples = await screen.findByRole('region', { name: 'Sample candidates' });
    const links = within(samples).getAllByRole('link');
    expect(links).toHaveLength(2);
    expect(links[1]).toHaveTextContent('mystery');
    await user.click(links[1]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/recordId/65f1c2a9e4b0d3a1f0c9b810'));
    // The badge stays on every page.
    expect(screen.getByTestId('environment-badge')).toHaveTextContent('Sandbox');
  });

  it("titles a support user's samples by their ids, says once that names are left out, and never that they are archived", async () => {
    stubApi({
      session: { mode: 'users', user: 'sam', role: 'support' },
      meta: testMeta({ upstream: 'sandbox', samples: [{ kind: 'refId', id: 'cust_000482', status: 'inreview', summary: 'In review' }] }),
    });
    renderWithProviders('/');
    const samples = await screen.findByRole('region', { name: 'Sample candidates' });
    // Each link's name starts with what tells the cards apart, not with the same sentence fourteen times.
    expect(within(samples).getByRole('link')).toHaveTextContent(/^refId cust_000482/);
    expect(within(samples).getByRole('link')).not.toHaveTextContent(/name|archived/i);
    expect(samples).toHaveTextContent('by their ids (support users are not shown names)');
  });

  it('names the real service with its client id, and shows no samples', async () => {
    stubApi({ meta: testMeta() });
    renderWithProviders('/');
    await screen.findByRole('textbox');
    expect(await screen.findByRole('heading', { level: 1, name: 'Look up a candidate' })).toBeInTheDocument();
    expect(await screen.findByTestId('environment-badge')).toHaveTextContent('Production · acme_kyc');
    expect(screen.queryByRole('region', { name: 'Sample candidates' })).not.toBeInTheDocument();
  });
});
