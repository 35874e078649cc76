import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import type { ActivityAnswer, AuditSearchAnswer } from '../../src/kyc/contract/audit-search.ts';
import type { AuditStatus } from '../../src/kyc/contract/audit-status.ts';
import { auditRow } from './audit-row.ts';
import { inTimeZone } from './in-time-zone.ts';
import { atMidday } from './midday.ts';
import { apiError, envelope, json, renderWithProviders, stubApi, testMeta } from './render.tsx';

/**
 * The audit trail in the app (issue 34): the audit page for leads, and a candidate's Activity for
 * compliance users and leads, never support users.
 */

const LEAD: SessionInfo = { mode: 'proxy', user: 'lena', role: 'lead' };
const ANA: SessionInfo = { mode: 'proxy', user: 'ana', role: 'compliance' };
const SAM: SessionInfo = { mode: 'proxy', user: 'sam', role: 'support' };

const row = auditRow;

const STATUS: AuditStatus = {
  source: { kind: 'files' },
  instances: [
    {
      instance: 'app1',
      self: true,
      reportedAt: new Date().toISOString(),
      files: [
        { file: 'audit.jsonl', lines: 1204331, intact: true, lastLineAt: new Date().toISOString(), checkedAt: new Date().toISOString() },
      ],
    },
    {
      instance: 'app2',
      self: false,
      reportedAt: new Date().toISOString(),
      files: [
        { file: 'audit.jsonl', lines: 41, intact: false, broken: { line: 42, reason: '"prev" is not the hash of line 41' }, checkedAt: '' },
      ],
    },
  ],
  fileBounds: { maxLines: 2_000_000, maxMs: 2000 },
};

/** The audit page of a lead, its searches answered with one row, its exports with a CSV file. */
function showExportingAuditPage() {
  const api = stubApi({
    session: LEAD,
    candidates: {
      '/api/audit/status': () => json(STATUS),
      '/api/audit/search': () => json({ rows: [row({})], source: { kind: 'files' } }),
      '/api/audit/export': () =>
        new Response('time\r\n', {
          headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="audit-2026-11-29-1617.csv"' },
        }),
    },
  });
  renderWithProviders('/audit');
  return api;
}

function showAuditPage(session: SessionInfo, answers: AuditSearchAnswer[] = []) {
  const searches: unknown[] = [];
  const api = stubApi({
    session,
    candidates: {
      '/api/audit/status': () => json(STATUS),
      '/api/audit/search': () => {
        const answer = answers[Math.min(searches.length, answers.length - 1)] ?? { rows: [], source: { kind: 'files' } };
        searches.push(answer);
        return json(answer);
      },
    },
  });
  const { router } = renderWithProviders('/audit');
  return { ...api, searches, router };
}

const bodiesOf = (fetchMock: ReturnType<typeof stubApi>['fetchMock'], path: string) =>
  fetchMock.mock.calls.filter(([input]) => String(input) === path).map(([, init]) => JSON.parse(String(init?.body ?? '{}')) as unknown);

