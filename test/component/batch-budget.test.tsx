import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { batchAnswer, foundRow, LAZY_PAGE, lookUpAll } from './batch-fixture.ts';
import { apiError, renderWithProviders, stubApi } from './render.tsx';
import { effectsRun, fakeClock, seconds } from './wait-clock.ts';

const TOO_MANY = 'This server looks up at most 4 ids a minute in batches: split the list, or look up the first 4 now.';

/** A whole answer of a row found for each id asked; `headers`, what else the answer says (its RateLimit-* headers). */
function answerFound(ids: string[], headers: Record<string, string> = {}): Response {
  return batchAnswer([...ids.map((refId, index) => foundRow(index, refId)), { type: 'done', found: ids.length, failed: 0 }], headers);
}

/** What src/server/lookup/batch.ts says of a budget of 4 that a batch of 4 has just spent, whole again in 42 s. */
const SPENT = { 'ratelimit-limit': '4', 'ratelimit-remaining': '0', 'ratelimit-reset': '42' };

/**
 * A server whose batch budget is 4 ids a minute: its batches answered in turn by `answers` (the first a
 * refusal for its size, as src/server/lookup/batch.ts refuses it); `asked`, the ids of each request.
 */
function budgetOfFour(...answers: Array<() => Response>) {
  const api = stubApi({ candidates: { '/api/batch': () => answers.shift()!() } });
  const asked = () =>
    api.fetchMock.mock.calls
      .filter(([input]) => input === '/api/batch')
      .map(([, init]) => (JSON.parse(String((init as RequestInit).body)) as { ids: string[] }).ids);
  return asked;
}

const refusedForSize = () => apiError(400, 'bad_request', TOO_MANY, { idsAtMost: 4 });

const ids = (count: number) => Array.from({ length: count }, (_, i) => `id${i + 1}`);

