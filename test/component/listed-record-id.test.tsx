import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LISTED_RECORD_ID_HEADER } from '../../src/kyc/contract/listed-record-id.ts';
import { json, renderWithProviders, stubApi, testMeta } from './render.tsx';

/**
 * The service's published full-level example has no recordId. The page still shows, copies and links the
 * dashboard with the candidate's recordId when it knows it for sure: the id it looked up, or the one the
 * server's queue index paired with the refId asked (its header), each said as not the answer's own.
 */

const RECORD_ID = '65f5000000000000000000c1';
/** The published full-level example's form: everything but a recordId. */
const FULL_WITHOUT_RECORD_ID = {
  status: 'inreview',
  refId: 'split',
  isArchived: false,
  blockPassID: 'bp-split',
  waitingDate: '2024-03-01T10:00:00.000Z',
  inreviewDate: '2024-03-02T10:00:00.000Z',
  identities: { given_name: { type: 'string', value: 'Ada' }, family_name: { type: 'string', value: 'Lovelace' } },
};
const DASHBOARD = 'https://console.example.org/kyc/{recordId}';

function show(path: string, data: unknown, headers: Record<string, string> = {}) {
  const meta = testMeta();
  stubApi({
    meta: { ...meta, environment: { ...meta.environment, dashboardUrl: DASHBOARD } },
    candidates: {
      [`/api${path}`]: () => json({ status: 'success', data }, 200, headers),
      '/api/export': () => json({ status: 'success' }),
    },
  });
  return renderWithProviders(path);
}

const recordIdRow = async () => {
  const header = (await screen.findByRole('heading', { level: 1 })).closest('header')!;
  return within(header).getByText('recordId').nextElementSibling as HTMLElement;
};

async function copiedSummary(): Promise<string> {
  const user = userEvent.setup();
  const writeText = vi.spyOn(navigator.clipboard, 'writeText');
  await user.click(screen.getByRole('button', { name: 'Copy summary' }));
  await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
  return writeText.mock.calls[0]![0];
}

const dashboardLink = () => screen.queryByRole('link', { name: "Open in the KYC service's dashboard (opens in a new tab)" });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a full answer without recordId', { timeout: 20_000 }, () => {
  it('looked up by recordId: the id looked up is shown, copied and linked, said to be the id looked up', async () => {
    show(`/candidates/recordId/${RECORD_ID}`, FULL_WITHOUT_RECORD_ID);
    const row = await recordIdRow();
    expect(row).toHaveTextContent(RECORD_ID);
    expect(within(row).getByTestId('record-id-source')).toHaveTextContent('(the id looked up; not in this response)');
    expect(within(row).getByRole('button', { name: /Copy recordId/ })).toBeInTheDocument();
    expect(dashboardLink()).toHaveAttribute('href', `https://console.example.org/kyc/${RECORD_ID}`);
    expect(await copiedSummary()).toContain(`recordId: ${RECORD_ID} (the id looked up; not in this response)\n`);
  });

  it('looked up by refId, the applicants list knowing its recordId (the server’s header): shown, copied and linked, said to come from the list', async () => {
    const { unmount } = show('/candidates/refId/split', FULL_WITHOUT_RECORD_ID, { [LISTED_RECORD_ID_HEADER]: RECORD_ID });
    const row = await recordIdRow();
    expect(row).toHaveTextContent(RECORD_ID);
    expect(within(row).getByTestId('record-id-source')).toHaveTextContent("(from the service's applicants list; not in this response)");
    expect(dashboardLink()).toHaveAttribute('href', `https://console.example.org/kyc/${RECORD_ID}`);
    expect(await copiedSummary()).toContain(`recordId: ${RECORD_ID} (from the service's applicants list; not in this response)\n`);
    unmount();
    vi.restoreAllMocks();

    // A record with a recordId of its own shows its own, whatever the header says.
    show('/candidates/refId/split', { ...FULL_WITHOUT_RECORD_ID, recordId: 'rec-own' }, { [LISTED_RECORD_ID_HEADER]: RECORD_ID });
    const own = await recordIdRow();
    expect(own).toHaveTextContent('rec-own');
    expect(own).not.toHaveTextContent(RECORD_ID);
    expect(screen.queryByTestId('record-id-source')).not.toBeInTheDocument();
    expect(dashboardLink()).toHaveAttribute('href', 'https://console.example.org/kyc/rec-own');
    expect(await copiedSummary()).toContain('recordId: rec-own\n');
  });

  it('attack: a header that is not a readable id (bad percent-encoding, a control character) is ignored, as is no header: nothing is invented', async () => {
    // The same page with a readable header fills it in; each of these leaves "not in this response".
    const readable = show('/candidates/refId/split', FULL_WITHOUT_RECORD_ID, { [LISTED_RECORD_ID_HEADER]: encodeURIComponent('rec ü') });
    expect(await recordIdRow()).toHaveTextContent('rec ü');
    readable.unmount();
    for (const headers of [{ [LISTED_RECORD_ID_HEADER]: '%E0%A4%A' }, { [LISTED_RECORD_ID_HEADER]: '%0D%0Aevil' }, {}] as Array<
      Record<string, string>
    >) {
      const { unmount } = show('/candidates/refId/split', FULL_WITHOUT_RECORD_ID, headers);
      expect(await recordIdRow(), JSON.stringify(headers)).toHaveTextContent('not in this response');
      expect(screen.queryByTestId('record-id-source')).not.toBeInTheDocument();
      expect(dashboardLink()).not.toBeInTheDocument();
      unmount();
    }
    show('/candidates/refId/split', FULL_WITHOUT_RECORD_ID);
    await recordIdRow();
    expect(await copiedSummary()).toContain('recordId: not in this response\n');
  });
});