describe('the audit page', () => {
  it('shows a lead the trail, each row linked to its candidate, and each file’s chain: intact to its line, or where it breaks', async () => {
    showAuditPage(LEAD, [
      {
        rows: [
          row({ user: '=cmd', id: 'cust-204' }),
          row({ action: 'print', user: 'ana', env: 'staging', id: 'cust-9' }),
          row({ action: 'copy_summary', status: null }),
        ],
        source: { kind: 'files' },
      },
    ]);
    const table = await screen.findByRole('table', { name: /Audit trail, page 1/ });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    // An action done in the browser has no answer: its outcome says so with a dash, as every empty cell does.
    expect(within(rows[1]!).getAllByRole('cell')[6]).toHaveTextContent(/^OK$/);
    expect(within(rows[3]!).getAllByRole('cell')[6]).toHaveTextContent(/^—$/);
    expect(within(rows[1]!).getAllByRole('cell')[4]).toHaveTextContent(/^Full key; what it held was not recorded$/);
    // The default environment by the unprefixed address, as the app's other links; another one under /e/<name>.
    expect(within(table).getAllByRole('link', { name: 'cust-204' })[0]).toHaveAttribute('href', '/candidates/refId/cust-204');
    expect(within(table).getByRole('link', { name: 'cust-9' })).toHaveAttribute('href', '/e/staging/candidates/refId/cust-9');
    expect(within(table).getByText('Printed')).toBeInTheDocument();
    expect(await screen.findByText(/intact to line 1,204,331, last line/)).toBeInTheDocument();
    expect(screen.getByText(/broken at line 42: "prev" is not the hash of line 41/)).toBeInTheDocument();
    // Said at the top of the page too, before the results: a lead does not read a trail without knowing it was changed.
    const alert = screen.getByTestId('chain-broken');
    expect(alert).toHaveAttribute('role', 'alert');
    expect(alert).toHaveTextContent(/^The audit trail's hash chain is broken \(app2: audit\.jsonl at line 42\)/);
    expect(alert.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Audit' })).toHaveAttribute('aria-current', 'page');
  });

  it("says above the table that the lead's own searches and exports are left out unless the Action filter asks for them", async () => {
    showAuditPage(LEAD);
    const intro = (await screen.findByRole('heading', { level: 1, name: 'Audit trail' })).nextElementSibling!;
    expect(intro).toHaveTextContent(
      /Your own searches and exports are written to the trail too, but this table and its CSV leave them out unless the Action filter asks for them \(“Searched the audit trail”, “Exported the audit trail”\)\./,
    );
    // The names it gives are the Action filter's own.
    const action = screen.getByRole('combobox', { name: 'Action' });
    expect(within(action).getByRole('option', { name: 'Searched the audit trail' })).toBeInTheDocument();
    expect(within(action).getByRole('option', { name: 'Exported the audit trail' })).toBeInTheDocument();
  });

  it('marks in words each row the server says is after a break in its chain, whatever its date, and only those', async () => {
    const rows = [
      row({ time: '2026-11-29T11:00:00.000Z', user: 'after', unvouched: true }),
      // An edited line back-dated to before the break: marked by its place, as the server found it.
      row({ time: '2026-11-01T09:00:00.000Z', user: 'back-dated', unvouched: true }),
      row({ time: '2026-11-29T12:00:00.000Z', user: 'other-instance', instance: 'app3' }),
      row({ time: '2026-11-29T10:00:00.000Z', user: 'vouched' }),
    ];
    showAuditPage(LEAD, [{ rows, source: { kind: 'database' } }]);
    const table = await screen.findByRole('table');
    expect(within(table).getAllByText('Not vouched for by the chain')).toHaveLength(2);
    const marked = (user: string) =>
      within(within(table).getByText(user).closest('tr')!).queryByText('Not vouched for by the chain') !== null;
    expect(['after', 'back-dated', 'other-instance', 'vouched'].map(marked)).toEqual([true, true, false, false]);
    expect(await screen.findByTestId('chain-broken')).toHaveTextContent(
      /Rows after the last line the chain vouches for are marked "Not vouched for by the chain" \(by their place in the file, whatever date they carry\)/,
    );
  });

  it('explains each level a row names, in its title and in a legend of the levels on the page', async () => {
    showAuditPage(LEAD, [
      {
        rows: [
          row({ level: 'full' }),
          row({ level: 'stripped', user: 'sam', role: 'support' }),
          row({ level: 'full', status: 401, code: 'upstream_error', user: 'refused' }),
        ],
        source: { kind: 'files' },
      },
    ]);
    const table = await screen.findByRole('table');
    const levelCell = (index: number) => within(within(table).getAllByRole('row')[index + 1]!).getAllByRole('cell')[4]!;
    expect(within(levelCell(0)).getByText('Full key; what it held was not recorded')).toHaveAttribute(
      'title',
      expect.stringMatching(/^Full key: read with the full key: .*of a line from before this was recorded, what it held was not recorded/),
    );
    expect(within(levelCell(1)).getByText('Status level (reduced here)')).toHaveAttribute(
      'title',
      expect.stringMatching(/no identity data or pictures left the server/),
    );
    expect(within(levelCell(2)).getByText('Full key asked, nothing shown')).toHaveAttribute(
      'title',
      expect.stringMatching(
        /^Asked, nothing shown: the lookup was asked at that level, but refused or failed: nothing was shown\. Full key: /,
      ),
    );
    // The legend names the levels on the page, not the one no row has, and "asked, nothing shown", which
    // a phone cannot hover for (the UX review).
    const legend = screen.getByTestId('level-legend');
    expect(
      within(legend)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Full key:', 'Status level (reduced here):', '… asked, nothing shown:']);
    expect(legend).toHaveTextContent(
      '… asked, nothing shown:the lookup was asked at that level, but refused or failed: nothing was shown.',
    );
  });

  it("says on a full lookup's one row what its answer held, by name and count, and that a cut answer's is not known", async () => {
    const held = { identities: 5, pictures: 2, pictureNames: ['passport', 'selfie'], certificates: 1 };
    const noPictures = { identities: 4, pictures: 0, pictureNames: [], certificates: 0 };
    const archived = { identities: 0, pictures: 0, pictureNames: [], certificates: 2, archived: true as const };
    showAuditPage(LEAD, [
      {
        rows: [
          row({ user: 'ana', held }),
          row({ user: 'bo', held: noPictures }),
          row({ user: 'cy', held: archived }),
          row({ user: 'di', heldCut: true }),
        ],
        source: { kind: 'files' },
      },
    ]);
    const table = await screen.findByRole('table');
    const levels = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((tr) => within(tr).getAllByRole('cell')[4]!.textContent);
    expect(levels).toEqual([
      'Full key; held: 5 identity attributes, 2 pictures (passport, selfie), 1 certificate',
      'Full key; held: 4 identity attributes, no pictures, no certificates',
      'Full key; archived: no identity data, 2 certificates',
      'Full key; cut short: what it held is not known',
    ]);
  });

  it('marks the fields a row does not have, which a phone leaves out of the stacked row, and shows a dash for them in the table', async () => {
    showAuditPage(LEAD, [
      {
        rows: [row({ action: 'note', user: null, role: null, env: null, kind: null, id: null, level: null, status: null, client: null })],
        source: { kind: 'files' },
      },
    ]);
    const table = await screen.findByRole('table');
    const cells = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell');
    const empty = cells.filter((cell) => cell.hasAttribute('data-empty')).map((cell) => cell.dataset.label);
    expect(empty).toEqual(['User', 'Candidate', 'Level', 'Environment', 'Outcome', 'From']);
    expect(cells.filter((cell) => !cell.hasAttribute('data-empty')).map((cell) => cell.dataset.label)).toEqual([
      'Time',
      'Action',
      'Instance',
    ]);
    expect(cells[1]).toHaveTextContent(/^—$/);
  });

  it('offers the names that contain a typed part of one, and a click searches the whole name, the form saying it', async () => {
    const user = userEvent.setup();
    const { fetchMock } = showAuditPage(LEAD, [
      { rows: [], source: { kind: 'files' } },
      { rows: [], source: { kind: 'files' }, similarUsers: ['carla@example.org', 'Carla.Ruiz'] },
      { rows: [row({ user: 'carla@example.org' })], source: { kind: 'files' } },
    ]);
    await screen.findByText(/No line of the trail matches/);
    expect(screen.queryByTestId('similar-users')).not.toBeInTheDocument();
    const filters = within(screen.getByRole('form', { name: 'Filters' }));
    await user.type(filters.getByLabelText('User'), 'carla');
    await user.click(filters.getByRole('button', { name: 'Search the trail' }));
    const offered = await screen.findByTestId('similar-users');
    expect(offered).toHaveTextContent(/^No user is named exactly “carla”\. Names in the trail that contain it:/);
    expect(
      within(offered)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['carla@example.org', 'Carla.Ruiz']);
    await user.click(within(offered).getByRole('button', { name: 'Search the trail for user carla@example.org' }));
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(3));
    expect(bodiesOf(fetchMock, '/api/audit/search').at(-1)).toEqual({ who: 'people', user: 'carla@example.org' });
    expect(filters.getByLabelText('User')).toHaveValue('carla@example.org');
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(screen.queryByTestId('similar-users')).not.toBeInTheDocument();
    // The button it was on is gone: the keyboard is on the results, not on the page's body.
    expect(screen.getByRole('heading', { name: 'Results' })).toHaveFocus();
  });

  it('offers "Saw in the queue" as an action of its own, after "Listed applicants", and asks the server for it by name', async () => {
    const user = userEvent.setup();
    const { fetchMock } = showAuditPage(LEAD);
    await screen.findByText(/No line of the trail matches/);
    const action = within(screen.getByRole('form', { name: 'Filters' })).getByLabelText('Action');
    const options = within(action)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options.slice(options.indexOf('Listed applicants'), options.indexOf('Listed applicants') + 2)).toEqual([
      'Listed applicants',
      'Saw in the queue',
    ]);
    await user.selectOptions(action, 'Saw in the queue');
    await user.click(screen.getByRole('button', { name: 'Search the trail' }));
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(2));
    expect(bodiesOf(fetchMock, '/api/audit/search')[1]).toEqual({ who: 'people', action: 'saw_in_queue' });
  });

  it('sends the filters as a POST body (never in a URL), from the form, and pages older with the cursor', async () => {
    const user = userEvent.setup();
    const { fetchMock } = showAuditPage(LEAD, [
      { rows: [row({})], next: 'f.1.2', source: { kind: 'files' } },
      { rows: [row({ user: 'ana' })], next: 'f.1.1', source: { kind: 'files' } },
      { rows: [row({ user: 'ana', time: '2026-01-01T00:00:00.000Z' })], source: { kind: 'files' } },
    ]);
    await screen.findByRole('table');
    const filters = within(screen.getByRole('form', { name: 'Filters' }));
    await user.type(filters.getByLabelText('User'), 'ana');
    await user.type(filters.getByLabelText('Candidate refId'), 'cust-204');
    await user.selectOptions(filters.getByLabelText('Action'), 'Printed');
    await user.click(filters.getByRole('button', { name: 'Search the trail' }));
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(2));
    await user.click(await screen.findByRole('button', { name: 'Older' }));
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(3));
    expect(bodiesOf(fetchMock, '/api/audit/search')).toEqual([
      { who: 'people' },
      { who: 'people', user: 'ana', refId: 'cust-204', action: 'print' },
      { who: 'people', user: 'ana', refId: 'cust-204', action: 'print', cursor: 'f.1.1' },
    ]);
    expect(fetchMock.mock.calls.every(([input]) => !String(input).includes('cust-204'))).toBe(true);
    expect(screen.getByText('Page 2')).toBeInTheDocument();
  });

  it('downloads what the table then shows: filters typed but not searched are searched too, the same ones exported', async () => {
    const user = userEvent.setup();
    const { fetchMock } = showAuditPage(LEAD, [
      { rows: [row({})], source: { kind: 'files' } },
      { rows: [row({ user: 'bob' })], source: { kind: 'files' } },
    ]);
    await screen.findByRole('table');
    const filters = within(screen.getByRole('form', { name: 'Filters' }));
    await user.type(filters.getByLabelText('User'), 'bob');
    await user.click(filters.getByRole('button', { name: 'Download CSV' }));
    // Before: the file followed the typed filters while the table still showed everyone's lines.
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(2));
    expect(bodiesOf(fetchMock, '/api/audit/search').at(-1)).toEqual({ who: 'people', user: 'bob' });
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/export')).toEqual([{ who: 'people', user: 'bob' }]));
  });

  it("downloads the filters the table shows without searching them again: one of the lead's searches a minute, not two a file", async () => {
    const user = userEvent.setup();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { fetchMock } = showExportingAuditPage();
    await screen.findByRole('table');
    const filters = within(screen.getByRole('form', { name: 'Filters' }));
    await user.type(filters.getByLabelText('User'), 'bob');
    await user.click(filters.getByRole('button', { name: 'Search the trail' }));
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(2));
    await user.click(filters.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/export')).toEqual([{ who: 'people', user: 'bob' }]));
    await waitFor(() => expect(click).toHaveBeenCalled());
    await waitFor(() => expect(filters.getByRole('button', { name: 'Download CSV' })).toBeInTheDocument());
    // Before: a third search, of the filters the table already showed.
    expect(bodiesOf(fetchMock, '/api/audit/search')).toEqual([{ who: 'people' }, { who: 'people', user: 'bob' }]);
    click.mockRestore();
  });

  it("shows people's lines first, and this server's own work or everyone's when asked, or when a field names it", async () => {
    const user = userEvent.setup();
    const { fetchMock } = showAuditPage(LEAD);
    await screen.findByText(/No line of the trail matches/);
    const filters = within(screen.getByRole('form', { name: 'Filters' }));
    const who = filters.getByLabelText('Lines by');
    expect(who).toHaveValue('people');
    expect(who).toHaveAccessibleDescription(/not the queue crawler's reads/);
    expect(filters.getByLabelText('User')).toHaveAccessibleDescription('The whole name, as signed in; capitals ignored.');
    expect(screen.getByText(/No line of the trail matches/)).toHaveTextContent(/Only people’s lines were searched: “Lines by” finds/);
    const search = async () => {
      const before = bodiesOf(fetchMock, '/api/audit/search').length;
      await user.click(filters.getByRole('button', { name: 'Search the trail' }));
      await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(before + 1));
      return bodiesOf(fetchMock, '/api/audit/search').at(-1);
    };
    const clear = async () => {
      const before = bodiesOf(fetchMock, '/api/audit/search').length;
      await user.click(filters.getByRole('button', { name: 'Clear' }));
      await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(before + 1));
      return bodiesOf(fetchMock, '/api/audit/search').at(-1);
    };
    await user.selectOptions(who, "This server's own work");
    expect(await search()).toEqual({ who: 'server' });
    await user.selectOptions(who, 'Everyone');
    expect(await search()).toEqual({});
    // "People" with a field that names the server's own work would find nothing: the field wins.
    await user.selectOptions(who, 'People');
    await user.type(filters.getByLabelText('User'), '(queue-index)');
    expect(await search()).toEqual({ user: '(queue-index)' });
    await user.clear(filters.getByLabelText('User'));
    await user.selectOptions(filters.getByLabelText('Action'), 'Webhook from the service');
    expect(await search()).toEqual({ action: 'webhook' });
    // Clear goes back to the first search, asked again as every search is.
    expect(await clear()).toEqual({ who: 'people' });
    expect(who).toHaveValue('people');
    expect(filters.getByLabelText('Action')).toHaveValue('');
  });

  it('asks the server again at every press of Search, Clear or a quick range, a filter searched before too: lines written since are shown, and each search reaches the server (which audits it)', async () => {
    const user = userEvent.setup();
    // The trail as the server has it at each search: lookups are written to it while the page is open.
    const trail = [row({ user: 'ana', id: 'cust-1' })];
    const { fetchMock } = stubApi({
      session: LEAD,
      candidates: {
        '/api/audit/status': () => json(STATUS),
        '/api/audit/search': () => json({ rows: [...trail], source: { kind: 'files' } }),
      },
    });
    renderWithProviders('/audit');
    const searches = () => bodiesOf(fetchMock, '/api/audit/search');
    // Each line's candidate is a link in the table: the line written last is shown once its search is answered.
    const shows = async (id: string) => expect(await screen.findByRole('link', { name: id })).toBeInTheDocument();
    await shows('cust-1');
    const filters = within(screen.getByRole('form', { name: 'Filters' }));
    const press = async (name: string, wrote: string) => {
      trail.unshift(row({ user: 'ana', id: wrote }));
      const before = searches().length;
      await user.click(filters.getByRole('button', { name }));
      await waitFor(() => expect(searches()).toHaveLength(before + 1));
      await shows(wrote);
      return searches().at(-1);
    };
    await user.type(filters.getByLabelText('User'), 'ana');
    expect(await press('Search the trail', 'cust-2')).toEqual({ who: 'people', user: 'ana' });
    // Before: the same filter pressed again showed the answer kept in memory, asked nothing, and missed cust-3.
    expect(await press('Search the trail', 'cust-3')).toEqual({ who: 'people', user: 'ana' });
    // Clear: the first search of the page, asked again.
    expect(await press('Clear', 'cust-4')).toEqual({ who: 'people' });
    expect(await press('Clear', 'cust-5')).toEqual({ who: 'people' });
    const today = await press('Today', 'cust-6');
    expect(await press('Today', 'cust-7')).toEqual(today);
    expect(searches()).toHaveLength(7);
  });

  it("keeps the search while the lead opens a row's candidate: Back shows the same filters, page and rows, asked again from memory only", async () => {
    const user = userEvent.setup();
    const { fetchMock, router } = showAuditPage(LEAD, [
      { rows: [row({})], source: { kind: 'files' } },
      { rows: [row({ user: 'ben', id: 'cust-204' })], next: 'f.1.2', source: { kind: 'files' } },
      { rows: [row({ user: 'ben', id: 'cust-205' })], source: { kind: 'files' } },
    ]);
    await screen.findByRole('table');
    const filters = () => within(screen.getByRole('form', { name: 'Filters' }));
    await user.type(filters().getByLabelText('User'), 'ben');
    await user.click(filters().getByRole('button', { name: 'Search the trail' }));
    await user.click(await screen.findByRole('button', { name: 'Older' }));
    const link = await within(await screen.findByRole('table', { name: /page 2/ })).findByRole('link', { name: 'cust-205' });
    await user.click(link);
    expect(router.state.location.pathname).toBe('/candidates/refId/cust-205');
    await router.navigate(-1);
    expect(await screen.findByRole('table', { name: /Audit trail, page 2/ })).toHaveTextContent('cust-205');
    expect(filters().getByLabelText('User')).toHaveValue('ben');
    expect(screen.getByText('Page 2')).toBeInTheDocument();
    expect(bodiesOf(fetchMock, '/api/audit/search').at(-1)).toEqual({ who: 'people', user: 'ben', cursor: 'f.1.2' });
    expect(JSON.stringify({ ...sessionStorage, ...localStorage })).not.toContain('ben');
  });

  it("Back from a row's candidate focuses that row's link, not the page's heading, also among lines naming the same candidate", async () => {
    const user = userEvent.setup();
    const { router } = showAuditPage(LEAD, [
      { rows: [row({ user: 'ben' }), row({ user: 'ana' }), row({ user: 'cy', id: 'cust-205' })], source: { kind: 'files' } },
    ]);
    const table = await screen.findByRole('table');
    const links = () => within(screen.getByRole('table')).getAllByRole('link');
    expect(within(table).getAllByRole('link', { name: 'cust-204' })).toHaveLength(2);
    // ana's line, the second naming cust-204: the one to come back to, not ben's above it.
    await user.click(links()[1]!);
    expect(router.state.location.pathname).toBe('/candidates/refId/cust-204');
    await screen.findByRole('heading', { level: 1, name: /No candidate/ });
    await router.navigate(-1);
    await screen.findByRole('table');
    await waitFor(() => expect(links()[1]).toHaveFocus());
    expect(screen.getByRole('heading', { level: 1, name: 'Audit trail' })).not.toHaveFocus();
  });

  it("attack: a right-to-left override typed into a search is shown as a marker in that search's row, never obeyed (the row cannot be made to read as another search)", async () => {
    showAuditPage(LEAD, [
      {
        rows: [row({ action: 'audit_search', kind: null, id: null, detail: 'who people, user \u202egro.elpmaxe@ana; 0 rows' })],
        source: { kind: 'files' },
      },
    ]);
    const table = await screen.findByRole('table', { name: /page 1/ });
    const action = within(table).getAllByRole('row')[1]!.querySelectorAll('td')[2]!;
    expect(action).toHaveTextContent('user ⟦U+202E⟧gro.elpmaxe@ana; 0 rows');
    expect(action.textContent).not.toContain('\u202e');
  });

  it("shows no role for this server's own lines, and reads the files' state again with each search (each search adds a line)", async () => {
    const user = userEvent.setup();
    const { requests } = showAuditPage(LEAD, [
      {
        rows: [row({ user: '(queue-index)', role: 'support', action: 'queue_index' }), row({ user: 'ben', role: 'compliance' })],
        source: { kind: 'files' },
      },
    ]);
    const table = await screen.findByRole('table', { name: /page 1/ });
    const [server, person] = within(table).getAllByRole('row').slice(1);
    expect(within(server!).getAllByRole('cell')[1]).toHaveTextContent(/^\(queue-index\)$/);
    expect(within(person!).getAllByRole('cell')[1]).toHaveTextContent(/^bencompliance$/);
    const statusReads = () => requests.filter((url) => url === '/api/audit/status').length;
    await waitFor(() => expect(statusReads()).toBeGreaterThanOrEqual(1));
    const before = statusReads();
    await user.type(screen.getByLabelText('User'), 'ben');
    await user.click(screen.getByRole('button', { name: 'Search the trail' }));
    await waitFor(() => expect(statusReads()).toBe(before + 1));
  });

  it('keeps the keyboard on the pager when a page disables the button pressed, and says the page', async () => {
    const user = userEvent.setup();
    showAuditPage(LEAD, [
      { rows: [row({ id: 'cust-1' })], next: 'f.1.2', source: { kind: 'files' } },
      { rows: [row({ id: 'cust-2' })], source: { kind: 'files' } },
    ]);
    await screen.findByRole('table', { name: /page 1/ });
    const older = screen.getByRole('button', { name: 'Older' });
    const newer = screen.getByRole('button', { name: 'Newer' });
    older.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('table', { name: /page 2/ });
    await waitFor(() => expect(older).toBeDisabled());
    expect(newer).toHaveFocus();
    expect(screen.getByText('Page 2')).toHaveAttribute('aria-live', 'polite');
    await user.keyboard('{Enter}');
    await screen.findByRole('table', { name: /page 1/ });
    await waitFor(() => expect(newer).toBeDisabled());
    expect(older).toHaveFocus();
  });

  it('says of a refused or failed lookup the level it was asked at, and that nothing was shown (a rejected key is no one seeing the full record)', async () => {
    showAuditPage(LEAD, [{ rows: [row({ status: 502, code: 'upstream_unauthorized', level: 'full' })], source: { kind: 'files' } }]);
    const table = await screen.findByRole('table', { name: /page 1/ });
    const cells = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell');
    expect(cells[4]).toHaveTextContent(/^Full key asked, nothing shown$/);
    expect(cells[6]).toHaveTextContent(/^502 upstream_unauthorized$/);
  });

  it('says of a lookup whose answer was cut short after it began that it was, why, and what it would have been answered; not that nothing was shown', async () => {
    const detail =
      'the answer began (OK), then the KYC service reported an error after part of the record: the answer was cut short, so it never arrived whole';
    showAuditPage(LEAD, [
      {
        rows: [row({ action: 'cut', status: 404, code: 'not_found', level: 'full', detail }), row({})],
        source: { kind: 'files' },
      },
    ]);
    const table = await screen.findByRole('table', { name: /page 1/ });
    const cells = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell');
    expect(cells[2]).toHaveTextContent(`Answer cut short${detail}`);
    // The record had begun: its candidate is linked, and no row says "nothing shown" or "no candidate found".
    expect(within(cells[3]!).getByRole('link', { name: 'cust-204' })).toBeInTheDocument();
    expect(cells[3]).not.toHaveTextContent(/No candidate found/);
    expect(cells[4]).toHaveTextContent(/^Full key, cut short$/);
    expect(within(cells[4]!).getByText('Full key, cut short')).toHaveAttribute(
      'title',
      expect.stringMatching(/^Cut short: the answer began, then was cut short/),
    );
    expect(cells[6]).toHaveTextContent(/^Cut short: 404 not_found$/);
    const legend = screen.getByTestId('level-legend');
    expect(legend).toHaveTextContent(
      '…, cut short:the answer began, then was cut short: part of it may have reached the client, never all of it.',
    );
    expect(legend).not.toHaveTextContent(/nothing shown/);
  });

  it("says plainly that a lookup which answered 404 found no one, and offers looking the id up again as a new lookup, not as the candidate's page", async () => {
    showAuditPage(LEAD, [
      {
        rows: [
          row({ id: 'cust-missing', status: 404, code: 'not_found', level: 'full' }),
          row({ id: 'cust-gone', env: 'staging', kind: 'recordId', status: 404, code: 'not_found', level: 'status' }),
          row({ id: 'cust-204' }),
        ],
        source: { kind: 'files' },
      },
    ]);
    const table = await screen.findByRole('table', { name: /page 1/ });
    const [, missing, gone, found] = within(table).getAllByRole('row');
    const candidateCell = (tr: HTMLElement) => within(tr).getAllByRole('cell')[3]!;
    // Nobody was found: the id is not a link to anyone, and the cell says so in words.
    expect(within(candidateCell(missing!)).queryByRole('link', { name: 'cust-missing' })).not.toBeInTheDocument();
    expect(candidateCell(missing!)).toHaveTextContent(/^refIdcust-missingNo candidate found\.Look it up again \(a new lookup\)$/);
    // The one link left says what it does, and is the same lookup in the line's environment.
    expect(within(candidateCell(missing!)).getByRole('link')).toHaveAccessibleName('Look it up again (a new lookup)');
    expect(within(candidateCell(missing!)).getByRole('link')).toHaveAttribute('href', '/candidates/refId/cust-missing');
    expect(within(candidateCell(gone!)).getByRole('link', { name: 'Look it up again (a new lookup)' })).toHaveAttribute(
      'href',
      '/e/staging/candidates/recordId/cust-gone',
    );
    // A found candidate is linked by their id, as before, and says nothing of the sort.
    expect(within(candidateCell(found!)).getByRole('link', { name: 'cust-204' })).toHaveAttribute('href', '/candidates/refId/cust-204');
    expect(found).not.toHaveTextContent(/No candidate found|Look it up again/);
  });

  it('says whom a queue view showed, "3 candidates", where it said "—": opened, each id links to its candidate as a row\'s own does', async () => {
    const user = userEvent.setup();
    const view = {
      action: 'list',
      kind: null,
      id: null,
      level: null,
      queueTab: 'blocked',
      detail: 'filter blocked, skip 0, 3 records',
    } as const;
    const cut = `${'x'.repeat(255)}…`;
    showAuditPage(LEAD, [
      {
        rows: [
          row({
            ...view,
            shown: [{ refId: 'cust-1', recordId: '65f1c2a9e4b0d3a1f0c9b801' }, { refId: 'cust-2' }, { recordId: cut }],
          }),
          row({ ...view, env: 'staging', shown: [{ refId: 'cust-9' }] }),
        ],
        source: { kind: 'files' },
      },
    ]);
    const table = await screen.findByRole('table', { name: /page 1/ });
    const [, three, one] = within(table).getAllByRole('row');
    const candidateCell = (tr: HTMLElement) => within(tr).getAllByRole('cell')[3]!;
    const cell = candidateCell(three!);
    // Not an empty field: a phone's stacked row keeps it.
    expect(cell).not.toHaveAttribute('data-empty');
    expect(cell).not.toHaveTextContent('—');
    expect(within(cell).getByText('3 candidates')).toBeVisible();
    expect(within(candidateCell(one!)).getByText('1 candidate')).toBeInTheDocument();
    await user.click(within(cell).getByText('3 candidates'));
    const list = within(cell).getByRole('list', { name: 'The 3 candidates this view showed' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['refId cust-1recordId 65f1c2a9e4b0d3a1f0c9b801', 'refId cust-2', expect.stringMatching(/^recordId x+…/)]);
    expect(within(list).getByRole('link', { name: 'cust-1' })).toHaveAttribute('href', '/candidates/refId/cust-1');
    expect(within(list).getByRole('link', { name: '65f1c2a9e4b0d3a1f0c9b801' })).toHaveAttribute(
      'href',
      '/candidates/recordId/65f1c2a9e4b0d3a1f0c9b801',
    );
    // An id the line cut short names no one to open.
    expect(within(list).getAllByRole('link')).toHaveLength(3);
    // In the view's own environment.
    await user.click(within(candidateCell(one!)).getByText('1 candidate'));
    expect(within(candidateCell(one!)).getByRole('link', { name: 'cust-9' })).toHaveAttribute('href', '/e/staging/candidates/refId/cust-9');
  });

  it('attack: an id a queue view showed that reads as a path or a query links to that id alone, never elsewhere', async () => {
    const user = userEvent.setup();
    showAuditPage(LEAD, [
      {
        rows: [
          row({
            action: 'list',
            kind: null,
            id: null,
            level: null,
            queueTab: 'all',
            shown: [{ refId: '../../audit?x=1#y' }, { refId: '%41' }],
          }),
        ],
        source: { kind: 'files' },
      },
    ]);
    await user.click(await screen.findByText('2 candidates'));
    expect(screen.getByRole('link', { name: '../../audit?x=1#y' })).toHaveAttribute(
      'href',
      '/candidates/refId/..%2F..%2Faudit%3Fx%3D1%23y',
    );
    expect(screen.getByRole('link', { name: '%41' })).toHaveAttribute('href', '/candidates/refId/%2541');
  });

  it('breaks an id where it may, and inside a run only where it has no such place: not anywhere, as break-all did', async () => {
    const user = userEvent.setup();
    showAuditPage(LEAD, [
      {
        rows: [
          row({ id: 'c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10' }),
          row({ id: '{"slug": "onfido-kyc"}', status: 404, code: 'not_found' }),
          row({ action: 'list', kind: null, id: null, level: null, queueTab: 'all', shown: [{ refId: 'cust-1' }] }),
        ],
        source: { kind: 'files' },
      },
    ]);
    await user.click(await screen.findByText('1 candidate'));
    const ids = [
      screen.getByRole('link', { name: 'c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10' }),
      screen.getByText('{"slug": "onfido-kyc"}'),
      screen.getByRole('link', { name: 'cust-1' }),
    ];
    for (const id of ids) {
      expect(id).not.toHaveClass('break-all');
      expect(id).toHaveClass('wrap-anywhere');
    }
  });

  it('keeps the keyboard on Older while an older page is read, when there is one older still', async () => {
    const user = userEvent.setup();
    showAuditPage(LEAD, [
      { rows: [row({ id: 'cust-1' })], next: 'f.1.2', source: { kind: 'files' } },
      { rows: [row({ id: 'cust-2' })], next: 'f.1.3', source: { kind: 'files' } },
      { rows: [row({ id: 'cust-3' })], source: { kind: 'files' } },
    ]);
    await screen.findByRole('table', { name: /page 1/ });
    const older = screen.getByRole('button', { name: 'Older' });
    older.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('table', { name: /page 2/ });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Newer' })).toBeEnabled());
    expect(older).toHaveFocus();
    // Enter again goes on to page 3, not back to page 1.
    await user.keyboard('{Enter}');
    await screen.findByRole('table', { name: /page 3/ });
  });

  it("says when the candidate's other id was searched too", async () => {
    showAuditPage(LEAD, [
      {
        rows: [row({ kind: 'recordId', id: '65f1c2a9e4b0d3a1f0c9b803' })],
        source: { kind: 'files' },
        alsoSearched: { recordId: '65f1c2a9e4b0d3a1f0c9b803' },
      },
    ]);
    expect(await screen.findByTestId('also-searched')).toHaveTextContent(
      "Also searched by the same candidate's recordId 65f1c2a9e4b0d3a1f0c9b803, as this server's queue index knows it: each lookup's line names the candidate by the id it was asked with.",
    );
  });

  it('refuses a time range that ends before it starts, without asking', async () => {
    const user = userEvent.setup();
    const { fetchMock } = showAuditPage(LEAD);
    await screen.findByText(/No line of the trail matches/);
    await user.type(screen.getByLabelText(/^From/), '2026-11-22T10:00:00');
    await user.type(screen.getByLabelText(/^Before/), '2026-11-22T09:00:00');
    await user.click(screen.getByRole('button', { name: 'Search the trail' }));
    expect(await screen.findByText(/^"From" must be earlier than "Before"/)).toHaveTextContent(
      '"From" must be earlier than "Before". Not searched: the table below is still the last search.',
    );
    expect(screen.getByText(/^"From" must be earlier/)).toHaveAttribute('role', 'alert');
    expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(1);
  });

  it('is not offered to compliance or support users, and says it is for leads to one who opens it', async () => {
    for (const session of [ANA, SAM]) {
      const { fetchMock, requests } = showAuditPage(session);
      expect(await screen.findByText('The audit page is for compliance leads')).toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'Audit' })).toBeNull();
      expect(requests.filter((url) => url.startsWith('/api/audit'))).toEqual([]);
      fetchMock.mockClear();
      document.body.innerHTML = '';
    }
  });
});

