import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { QueryObserver } from '@tanstack/react-query';
import { candidateQueries, startLookup } from '../../src/app/candidate/candidate-queries.ts';
import { SLOW_ANSWER_MS } from '../../src/app/candidate/candidate-skeleton.tsx';
import { createQueryClient } from '../../src/app/query-client.ts';
import { notARecord } from '../../src/server/answer/not-a-record.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { apiError, envelope, json, renderWithProviders, stubApi, testMeta } from './render.tsx';

const NOT_A_RECORD = notARecord({ cause: 'unknown' });

// cust_000482, under the refId the tests ask for (the server refuses another candidate's record: other_candidate).
const record = { ...(await sampleCandidates({ now: new Date() }))[1]!.record, refId: 'abc' };
const PATH = '/api/candidates/refId/abc';

function showWith(reply: Response | (() => Response | Promise<Response>)) {
  const api = stubApi({ candidates: { [PATH]: reply } });
  const view = renderWithProviders('/candidates/refId/abc');
  return { ...api, ...view };
}

const alert = () => screen.findByRole('alert');

describe('lookup states', () => {
  it('keeps a lookup started from the search box for its page even when the answer lands first: one request, not two', async () => {
    // Why not prefetchQuery (architecture.md): with gcTime 0 an answer nobody watches is dropped a task later.
    const { requests } = stubApi({ candidates: { [PATH]: envelope(record) } });
    const queryClient = createQueryClient();
    startLookup(queryClient, 'refId', 'abc');
    const lookup = candidateQueries.lookup('refId', 'abc');
    await waitFor(() => expect(queryClient.getQueryData(lookup.queryKey)).toBeDefined());
    // A task later, when an answer nobody watched would be gone already (gcTime 0): the page's observer.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const unsubscribe = new QueryObserver(queryClient, lookup).subscribe(() => {});
    await waitFor(() => expect(queryClient.getQueryState(lookup.queryKey)?.fetchStatus).toBe('idle'));
    unsubscribe();
    expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([PATH]);
  });

  it('keeps the record on screen when a Refresh fails for the service (down, limiting requests), says so, and Try again brings it back', async () => {
    const user = userEvent.setup();
    let answer = () => envelope(record);
    showWith(() => answer());
    const name = await screen.findByRole('heading', { level: 1 });
    const text = name.textContent;
    for (const [status, code, title] of [
      [502, 'upstream_unreachable', 'The KYC service cannot be reached'],
      [429, 'upstream_rate_limited', 'The KYC service is limiting requests'],
    ] as const) {
      answer = () => apiError(status, code, 'The service said no.');
      await user.click(screen.getByRole('button', { name: 'Refresh' }));
      const failed = await screen.findByTestId('refresh-failed');
      expect(failed).toHaveAttribute('role', 'alert');
      expect(failed).toHaveTextContent(`Refresh failed: ${title}. The service said no. The page still shows the candidate as fetched`);
      // The record is still there, as it was.
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(text!);
      expect(screen.queryByRole('heading', { name: title })).not.toBeInTheDocument();
    }
    answer = () => envelope(record);
    await user.click(within(screen.getByTestId('refresh-failed')).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByTestId('refresh-failed')).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(text!);
  });

  it('keeps the keyboard on Refresh while it refreshes and after (a disabled button would drop focus to the page)', async () => {
    const user = userEvent.setup();
    let release: (() => void) | undefined;
    let calls = 0;
    showWith(() => {
      calls += 1;
      if (calls === 1) return envelope(record);
      return new Promise<Response>((resolve) => {
        release = () => resolve(envelope(record));
      });
    });
    await screen.findByRole('heading', { level: 1 });
    const refresh = screen.getByRole('button', { name: 'Refresh' });
    refresh.focus();
    await user.keyboard('{Enter}');
    const busy = await screen.findByRole('button', { name: 'Refreshing…' });
    expect(busy).toHaveFocus();
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    // Pressed again while busy: nothing more is asked.
    await user.keyboard('{Enter}');
    expect(calls).toBe(2);
    act(() => release!());
    const done = await screen.findByRole('button', { name: 'Refresh' });
    expect(done).toHaveFocus();
    expect(done).not.toHaveAttribute('aria-disabled');
  });

  it('keeps the keyboard on Try again of an error screen while it tries, and after it failed again', async () => {
    const user = userEvent.setup();
    let release: (() => void) | undefined;
    let calls = 0;
    showWith(() => {
      calls += 1;
      if (calls === 1) return apiError(502, 'upstream_unreachable', 'connection refused');
      return new Promise<Response>((resolve) => {
        release = () => resolve(apiError(502, 'upstream_unreachable', 'connection refused'));
      });
    });
    const retry = await screen.findByRole('button', { name: 'Try again' });
    retry.focus();
    await user.keyboard('{Enter}');
    // The error screen stays while it tries (a skeleton in its place dropped focus to the page).
    const busy = await screen.findByRole('button', { name: 'Retrying…' });
    expect(busy).toHaveFocus();
    act(() => release!());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Try again' })).toHaveFocus());
    expect(calls).toBe(2);
  });

  it('shows the error instead of the record when a Refresh finds the candidate gone from the service', async () => {
    const user = userEvent.setup();
    let answer = () => envelope(record);
    showWith(() => answer());
    await screen.findByRole('heading', { level: 1 });
    answer = () => apiError(404, 'not_found', 'No candidate with refId "abc".');
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await alert()).toHaveAttribute('data-error-kind', 'not_found');
    expect(screen.queryByTestId('refresh-failed')).not.toBeInTheDocument();
  });

  it('shows a skeleton while loading', async () => {
    showWith(() => new Promise<Response>(() => {}));
    expect(await screen.findByText('Looking the candidate up…')).toBeInTheDocument();
    expect(screen.getByRole('status')).toBeInTheDocument();
  });

  it('says how long the service has been waited for once nothing has come for a few seconds, not read out each second', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    try {
      showWith(() => new Promise<Response>(() => {}));
      await screen.findByText('Looking the candidate up…');
      expect(screen.queryByTestId('waited')).toBeNull();
      await act(async () => {
        vi.advanceTimersByTime(SLOW_ANSWER_MS + 1000);
      });
      const waited = screen.getByTestId('waited');
      expect(waited).toHaveTextContent(/^Waiting for the KYC service's answer: 4 s\. A slow service is waited for/);
      expect(waited).toHaveAttribute('aria-live', 'off');
      await act(async () => {
        vi.advanceTimersByTime(5000);
      });
      expect(waited).toHaveTextContent("Waiting for the KYC service's answer: 9 s.");
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows download progress for a large response', async () => {
    const body = JSON.stringify({ status: 'success', data: { ...record, padding: 'x'.repeat(600_000) } });
    const bytes = new TextEncoder().encode(body);
    let push!: () => void;
    const pushed = new Promise<void>((resolve) => {
      push = resolve;
    });
    // Each piece is given when the page asks for more, not on a timer that a loaded machine could outrun.
    const pieces = [
      // A second piece once the progress interval (100 ms) has passed on the clock the page reads, so that
      // progress is reported: the clock is moved, not waited for.
      (controller: ReadableStreamDefaultController<Uint8Array>) => {
        const now = performance.now.bind(performance);
        vi.spyOn(performance, 'now').mockImplementation(() => now() + 100);
        controller.enqueue(bytes.subarray(300_000, 300_001));
      },
      async (controller: ReadableStreamDefaultController<Uint8Array>) => {
        await pushed;
        controller.enqueue(bytes.subarray(300_001));
        controller.close();
      },
    ];
    showWith(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(bytes.subarray(0, 300_000));
            },
            pull: (controller) => pieces.shift()?.(controller),
          }),
          { headers: { 'content-type': 'application/json', 'content-length': String(body.length) } },
        ),
    );
    try {
      expect(await screen.findByText(/^293 kB of \d+ kB \(\d+ %\) received$/)).toBeInTheDocument();
      push();
      expect(await screen.findByRole('heading', { level: 1, name: '王秀英' })).toBeInTheDocument();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('not found: names the id, and a recordId offers to try it as a refId (which may have any form)', async () => {
    const user = userEvent.setup();
    stubApi({ candidates: { '/api/candidates/recordId/abc': apiError(404, 'not_found', 'No candidate with recordId "abc".') } });
    const { router } = renderWithProviders('/candidates/recordId/abc');
    expect(await screen.findByRole('heading', { name: 'No candidate with recordId "abc"' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Check the id, or look it up as a refId.');
    await user.click(screen.getByRole('link', { name: 'Try as refId' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/abc'));
  });

  it('not found: a recordId of 24 hexadecimal characters (a link, or the switch) is offered no "Try as refId", which it very unlikely is', async () => {
    // Before: every recordId not found offered it, where the search box's own guess (guessKind) reads this
    // form as a recordId; a click sent the id again and wrote a second audit line for nothing.
    const hex = '65f1c2a9e4b0d3a1f0c9b8ff';
    const { requests } = stubApi({ candidates: {} });
    renderWithProviders(`/candidates/recordId/${hex}`);
    const card = (await screen.findByRole('heading', { name: `No candidate with recordId "${hex}"` })).closest('[role="alert"]')!;
    expect(card).toHaveTextContent("Check the id (a recordId's form, which a refId very rarely has).");
    expect(screen.queryByRole('link', { name: /Try as/ })).not.toBeInTheDocument();
    expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([`/api/candidates/recordId/${hex}`]);
  });

  it('attack: a name or an e-mail address not found as a refId is offered no "Try as recordId", which would send it to the service again', async () => {
    // Before: one click sent the personal data again and wrote a second audit line, for an id that has no
    // recordId's one form (24 hexadecimal characters) and so could find nobody.
    const { requests } = stubApi({ candidates: {} });
    for (const [encoded, id] of [
      ['Maria%20de%20Souza', 'Maria de Souza'],
      ['maria.souza%40example.com', 'maria.souza@example.com'],
      ['abc', 'abc'],
    ]) {
      requests.length = 0;
      const { unmount } = renderWithProviders(`/candidates/refId/${encoded}`);
      const card = (await screen.findByRole('heading', { name: `No candidate with refId "${id}"` })).closest('[role="alert"]')!;
      expect(card).toHaveTextContent("Check the id (it isn't a recordId either: those are 24 hexadecimal characters).");
      expect(card).not.toHaveTextContent(/look it up as a recordId/);
      expect(screen.queryByRole('link', { name: /Try as/ })).not.toBeInTheDocument();
      expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([`/api/candidates/refId/${encoded}`]);
      unmount();
    }
  });

  it("not found: an id that reads like a person's name says so, in the batch row's words; an id that does not, not", async () => {
    const NAME = "It reads like a person's name: the KYC service finds candidates by refId or recordId only.";
    stubApi({ candidates: {} });
    const { unmount } = renderWithProviders('/candidates/refId/Maria%20de%20Souza');
    const screenOf = async () =>
      (await screen.findByRole('heading', { name: /^No candidate with/ })).closest<HTMLElement>('[role="alert"]')!;
    // Before: only "Check the id", while the batch's row for the same name said why it was not found.
    expect(await screenOf()).toHaveTextContent(`Check the id (it isn't a recordId either: those are 24 hexadecimal characters). ${NAME}`);
    unmount();
    // An e-mail address looked up anyway (the search box asked first) is said to be one, by the same rule.
    const second = renderWithProviders('/candidates/refId/maria.souza%40example.com');
    expect(await screenOf()).toHaveTextContent(
      'It reads like an e-mail address: the KYC service finds candidates by refId or recordId only.',
    );
    second.unmount();
    renderWithProviders('/candidates/refId/cust_000999');
    expect(await screenOf()).not.toHaveTextContent(/reads like/);
  });

  it("not found with a sentence's marks around the id (copied from a ticket): offers the id without them, first", async () => {
    const user = userEvent.setup();
    stubApi({
      candidates: {
        '/api/candidates/refId/support-ticket-4410%2C': apiError(404, 'not_found', 'No candidate with refId "support-ticket-4410,".'),
        '/api/candidates/refId/support-ticket-4410': envelope({ ...record, refId: 'support-ticket-4410' }),
      },
    });
    const { router } = renderWithProviders('/candidates/refId/support-ticket-4410%2C');
    expect(await screen.findByRole('heading', { name: 'No candidate with refId "support-ticket-4410,"' })).toBeInTheDocument();
    expect(screen.getByText(/has the comma after it, likely from the sentence it was copied from/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Try as/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Look up refId support-ticket-4410' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/support-ticket-4410'));
    await screen.findByText(/Removed from the id/);
    expect(screen.getByText('Removed from the id: the comma after it.')).toBeInTheDocument();
  });

  it('not found: a recordId in capitals offers the id in lower case, as the service writes it (UX review, 29 November)', async () => {
    const user = userEvent.setup();
    const upper = '65F1C2A9E4B0D3A1F0C9B802';
    stubApi({
      candidates: {
        [`/api/candidates/recordId/${upper}`]: apiError(404, 'not_found', `No candidate with recordId "${upper}".`),
        [`/api/candidates/recordId/${upper.toLowerCase()}`]: envelope({ ...record, recordId: upper.toLowerCase() }),
      },
    });
    const { router } = renderWithProviders(`/candidates/recordId/${upper}`);
    expect(await screen.findByRole('heading', { name: `No candidate with recordId "${upper}"` })).toBeInTheDocument();
    expect(screen.getByText(/writes recordIds in lower case, and this one has capitals/)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: `Look up recordId ${upper.toLowerCase()}` }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/candidates/recordId/${upper.toLowerCase()}`));
  });

  it("attack: an answer holding another candidate's record (a cache in front of the service), refused by the server, is said as such", async () => {
    const user = userEvent.setup();
    const message = 'Asked for refId abc, the KYC service answered with the record of refId someone-else. Nothing of it was sent.';
    stubApi({
      candidates: {
        [PATH]: apiError(502, 'other_candidate', message, { answeredId: 'someone-else' }),
        '/api/candidates/refId/someone-else': envelope({ ...record, refId: 'someone-else' }),
      },
    });
    const { router } = renderWithProviders('/candidates/refId/abc');
    expect(await screen.findByRole('heading', { level: 1, name: 'The KYC service answered with another candidate' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Asked for refId abc, it sent the record of refId someone-else.');
    // The other person's lookup is a quiet link that says what it is, not the page's main button.
    const other = screen.getByRole('link', { name: 'Look up refId someone-else' });
    expect(other.closest('p')).toHaveTextContent('Look up refId someone-else (a lookup of that candidate, audited under their id)');
    expect(other).not.toHaveClass('bg-blue-700');
    await user.click(other);
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/someone-else'));
    expect(await screen.findByRole('heading', { level: 1, name: '王秀英' })).toBeInTheDocument();
  });

  it("attack: another candidate's record answered (a cache that misfired): Try again is the main button and asks the same id again (UX review)", async () => {
    const user = userEvent.setup();
    const message = 'Asked for refId abc, the KYC service answered with the record of refId someone-else-991. Nothing of it was sent.';
    let answers = 0;
    const { requests } = stubApi({
      candidates: {
        // The first answer is the cache's misfire; the second, the candidate asked for.
        [PATH]: () => (++answers === 1 ? apiError(502, 'other_candidate', message, { answeredId: 'someone-else-991' }) : envelope(record)),
      },
    });
    renderWithProviders('/candidates/refId/abc');
    expect(await screen.findByRole('heading', { level: 1, name: 'The KYC service answered with another candidate' })).toBeInTheDocument();
    // Before: the blue button was "Look up refId someone-else-991", and there was no Try again.
    const retry = within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' });
    expect(retry).toHaveClass('bg-blue-700');
    expect(screen.getByRole('link', { name: 'New lookup' })).not.toHaveClass('bg-blue-700');
    await user.click(retry);
    expect(await screen.findByRole('heading', { level: 1, name: '王秀英' })).toBeInTheDocument();
    expect(requests.filter((url) => url.startsWith('/api/candidates/'))).toEqual([PATH, PATH]);
  });

  it('an answer whose id differs only in case or outer spaces is the candidate asked for', async () => {
    stubApi({ candidates: { [PATH]: envelope({ ...record, refId: ' ABC ' }) } });
    renderWithProviders('/candidates/refId/abc');
    expect(await screen.findByRole('heading', { level: 1, name: '王秀英' })).toBeInTheDocument();
  });

  it('not found in an environment: "Try as refId" and "New lookup" stay in it', async () => {
    const user = userEvent.setup();
    stubApi({
      candidates: { '/api/e/staging/candidates/recordId/abc': apiError(404, 'not_found', 'No candidate with recordId "abc".') },
    });
    const { router } = renderWithProviders('/e/staging/candidates/recordId/abc');
    expect(await screen.findByRole('heading', { name: 'No candidate with recordId "abc"' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New lookup' })).toHaveAttribute('href', '/e/staging/');
    await user.click(screen.getByRole('link', { name: 'Try as refId' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/e/staging/candidates/refId/abc'));
  });

  it('an environment that does not exist (a link from an older configuration): says so, not "no candidate", and "New lookup" leaves it', async () => {
    stubApi({
      candidates: {
        '/api/e/old/candidates/refId/abc': apiError(404, 'no_such_environment', 'This server has no environment named "old".'),
      },
    });
    renderWithProviders('/e/old/candidates/refId/abc');
    expect(await screen.findByRole('heading', { name: 'This environment does not exist here' })).toBeInTheDocument();
    expect(screen.getByText(/no environment named "old"/)).toBeInTheDocument();
    expect(screen.queryByText(/No candidate with/)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Try as recordId' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New lookup' })).toHaveAttribute('href', '/');
  });

  it('an environment the account may not use: says so, not "your session has ended"', async () => {
    stubApi({
      candidates: {
        '/api/e/prod/candidates/refId/abc': apiError(403, 'environment_forbidden', 'Your account may not use the environment "prod".'),
      },
    });
    renderWithProviders('/e/prod/candidates/refId/abc');
    expect(await screen.findByRole('heading', { name: 'Your account may not use this environment' })).toBeInTheDocument();
    expect(screen.getByText(/may not use the environment "prod"/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in again' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New lookup' })).toHaveAttribute('href', '/');
  });

  it("the server's key rejected: says it is not the reviewer's fault", async () => {
    showWith(apiError(502, 'upstream_unauthorized', "The KYC service rejected this server's API key (HTTP 401)."));
    expect(await alert()).toHaveAttribute('data-error-kind', 'upstream_unauthorized');
    expect(screen.getByRole('heading', { name: "The KYC service rejected this server's API key" })).toBeInTheDocument();
    expect(screen.getByText(/Nothing is wrong with the id you entered/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('a web address looked up as a refId: says it is no id, and offers no other kind to try', async () => {
    const path = '/api/candidates/refId/https%3A%2F%2Fexample.com%2Fticket%2F42';
    stubApi({ candidates: { [path]: apiError(404, 'not_found', 'No candidate with refId "https://example.com/ticket/42".') } });
    renderWithProviders('/candidates/refId/https%3A%2F%2Fexample.com%2Fticket%2F42');
    expect(await alert()).toHaveAttribute('data-error-kind', 'not_found');
    expect(screen.getByText(/^This is a web address, not an id\./)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Try as/ })).not.toBeInTheDocument();
  });

  it('the server\'s client id unknown to the service: not "no such candidate", and not the reviewer\'s fault', async () => {
    showWith(apiError(502, 'upstream_misconfigured', "The KYC service does not know this server's client id (…): check KYC_CLIENT_ID."));
    expect(await alert()).toHaveAttribute('data-error-kind', 'upstream_misconfigured');
    expect(screen.getByRole('heading', { name: 'This server is not set up right for the KYC service' })).toBeInTheDocument();
    expect(
      screen.getByText(/KYC_CLIENT_ID\. Nothing is wrong with the id you entered; tell whoever runs Candidate Lookup\./),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Try as/ })).not.toBeInTheDocument();
  });

  it("the service's address redirects: its own title, not the reviewer's fault, and no Try again (the same redirect would come back)", async () => {
    showWith(
      apiError(
        502,
        'upstream_redirected',
        "The KYC service's address redirects (HTTP 302) to https://kyc.example.org: an administrator must update…",
        {
          upstreamStatus: 302,
        },
      ),
    );
    expect(await alert()).toHaveAttribute('data-error-kind', 'upstream_redirected');
    expect(screen.getByRole('heading', { name: "The KYC service's address has moved" })).toBeInTheDocument();
    expect(screen.getByText(/Nothing is wrong with the id you entered/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Try again/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/usually passes/)).not.toBeInTheDocument();
  });

  it.each([
    ['upstream_unreachable', 502, 'The KYC service cannot be reached'],
    ['upstream_timeout', 504, 'The KYC service did not answer in time'],
  ])('%s: explains and retries on request', async (code, status, title) => {
    const user = userEvent.setup();
    let calls = 0;
    const { requests } = showWith(() => (++calls === 1 ? apiError(status, code, 'details') : envelope(record)));
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: '王秀英' })).toBeInTheDocument();
    expect(requests.filter((url) => url === PATH)).toHaveLength(2);
  });

  it('the service away: says the id is not at fault and what to do, not only what the title said', async () => {
    showWith(apiError(502, 'upstream_unreachable', 'The KYC service could not be reached (connection refused).'));
    const screenAlert = await alert();
    expect(within(screenAlert).getByRole('heading')).toHaveTextContent('The KYC service cannot be reached');
    expect(screenAlert).toHaveTextContent(
      'The KYC service could not be reached (connection refused). Nothing is wrong with the id you entered: this is between Candidate Lookup and the KYC service, and usually passes within minutes.',
    );
  });

  it('rate limited: says when to try again', async () => {
    showWith(apiError(429, 'upstream_rate_limited', 'limited', { retryAfterSeconds: 30 }, { 'retry-after': '30' }));
    expect(await screen.findByRole('heading', { name: 'The KYC service is limiting requests' })).toBeInTheDocument();
    const body = screen.getByText(/Try again in 30 s, at /);
    expect(body).toHaveTextContent(
      /^The KYC service asked this app to wait before asking again: its limit counts every lookup made here, not only yours\. Try again in 30 s, at .+\.$/,
    );
    // The moment to retry is a time like any other: with its zone, and the other zone as its description (no Tab stop of its own).
    const time = within(body).getByRole('time');
    expect(time).not.toHaveAttribute('tabindex');
    expect(time).toHaveTextContent(/(^|\D)\d{1,2}:\d\d:\d\d\s[AP]M UTC$/);
    expect(time).toHaveAccessibleDescription(/^In UTC: .+:\d\d\s[AP]M UTC$/);
  });

  it('rate limited: Try again waits with the wait the service asked for, then can be pressed', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    try {
      showWith(apiError(429, 'upstream_rate_limited', 'limited', { retryAfterSeconds: 3 }, { 'retry-after': '3' }));
      await screen.findByRole('heading', { name: 'The KYC service is limiting requests' });
      // Held, not disabled: it keeps the keyboard's focus (retry-wait.tsx).
      expect(screen.getByRole('button', { name: 'Try again' })).toHaveAttribute('aria-disabled', 'true');
      await act(async () => {
        vi.advanceTimersByTime(4000);
      });
      expect(screen.getByRole('button', { name: 'Try again' })).not.toHaveAttribute('aria-disabled');
      expect(screen.getByText('The wait the KYC service asked for is over: try again.')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('rate limited by the service without a word on when: asks to wait a minute', async () => {
    showWith(apiError(429, 'upstream_rate_limited', 'The KYC service is limiting requests (HTTP 429). Wait a minute, then try again.'));
    expect(await screen.findByRole('heading', { name: 'The KYC service is limiting requests' })).toBeInTheDocument();
    // The service's limit is everyone's, not the reviewer's: not said as "too many lookups".
    expect(
      screen.getByText(
        'The KYC service asked this app to wait before asking again: its limit counts every lookup made here, not only yours. It did not say how long: wait a minute, then try again.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('malformed response: says which field was wrong', async () => {
    const { status: _, ...withoutStatus } = record;
    showWith(json({ status: 'success', data: withoutStatus }));
    expect(await screen.findByRole('heading', { name: 'The response has an unexpected shape' })).toBeInTheDocument();
    expect(screen.getByText(/The record has no status\. \(at data\.status\)/)).toBeInTheDocument();
    // What answered may have been passing (a gateway's page, a service between deploys).
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('a body that is not JSON (an encrypted response): its own clear error', async () => {
    showWith(new Response('U2FsdGVkX1+vupppZksvRf5pq5g5XjFRlipRkwB0K1Y=', { headers: { 'content-type': 'text/plain' } }));
    expect(await screen.findByRole('heading', { name: 'The response is not readable' })).toBeInTheDocument();
    expect(screen.getByText(/It may be encrypted/)).toBeInTheDocument();
  });

  it('a body that is not JSON (perhaps encrypted), refused by the server: not titled as an answer that could not be used', async () => {
    showWith(apiError(NOT_A_RECORD.status, NOT_A_RECORD.code, NOT_A_RECORD.message));
    expect(await alert()).toHaveAttribute('data-error-kind', 'not_a_record');
    expect(screen.getByRole('heading', { name: 'The answer is not a readable record' })).toBeInTheDocument();
    expect(screen.getByText(/It may be encrypted/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: "The KYC service's answer could not be used" })).not.toBeInTheDocument();
    // Asked again, the service gives the same answer: no Try again (not-a-record-screen.test.tsx).
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('the archive-after-extract check that cannot be read: full lookups held back, not "sign-in is paused"', async () => {
    showWith(apiError(503, 'archiving_check_unavailable', 'Candidate Lookup cannot read its record…, so full lookups are held back.'));
    expect(await alert()).toHaveAttribute('data-error-kind', 'archiving_check_unavailable');
    expect(screen.getByRole('heading', { name: 'Full lookups are held back until the API key is checked' })).toBeInTheDocument();
    expect(screen.getByText(/full lookups are held back/)).toBeInTheDocument();
    expect(screen.queryByText(/paused/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('a body cut mid-way: says the download broke off', async () => {
    showWith(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"status":"success","data":{'));
              controller.error(new TypeError('network error'));
            },
          }),
        ),
    );
    // A broken connection is retried once by itself (after a second) before the error shows.
    expect(await screen.findByRole('heading', { name: 'The download broke off' }, { timeout: 15_000 })).toBeInTheDocument();
  });

  it('the server unreachable: says so, with a retry', async () => {
    const { fetchMock } = stubApi();
    fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
      if (String(input) === '/api/meta') return json(testMeta());
      if (String(input) === '/api/session') return json({ mode: 'local', user: 'local', role: 'compliance' });
      throw new TypeError('Failed to fetch');
    });
    renderWithProviders('/candidates/refId/abc');
    expect(
      await screen.findByRole('heading', { name: 'The Candidate Lookup server cannot be reached' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('an upstream error, a response too large: specific messages', async () => {
    showWith(apiError(502, 'upstream_error', 'The KYC service answered with an error (HTTP 500).', { upstreamStatus: 500 }));
    expect(await screen.findByRole('heading', { name: "The KYC service's answer could not be used" })).toBeInTheDocument();
    // What was wrong, then what to do: try again, and whom to tell.
    expect(screen.getByText(/HTTP 500/)).toHaveTextContent(
      'The KYC service answered with an error (HTTP 500). This usually passes: try again in a moment. If it keeps happening, tell whoever runs Candidate Lookup.',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it("an answer of the service's that broke off: nothing of it is shown, and it usually passes", async () => {
    showWith(apiError(502, 'upstream_error', "The KYC service's answer broke off before it was complete."));
    expect(await screen.findByText(/broke off/)).toHaveTextContent(
      "The KYC service's answer broke off before it was complete. Nothing of it is shown. This usually passes: try again in a moment.",
    );
  });

  it("the service's 400: its reason, and what to check, not that it usually passes (asked again, it answers the same)", async () => {
    const message = 'The KYC service answered with an error (HTTP 400): "Invalid refId".';
    showWith(apiError(502, 'upstream_error', message, { upstreamStatus: 400 }));
    const body = await screen.findByText(/HTTP 400/);
    expect(body).toHaveTextContent(
      `${message} Trying again will not change this answer: the KYC service refused the request itself. Check the id; if it is right, tell whoever runs Candidate Lookup what the service said.`,
    );
    expect(body).not.toHaveTextContent(/usually passes|try again in a moment/);
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it("the service's 503 with a wait: when to try again, counted down, and Try again waits for it", async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    try {
      const message = 'The KYC service answered with an error (HTTP 503). It asked to be tried again in 20 s.';
      showWith(apiError(502, 'upstream_error', message, { upstreamStatus: 503, retryAfterSeconds: 20 }, { 'retry-after': '20' }));
      const body = await screen.findByText(/HTTP 503/);
      expect(body).toHaveTextContent(
        /^The KYC service answered with an error \(HTTP 503\)\. It asked to be tried again in 20 s\. Try again in 20 s, at .+\. If it keeps happening/,
      );
      expect(body).not.toHaveTextContent('try again in a moment');
      expect(screen.getByRole('button', { name: 'Try again' })).toHaveAttribute('aria-disabled', 'true');
      await act(async () => {
        vi.advanceTimersByTime(21_000);
      });
      expect(screen.getByRole('button', { name: 'Try again' })).not.toHaveAttribute('aria-disabled');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a code without a screen of its own: the screen its HTTP status means, not a crash or a blank', async () => {
    showWith(apiError(403, 'not_from_app', 'This request did not come from the Candidate Lookup app.'));
    expect(await alert()).toHaveAttribute('data-error-kind', 'unauthenticated');
    expect(screen.getByRole('heading', { name: 'Your session has ended' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in again' })).toBeInTheDocument();
  });

  it('a response too large', async () => {
    const message =
      "The KYC service's answer is larger than the 64 MB this server accepts (limits.maxResponseBytes). Nothing is wrong with the id: " +
      "the candidate's record, pictures included, is over this server's limit, and asking again gets the same answer. " +
      'Tell whoever runs Candidate Lookup: they can raise limits.maxResponseBytes.';
    showWith(apiError(502, 'response_too_large', message));
    expect(await screen.findByRole('heading', { name: 'The response is too large' })).toBeInTheDocument();
    // The server's sentence says the next step: the card adds no "try again" to it.
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('an invalid id in the link: refused before any request', async () => {
    const { requests } = stubApi();
    const { queryClient } = renderWithProviders('/candidates/refId/%0Aabc');
    expect(await screen.findByRole('heading', { name: 'This id cannot be looked up' })).toBeInTheDocument();
    expect(screen.getByText(/control character/)).toBeInTheDocument();
    // The lookup refused the id itself and has settled (nothing is still on its way), without a request.
    const lookups = queryClient.getQueryCache().findAll({ queryKey: candidateQueries.all() });
    expect(lookups.map(({ state }) => [state.status, state.fetchStatus])).toEqual([['error', 'idle']]);
    expect(requests.filter((url) => url.startsWith('/api/candidates'))).toEqual([]);
  });

  it('a link with an unknown lookup kind or broken encoding', async () => {
    stubApi();
    renderWithProviders('/candidates/email/abc');
    expect(await screen.findByText(/"email" is not a way to look candidates up/)).toBeInTheDocument();
  });
});
