import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { EnvironmentInfo } from '../../src/kyc/contract/api.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { envelope, pageStatus, renderWithProviders, stubApi, testMeta } from './render.tsx';

const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const kwame = samples.find((r) => !r.refId)!;
const RECORD = kwame.recordId!;
const production: EnvironmentInfo = { name: 'default', label: 'Production', clientId: 'acme_kyc', upstream: 'remote', tone: 'danger' };
const staging: EnvironmentInfo = { name: 'staging', label: 'Staging', clientId: 'acme_staging', upstream: 'remote', tone: 'warning' };
const meta = testMeta({ environment: production, environments: [production, staging] });
const apiPath = (kind: string, id: string, env = '') => `/api${env}/candidates/${kind}/${encodeURIComponent(id)}`;
const answers = (record: CandidateRecord) => ({
  [apiPath('recordId', record.recordId!)]: envelope(record),
  [apiPath('recordId', record.recordId!, '/e/staging')]: envelope(record),
});

const BOX_NAME = /^(refId|recordId) to look up$/;
const searchBox = () => screen.getByLabelText(BOX_NAME);

async function paste(text: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByLabelText(BOX_NAME));
  await user.paste(text);
  return user;
}

describe('a dashboard link in the search box', { timeout: 20_000 }, () => {
  it.each([
    ['with index.html and #/', `https://kyc.blockpass.org/kyc/dashboard/index.html#/acme_kyc/kyc_detail/${RECORD}`],
    ['without index.html', `https://kyc.blockpass.org/kyc/dashboard/#/acme_kyc/kyc_detail/${RECORD}`],
    ['with #!/', `https://kyc.blockpass.org/kyc/dashboard/index.html#!/acme_kyc/kyc_detail/${RECORD}`],
    ['on another host, with a base path', `http://dashboard.internal:8080/ops/kyc/dashboard#!/acme_kyc/kyc_detail/${RECORD}/`],
  ])('is read as a recordId lookup (%s), says so, and opens the candidate on Enter', async (_, link) => {
    const { requests } = stubApi({ meta, candidates: answers(kwame) });
    const { router } = renderWithProviders('/');
    const user = await paste(link);
    expect(searchBox()).toHaveValue(RECORD);
    expect(screen.getByRole('radio', { name: 'recordId' })).toBeChecked();
    expect(pageStatus()).toHaveTextContent(
      `Read a dashboard link (client id acme_kyc): recordId ${RECORD}, in the Production environment.`,
    );
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { level: 1, name: 'Kwame Mensah' });
    expect(router.state.location.pathname).toBe(`/candidates/recordId/${RECORD}`);
    expect(screen.getByText(/^Read a dashboard link/)).toBeInTheDocument();
    expect(requests.filter((url) => url.includes('/candidates/'))).toEqual([apiPath('recordId', RECORD)]);
  });

  it('is looked up in the environment whose client id it names', async () => {
    stubApi({ meta, candidates: answers(kwame) });
    const { router } = renderWithProviders('/');
    const user = await paste(`https://kyc.blockpass.org/kyc/dashboard/index.html#/acme_staging/kyc_detail/${RECORD}`);
    expect(pageStatus()).toHaveTextContent('in the Staging environment.');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/e/staging/candidates/recordId/${RECORD}`));
  });

  it('is looked up in the current environment when no environment has its client id, and says so', async () => {
    stubApi({ meta, candidates: answers(kwame) });
    const { router } = renderWithProviders('/');
    const user = await paste(`https://kyc.blockpass.org/kyc/dashboard/#/someone_else/kyc_detail/${RECORD}`);
    expect(pageStatus()).toHaveTextContent(
      'No environment of this server has that client id, so it is looked up in the Production environment.',
    );
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/candidates/recordId/${RECORD}`));
  });

  it('pasted before the server said which environments it serves, it is read again once it has: the note and the lookup follow', async () => {
    stubApi({ meta, candidates: answers(kwame) });
    // /api/meta answers only when the test lets it: the reviewer pastes as the page opens (seen in CI).
    let answerMeta = () => {};
    const metaAnswered = new Promise<void>((resolve) => (answerMeta = resolve));
    const stubbed = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) === '/api/meta') await metaAnswered;
      return stubbed(input, init);
    });
    const { router } = renderWithProviders('/');
    const user = await paste(`https://kyc.blockpass.org/kyc/dashboard/index.html#/acme_staging/kyc_detail/${RECORD}`);
    expect(pageStatus()).toHaveTextContent('Which environment of this server has that client id is not known yet');
    expect(pageStatus()).not.toHaveTextContent('No environment of this server has that client id');
    answerMeta();
    await waitFor(() =>
      expect(pageStatus()).toHaveTextContent(
        `Read a dashboard link (client id acme_staging): recordId ${RECORD}, in the Staging environment.`,
      ),
    );
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/e/staging/candidates/recordId/${RECORD}`));
  });

  it('is read too when it reaches the box without a paste (typed or dropped), on Enter', async () => {
    stubApi({ meta, candidates: answers(kwame) });
    const { router } = renderWithProviders('/');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(BOX_NAME), `https://x.example/kyc/dashboard/#/acme_staging/kyc_detail/${RECORD}{Enter}`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/e/staging/candidates/recordId/${RECORD}`));
    expect(await screen.findByText(/^Read a dashboard link \(client id acme_staging\)/)).toBeInTheDocument();
  });

  it('smuggling a line break into its recordId is refused with a message, and nothing is looked up', async () => {
    const { requests } = stubApi({ meta });
    const { router } = renderWithProviders('/');
    const link = 'https://kyc.blockpass.org/kyc/dashboard/#/acme_kyc/kyc_detail/abc%0Adef';
    const user = await paste(link);
    expect(screen.getByRole('alert')).toHaveTextContent(/^This dashboard link does not open a candidate: its recordId is not valid\./);
    await user.type(searchBox(), `${link}{Enter}`);
    expect(screen.getByRole('alert')).toHaveTextContent(/control character/);
    expect(router.state.location.pathname).toBe('/');
    expect(requests.filter((url) => url.includes('/candidates/'))).toEqual([]);
  });

  it.each([
    ['no recordId', 'https://h/kyc/dashboard/#/acme_kyc/kyc_detail/', 'it names no recordId.'],
    [
      'another dashboard page',
      'https://h/kyc/dashboard/index.html#/acme_kyc/users',
      'it should end in #/<client id>/kyc_detail/<recordId>.',
    ],
    [
      'a badly encoded recordId',
      'https://h/kyc/dashboard/#/acme_kyc/kyc_detail/%E0%A4%A',
      'its recordId is not correctly percent-encoded.',
    ],
  ])('with %s gives a clear message, never a crash', async (_, link, problem) => {
    stubApi({ meta });
    renderWithProviders('/');
    await paste(link);
    expect(screen.getByRole('alert')).toHaveTextContent(`This dashboard link does not open a candidate: ${problem}`);
    expect(screen.getByRole('heading', { level: 1, name: 'Look up a candidate' })).toBeInTheDocument();
  });
});

describe('the refId/recordId switch', { timeout: 20_000 }, () => {
  it('reads each id typed by its form: a 24-hex id as a recordId, and after its page the next refId as a refId', async () => {
    const xiuying = samples.find((r) => r.refId === 'cust_000482')!;
    stubApi({ meta, candidates: { ...answers(kwame), [apiPath('refId', 'cust_000482')]: envelope(xiuying) } });
    const { router } = renderWithProviders('/');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(BOX_NAME), `${RECORD}{Enter}`);
    await screen.findByRole('heading', { level: 1, name: 'Kwame Mensah' });
    expect(router.state.location.pathname).toBe(`/candidates/recordId/${RECORD}`);
    expect(screen.getByRole('radio', { name: 'recordId' })).toBeChecked();
    expect(searchBox()).toHaveAccessibleName('recordId to look up');
    await user.clear(searchBox());
    await user.type(searchBox(), 'cust_000482');
    expect(screen.getByRole('radio', { name: 'refId' })).toBeChecked();
    expect(searchBox()).toHaveAccessibleName('refId to look up');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/cust_000482'));
  });
});