const RECORD = { status: 'inreview', refId: 'cust-204', recordId: '65f1c2a9e4b0d3a1f0c9b899', isArchived: false, blockPassID: 'bp-1' };

function showCandidate(session: SessionInfo, activity?: ActivityAnswer) {
  const api = stubApi({
    session,
    meta: testMeta(),
    candidates: { '/api/candidates/refId/cust-204': envelope(RECORD) },
    ...(activity ? { activity } : {}),
  });
  renderWithProviders('/candidates/refId/cust-204');
  return api;
}

describe('the audit filters in a time zone', () => {
  inTimeZone('Asia/Tokyo');

  it('write From and Before anew when the UTC switch turns every time on the page: the same moments are searched', async () => {
    const user = userEvent.setup();
    const { fetchMock } = showAuditPage(LEAD);
    await screen.findByText(/No line of the trail matches/);
    const from = screen.getByLabelText(/^From/);
    await user.type(from, '2026-11-30T01:17:00');
    await user.click(screen.getByRole('button', { name: 'Search the trail' }));
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'UTC times' }));
    // The same moment, nine hours earlier on the clock (a browser writes zero seconds or leaves them out).
    expect((screen.getByLabelText('From (UTC)') as HTMLInputElement).value).toMatch(/^2026-11-29T16:17(:00)?$/);
    // Searched again with one more filter: its From is the same moment as before.
    await user.type(screen.getByLabelText('User'), 'ben');
    await user.click(screen.getByRole('button', { name: 'Search the trail' }));
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(3));
    const [, inTokyo, inUtc] = bodiesOf(fetchMock, '/api/audit/search') as Array<{ from?: string }>;
    expect(inTokyo!.from).toBe('2026-11-29T16:17:00.000Z');
    expect(inUtc!.from).toBe(inTokyo!.from);
  });

  it("say how far back a stopped search of the files reached on the reviewer's clock (or UTC, as the switch says), not always in UTC", async () => {
    const user = userEvent.setup();
    showAuditPage(LEAD, [
      {
        rows: [row({})],
        source: { kind: 'files' },
        searched: { lines: 2_000_000, complete: false, reachedBack: '2026-11-29T16:17:05.000Z', stoppedBy: 'lines' },
      },
    ]);
    const note = await screen.findByText(/^Searched 2,000,000 lines/);
    // 16:17:05 UTC is 01:17:05 the next day in Tokyo.
    expect(note).toHaveTextContent(/back to Nov 30, 2026, 01:17:05 AM UTC\+9, then stopped/);
    await user.click(screen.getByRole('button', { name: 'UTC times' }));
    await waitFor(() =>
      expect(screen.getByText(/^Searched 2,000,000 lines/)).toHaveTextContent(/back to Nov 29, 2026, 04:17:05 PM UTC, then stopped/),
    );
  });

  it("name the export by the reviewer's clock and its offset, as the batch page names its CSV, not by the server's UTC name", async () => {
    const user = userEvent.setup();
    const { fetchMock } = showExportingAuditPage();
    await screen.findByRole('table');
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(bodiesOf(fetchMock, '/api/audit/export')).toHaveLength(1);
    // Tokyo is nine hours ahead of UTC all year.
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toMatch(/^audit-\d{4}-\d{2}-\d{2}-\d{4}\+0900\.csv$/);
    click.mockRestore();
  });

  it('refuse a user or id longer than any is, in words, without asking', async () => {
    const user = userEvent.setup();
    const { fetchMock } = showAuditPage(LEAD);
    await screen.findByText(/No line of the trail matches/);
    await user.click(screen.getByLabelText('User'));
    await user.paste('x'.repeat(1025));
    await user.click(screen.getByRole('button', { name: 'Search the trail' }));
    expect(await screen.findByText(/^"User" is longer than 1,024 characters/)).toBeInTheDocument();
    expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(1);
  });
});