describe('a batch larger than the server’s batch budget', { timeout: 20_000 }, () => {
  it('offers no Retry (the same list is refused again) but "Look up the first 4", which sends the first 4; then Retry the 2 left', async () => {
    const asked = budgetOfFour(
      refusedForSize,
      () => answerFound(ids(4)),
      () => answerFound(['id5', 'id6']),
    );
    renderWithProviders('/batch');
    const user = await lookUpAll(ids(6).join('\n'));
    const said = await screen.findByText(TOO_MANY);
    // The server's sentence alone: not "Retry looks them up again" beside a refusal that a retry meets again.
    expect(said).toHaveTextContent(
      /^This server looks up at most 4 ids a minute in batches: split the list, or look up the first 4 now\.$/,
    );
    expect(screen.queryByRole('button', { name: /^Retry/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Look up the first 4' }));
    expect(await screen.findByText(/^Done: 4 found, 0 not found, 0 failed\./)).toHaveTextContent(
      /^Done: 4 found, 0 not found, 0 failed\. 2 ids left: 2 were not looked up\. Retry looks them up again\.$/,
    );
    expect(screen.getByTestId('batch-progress')).toHaveTextContent('4 of 6');
    await user.click(screen.getByRole('button', { name: 'Retry the 2 left' }));
    await waitFor(() => expect(screen.getByTestId('batch-progress')).toHaveTextContent('6 of 6'));
    expect(asked()).toEqual([ids(6), ids(4), ['id5', 'id6']]);
  });

  it('offers the next 4, not all those left, once the first 4 are done and more than 4 are left', async () => {
    const asked = budgetOfFour(
      refusedForSize,
      () => answerFound(ids(4)),
      () => answerFound(['id5', 'id6', 'id7', 'id8']),
    );
    renderWithProviders('/batch');
    const user = await lookUpAll(ids(10).join('\n'));
    await user.click(await screen.findByRole('button', { name: 'Look up the first 4' }));
    expect(await screen.findByText(/^Done: 4 found/)).toHaveTextContent(
      /6 ids left: 6 were not looked up\. This server looks up at most 4 ids a minute in batches: look up the next 4 now, the rest after\.$/,
    );
    expect(screen.queryByRole('button', { name: /^Retry/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Look up the next 4' }));
    await waitFor(() => expect(screen.getByTestId('batch-progress')).toHaveTextContent('8 of 10'));
    expect(asked()).toEqual([ids(10), ids(4), ['id5', 'id6', 'id7', 'id8']]);
  });
});

describe('the next part of a list larger than the budget', { timeout: 20_000 }, () => {
  it('is offered once the budget has room: "The next 4 in 42 s", the button held until then (it was offered at once, and refused)', async () => {
    const asked = budgetOfFour(
      refusedForSize,
      () => answerFound(ids(4), SPENT),
      () => answerFound(['id5', 'id6', 'id7', 'id8']),
    );
    renderWithProviders('/batch');
    const user = await lookUpAll(ids(10).join('\n'));
    fakeClock();
    await user.click(await screen.findByRole('button', { name: 'Look up the first 4' }));
    expect(await screen.findByText(/^Done: 4 found/)).toHaveTextContent(
      /6 ids left: 6 were not looked up\. This server looks up at most 4 ids a minute in batches: look up the next 4 once the wait is over, the rest after\. The next 4 in 42 s, at .+\.$/,
    );
    const next = screen.getByRole('button', { name: 'Look up the next 4' });
    expect(next).toHaveAttribute('aria-disabled', 'true');
    expect(next).toHaveAccessibleDescription(/^The next 4 in 42 s, at /);
    await effectsRun();
    await user.click(next);
    expect(asked()).toHaveLength(2);
    seconds(42);
    expect(next).not.toHaveAttribute('aria-disabled');
    expect(screen.getByText(/^Done: 4 found/)).toHaveTextContent(/look up the next 4 now, the rest after\.$/);
    await user.click(next);
    await waitFor(() => expect(screen.getByTestId('batch-progress')).toHaveTextContent('8 of 10'));
    expect(asked()).toEqual([ids(10), ids(4), ['id5', 'id6', 'id7', 'id8']]);
  });

  it('is offered at once when the budget has room for it', async () => {
    budgetOfFour(refusedForSize, () => answerFound(ids(4), { ...SPENT, 'ratelimit-remaining': '4' }));
    renderWithProviders('/batch');
    const user = await lookUpAll(ids(10).join('\n'));
    await user.click(await screen.findByRole('button', { name: 'Look up the first 4' }));
    expect(await screen.findByText(/^Done: 4 found/)).toHaveTextContent(/look up the next 4 now, the rest after\.$/);
    expect(screen.getByRole('button', { name: 'Look up the next 4' })).not.toHaveAttribute('aria-disabled');
  });
});

describe('a batch refused because the budget was spent first (429)', { timeout: 20_000 }, () => {
  it('offers no Retry of more than the budget (bound to be refused) but the first 4 once the wait is over, and says so', async () => {
    const spent = () =>
      apiError(429, 'rate_limited', 'Your batch budget is used up for now: a batch can start in 30 s.', {
        retryAfterSeconds: 30,
        idsAtMost: 4,
      });
    const asked = budgetOfFour(spent, () => answerFound(ids(4)));
    renderWithProviders('/batch');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE));
    await user.paste(ids(6).join('\n'));
    fakeClock();
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    expect((await screen.findByText(/^Your batch budget is used up/)).closest('p')).toHaveTextContent(
      /^Your batch budget is used up for now: a batch can start in 30 s, at .+\. 6 ids left: 6 were not looked up\. This server looks up at most 4 ids a minute in batches: look up the first 4 once the wait is over, the rest after\.$/,
    );
    expect(screen.queryByRole('button', { name: /^Retry/ })).not.toBeInTheDocument();
    const first = screen.getByRole('button', { name: 'Look up the first 4' });
    expect(first).toHaveAttribute('aria-disabled', 'true');
    await effectsRun();
    seconds(30);
    expect(first).not.toHaveAttribute('aria-disabled');
    await user.click(first);
    await waitFor(() => expect(screen.getByTestId('batch-progress')).toHaveTextContent('4 of 6'));
    expect(asked()).toEqual([ids(6), ids(4)]);
  });
});

describe('a batch the server refuses as a request', { timeout: 20_000 }, () => {
  it('offers no Retry for a refusal the same request meets again (403), and still one after a failure of the moment (503)', async () => {
    let answer = () => apiError(403, 'role_forbidden', 'Your role may not look up batches in this environment.');
    stubApi({ candidates: { '/api/batch': () => answer() } });
    renderWithProviders('/batch');
    const user = await lookUpAll('id1\nid2');
    expect(await screen.findByText(/^Your role may not look up batches/)).toHaveTextContent(
      /^Your role may not look up batches in this environment\. 2 ids left: 2 were not looked up\.$/,
    );
    expect(screen.queryByRole('button', { name: /^Retry/ })).not.toBeInTheDocument();

    answer = () => apiError(503, 'server_busy', 'This server is busy.');
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    expect(await screen.findByText(/^This server is busy\./)).toHaveTextContent(/Retry looks them up again\.$/);
    expect(screen.getByRole('button', { name: 'Retry the 2 left' })).toBeInTheDocument();
  });
});