describe("a candidate's Activity", () => {
  // "Today" is the reader's calendar day: lines of a few minutes ago are yesterday's just after midnight.
  beforeEach(atMidday);
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells a compliance user who else looked today, and lists who did what at which level, asked by both ids', async () => {
    const user = userEvent.setup();
    const old = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const { fetchMock } = showCandidate(ANA, {
      rows: [
        row({ user: 'ana' }),
        row({ user: 'ben', action: 'copy_summary', level: null }),
        row({ user: 'ben' }),
        row({ user: 'cleo', time: old }),
        row({ user: 'dan', time: old, status: 499, code: 'cancelled' }),
        row({ user: 'eve', time: old, status: 429, code: 'rate_limited' }),
        row({ user: 'fay', time: old, action: 'cut', status: 404, code: 'not_found' }),
        row({ user: 'gus', time: old, action: 'cut', status: 499, code: 'cancelled' }),
      ],
      since: old,
      more: false,
      source: { kind: 'database' },
    });
    const activity = await screen.findByTestId('activity');
    expect(await within(activity).findByText(/Looked at today by ben \(.+\), and by you\./)).toBeInTheDocument();
    await user.click(within(activity).getByText('Activity'));
    const table = within(activity).getByRole('table', { name: /Who looked at this candidate/ });
    expect(
      within(table)
        .getAllByRole('row')
        .map((tr) => tr.textContent),
    ).toEqual([
      'WhenWhoWhatLevel',
      expect.stringMatching(/you.*Looked up.*Full key/),
      expect.stringMatching(/ben.*Copied the summary/),
      expect.stringMatching(/ben.*Looked up.*Full key/),
      expect.stringMatching(/cleo.*Looked up/),
      // A lookup the browser left is no refusal; one refused says by what.
      expect.stringMatching(/dan.*Looked up \(cancelled before the answer\)Full key asked, nothing shown$/),
      expect.stringMatching(/eve.*Looked up \(refused: rate_limited\)/),
      // An answer cut short after it began: what it would have been, or that the client left; never "nothing shown".
      expect.stringMatching(/fay.*Answer cut short \(would have been: not_found\)Full key, cut short$/),
      expect.stringMatching(/gus.*Answer cut short \(the client left before its end\)Full key, cut short$/),
    ]);
    // Asked as the page showed, and again as it was opened (the trail as it is now): by both ids each time.
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/activity')).toHaveLength(2));
    expect(new Set(bodiesOf(fetchMock, '/api/activity').map((body) => JSON.stringify(body)))).toEqual(
      new Set([JSON.stringify({ refId: 'cust-204', recordId: '65f1c2a9e4b0d3a1f0c9b899' })]),
    );
  });

  it('lists each full lookup once, saying what its answer held, and counts it once in its first line', async () => {
    const user = userEvent.setup();
    const held = { identities: 5, pictures: 2, pictureNames: ['passport', 'selfie'], certificates: 1 };
    showCandidate(ANA, {
      rows: [row({ user: 'ben', held }), row({ user: 'ben', held: { ...held, pictures: 0, pictureNames: [] } })],
      since: new Date(Date.now() - 90 * 86_400_000).toISOString(),
      more: false,
      source: { kind: 'files' },
    });
    const activity = await screen.findByTestId('activity');
    expect(await within(activity).findByText(/^Looked at today by ben \(.+\)\.$/)).toBeInTheDocument();
    await user.click(within(activity).getByText('Activity'));
    const table = within(activity).getByRole('table', { name: /Who looked at this candidate/ });
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((tr) => tr.textContent),
    ).toEqual([
      expect.stringMatching(/ben.*Looked upFull key; held: 5 identity attributes, 2 pictures \(passport, selfie\), 1 certificate$/),
      expect.stringMatching(/ben.*Looked upFull key; held: 5 identity attributes, no pictures, 1 certificate$/),
    ]);
  });

  it('lists a compliance user\'s view of the queue that showed the candidate as "Saw in the queue", with its tab, not as a look today', async () => {
    const user = userEvent.setup();
    const seen = row({ user: 'dave', action: 'list', kind: null, id: null, level: null, queueTab: 'blocked' });
    showCandidate(ANA, { rows: [seen], since: '', more: false, source: { kind: 'files' } });
    const activity = await screen.findByTestId('activity');
    // A glance at the queue is not someone having opened the candidate; but it is said, as the list below shows it
    // (before: "Nobody else has looked at this candidate today." above dave's line of today).
    expect(
      await within(activity).findByText('Nobody else has opened this candidate today; dave saw them in the queue.'),
    ).toBeInTheDocument();
    await user.click(within(activity).getByText('Activity'));
    const table = within(activity).getByRole('table', { name: /Who looked at this candidate/ });
    expect(within(table).getAllByRole('row')[1]!.textContent).toMatch(/dave.*Saw in the queue \(Blocked tab\)$/);
  });

  it('names the filters of a filtered view of the queue beside its tab, where it read as a view of the whole tab', async () => {
    const user = userEvent.setup();
    const view = { user: 'dave', action: 'list' as const, kind: null, id: null, level: null };
    const rows = [
      row({ ...view, queueTab: 'waiting', queueOnly: ['overSla', 'attention'] }),
      row({ ...view, queueTab: 'blocked', queueOnly: ['attention'] }),
      row({ ...view, queueTab: 'all' }),
    ];
    showCandidate(ANA, { rows, since: '', more: false, source: { kind: 'files' } });
    const activity = await screen.findByTestId('activity');
    await user.click(within(activity).getByText('Activity'));
    const table = within(activity).getByRole('table', { name: /Who looked at this candidate/ });
    const what = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((tr) => within(tr).getAllByRole('cell')[2]!.textContent);
    expect(what).toEqual([
      'Saw in the queue (Waiting tab, over SLA only, certificate needs attention)',
      'Saw in the queue (Blocked tab, certificate needs attention)',
      'Saw in the queue (All tab)',
    ]);
  });

  it("leaves a queue view's and a copy's Level out of a phone's stacked row, where it was listed empty; a lookup's stays", async () => {
    const user = userEvent.setup();
    const rows = [
      row({ user: 'dave', action: 'list', kind: null, id: null, level: null, queueTab: 'blocked' }),
      row({ user: 'ben', action: 'copy_summary', level: null, status: null }),
      row({ user: 'ben' }),
    ];
    showCandidate(ANA, { rows, since: '', more: false, source: { kind: 'files' } });
    const activity = await screen.findByTestId('activity');
    await user.click(within(activity).getByText('Activity'));
    const table = within(activity).getByRole('table', { name: /Who looked at this candidate/ });
    const levels = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((tr) => within(tr).getAllByRole('cell').at(-1)!);
    expect(levels.map((cell) => cell.dataset.label)).toEqual(['Level', 'Level', 'Level']);
    expect(levels.map((cell) => cell.hasAttribute('data-empty'))).toEqual([true, true, false]);
  });

  it('counts who only saw the candidate in the queue today in a clause of its own, the reader and those who looked them up apart', async () => {
    const seen = (user: string, minutesAgo: number) =>
      row({
        user,
        action: 'list',
        kind: null,
        id: null,
        level: null,
        queueTab: 'blocked',
        time: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
      });
    const old = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const rows = [
      seen('carol', 5),
      seen('dave', 1),
      seen('ana', 2),
      row({ user: 'ben' }),
      seen('ben', 3),
      { ...seen('gus', 1), time: old },
    ];
    showCandidate(ANA, { rows, since: old, more: false, source: { kind: 'files' } });
    const activity = await screen.findByTestId('activity');
    expect(
      await within(activity).findByText(/^Looked at today by ben \(.+\); 2 saw them in the queue \(dave, carol\)\.$/),
    ).toBeInTheDocument();
  });

  it('says apart whose answer was cut short today, never counting it as a look (the 200 line of its request comes before its cut line)', async () => {
    const cutLookup = (user: string, requestId: string) => [
      row({ user, action: 'cut', status: 499, code: 'cancelled', requestId }),
      row({ user, requestId }),
    ];
    showCandidate(ANA, {
      rows: [row({ user: 'ben', requestId: 'b1' }), ...cutLookup('carol', 'c1')],
      since: '',
      more: false,
      source: { kind: 'files' },
    });
    const activity = await screen.findByTestId('activity');
    // Before: "Looked at today by ben (…), carol (…)." as though carol's answer had arrived.
    expect(await within(activity).findByText(/^Looked at today by ben \(.+\); answer cut short for carol\.$/)).toBeInTheDocument();
  });

  it('says that no answer to anyone else arrived whole when the only other lookups today were cut short', async () => {
    const rows = [
      row({ user: 'dave', action: 'cut', status: 502, code: 'upstream_error', requestId: 'd1' }),
      row({ user: 'dave', requestId: 'd1' }),
    ];
    // Carol's a minute before dave's: the names newest first.
    const earlier = new Date(Date.now() - 60_000).toISOString();
    rows.push(
      row({ user: 'carol', action: 'cut', status: 499, code: 'cancelled', requestId: 'c1', time: earlier }),
      row({ user: 'carol', requestId: 'c1', time: earlier }),
    );
    showCandidate(ANA, { rows, since: '', more: false, source: { kind: 'database' } });
    expect(
      await screen.findByText('No answer to anyone else arrived whole today; answers cut short for 2 (dave, carol).'),
    ).toBeInTheDocument();
  });

  it("stands under the candidate's name: the page's headings start with its h1, none skipped", async () => {
    showCandidate(ANA, { rows: [row({ user: 'ben' })], since: '', more: false, source: { kind: 'files' } });
    await screen.findByTestId('activity');
    const levels = screen.getAllByRole('heading').map((heading) => Number(heading.tagName.slice(1)));
    expect(levels[0]).toBe(1);
    // Each heading at most one level below the one before it.
    expect(levels.every((level, i) => i === 0 || level <= levels[i - 1]! + 1)).toBe(true);
  });

  it('says nobody else looked today when only the reader did', async () => {
    showCandidate(ANA, { rows: [row({ user: 'ana' })], since: '', more: false, source: { kind: 'files' } });
    expect(await screen.findByText('Nobody else has looked at this candidate today.')).toBeInTheDocument();
  });

  it("takes a lead to the candidate's whole trail, searched at once by both ids, the form holding them", async () => {
    const user = userEvent.setup();
    const { fetchMock } = showCandidate(LEAD, { rows: [row({ user: 'ben' })], since: '', more: false, source: { kind: 'files' } });
    const activity = await screen.findByTestId('activity');
    await user.click(within(activity).getByText('Activity'));
    await user.click(within(activity).getByRole('link', { name: 'The whole trail, on the audit page' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit trail' }, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() =>
      expect(bodiesOf(fetchMock, '/api/audit/search')).toEqual([
        expect.objectContaining({ who: 'people', refId: 'cust-204', recordId: '65f1c2a9e4b0d3a1f0c9b899', env: 'default' }),
      ]),
    );
    expect(screen.getByLabelText('Candidate refId')).toHaveValue('cust-204');
    // Nothing of the candidate in the address.
    expect(window.location.href).not.toContain('cust-204');
  });

  it('is not shown to a support user, who never asks for it', async () => {
    const { requests } = showCandidate(SAM);
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByTestId('activity')).toBeNull();
    expect(requests.filter((url) => url.endsWith('/activity'))).toEqual([]);
  });
});

/**
 * Past the lead's limit of searches and exports (one bucket: limits.auditSearchesPerMinute), the server
 * refuses either with the wait. The clock (Date and the page's one-second ticks) is the test's.
 */
describe('the audit page past the limit', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const LIMITED = 'You have searched or exported the audit trail many times in a short time.';
  const seconds = (n: number) =>
    act(() => {
      vi.advanceTimersByTime(n * 1000);
    });

  /** One search answered (ana's line, and an older page when `next`), then every search and export refused with the wait left in the bucket. */
  function showLimited(retryAfterSeconds = 46, next?: string) {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const refusedAt = Date.now();
    const refusal = () => {
      const left = Math.ceil(retryAfterSeconds - (Date.now() - refusedAt) / 1000);
      return apiError(
        429,
        'rate_limited',
        `${LIMITED} Try again in ${left} s.`,
        { retryAfterSeconds: left },
        { 'retry-after': String(left) },
      );
    };
    let searches = 0;
    const api = stubApi({
      session: LEAD,
      candidates: {
        '/api/audit/status': () => json(STATUS),
        '/api/audit/search': () =>
          ++searches === 1 ? json({ rows: [row({ user: 'ana' })], source: { kind: 'files' }, ...(next ? { next } : {}) }) : refusal(),
        '/api/audit/export': refusal,
      },
    });
    renderWithProviders('/audit');
    return api;
  }

  const buttons = () => {
    const filters = within(screen.getByRole('form', { name: 'Filters' }));
    return {
      search: filters.getByRole('button', { name: 'Search the trail' }),
      csv: filters.getByRole('button', { name: /Download CSV|Exporting/ }),
    };
  };
  const notices = () => screen.queryAllByText(/Try again in \d+ s|The wait is over/);

  it('counts the wait down in one notice, keeps the rows shown, and holds Search and Download CSV (keeping focus) until it ends', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { fetchMock } = showLimited();
    expect(await screen.findByText('ana', {}, { timeout: 10_000 })).toBeInTheDocument();
    await user.type(screen.getByLabelText('User'), 'bob');
    await user.click(buttons().search);
    const notice = (await screen.findByText(/Try again in 46 s/)).closest<HTMLElement>('[role="alert"]')!;
    expect(notice).toHaveTextContent(
      new RegExp(`^${LIMITED} Try again in 46 s, at [^,]+\\. The results below are those of the last search answered\\.$`),
    );
    // Before: the rows were replaced by the refusal, whose "46 s" stayed 46 s.
    expect(within(screen.getByRole('table')).getByText('ana')).toBeInTheDocument();
    expect(buttons().search).toHaveAttribute('aria-disabled', 'true');
    expect(buttons().csv).toHaveAttribute('aria-disabled', 'true');
    expect(buttons().search).toHaveFocus();
    await seconds(20);
    expect(notice).toHaveTextContent(/Try again in 26 s/);
    // Held: pressed, neither asks (each would only be refused again).
    const asked = fetchMock.mock.calls.length;
    await user.click(buttons().search);
    await user.click(buttons().csv);
    expect(fetchMock.mock.calls.length).toBe(asked);
    await seconds(27);
    expect(notice).toHaveTextContent(/^The wait is over: Search, Download CSV, Newer and Older can be used again\./);
    expect(buttons().search).not.toHaveAttribute('aria-disabled');
    expect(buttons().csv).not.toHaveAttribute('aria-disabled');
    await user.click(buttons().search);
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(3));
  });

  it('holds Older (and Newer) during the wait as it holds Search, keeping focus: a page asked then would only be refused again', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { fetchMock } = showLimited(46, 'cursor-2');
    expect(await screen.findByText('ana', {}, { timeout: 10_000 })).toBeInTheDocument();
    const older = screen.getByRole('button', { name: 'Older' });
    await user.click(older);
    const notice = (await screen.findByText(/Try again in 46 s/)).closest<HTMLElement>('[role="alert"]')!;
    // Back on the page last answered, its rows kept under the notice.
    expect(within(screen.getByRole('table', { name: /page 1/ })).getByText('ana')).toBeInTheDocument();
    await waitFor(() => expect(older).toHaveAttribute('aria-disabled', 'true'));
    expect(older).toHaveAccessibleDescription(new RegExp(`^${LIMITED} Try again in 46 s`));
    expect(older).toHaveFocus();
    const asked = bodiesOf(fetchMock, '/api/audit/search').length;
    await seconds(20);
    // Before: each press asked for the page again, was refused again, and started the notice over.
    await user.click(older);
    await user.keyboard('{Enter}');
    expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(asked);
    expect(notice).toHaveTextContent(/Try again in 26 s/);
    await seconds(27);
    expect(notice).toHaveTextContent(/^The wait is over: Search, Download CSV, Newer and Older can be used again\./);
    expect(older).not.toHaveAttribute('aria-disabled');
    expect(older).toHaveFocus();
    await user.click(older);
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(asked + 1));
  });

  it('says an export refused beside its search once, with one wait, and keeps the rows', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { fetchMock } = showLimited(32);
    expect(await screen.findByText('ana', {}, { timeout: 10_000 })).toBeInTheDocument();
    await user.type(screen.getByLabelText('User'), 'bob');
    // Download CSV searches the typed filters too: both are refused.
    await user.click(buttons().csv);
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/export')).toHaveLength(1));
    await waitFor(() => expect(buttons().csv).toHaveTextContent('Download CSV'));
    // Before: "searched…Try again in 32 s" in the results, and "exported…Try again in 30 s" beside it.
    expect(notices()).toHaveLength(1);
    expect(screen.getAllByText(new RegExp(LIMITED.replace(/\./g, '\\.')))).toHaveLength(1);
    expect(within(screen.getByRole('table')).getByText('ana')).toBeInTheDocument();
    expect(buttons().csv).toHaveAttribute('aria-disabled', 'true');
  });
});
