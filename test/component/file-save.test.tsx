import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { apiError, envelope, json, renderWithProviders, stubApi } from './render.tsx';
import { exportsOf } from './reply-fixture.ts';

const COMPLIANCE: SessionInfo = { mode: 'proxy', user: 'ana', role: 'compliance' };
const PDF = '%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n';
const AUDIT_DOWN = 'This export could not be recorded in the audit log, so it was refused. An administrator must check AUDIT_LOG.';

const candidate = (identities: CandidateRecord['identities']): CandidateRecord => ({
  status: 'waiting',
  refId: 'scan-1',
  isArchived: false,
  blockPassID: 'bp',
  identities,
});
const base64 = (text: string) => ({ type: 'base64', value: Buffer.from(text).toString('base64') });

/** The candidate page of `record`, its hand-offs answered by `exportReply`; anchors' clicks (the saves) counted, not followed. */
function show(record: CandidateRecord, exportReply: () => Response | Promise<Response> = () => json({ status: 'success' })) {
  const api = stubApi({
    session: COMPLIANCE,
    candidates: { [`/api/candidates/refId/${record.refId}`]: envelope(record), '/api/export': exportReply },
  });
  const saves = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  renderWithProviders(`/candidates/refId/${record.refId}`);
  return { ...api, saves };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a document file saved from the candidate page', { timeout: 20_000 }, () => {
  it('attack: saving a document file leaves no trace in the audit log', async () => {
    const user = userEvent.setup();
    const { fetchMock, saves } = show(candidate({ proof_of_address: base64(PDF) }));
    await user.click(await screen.findByRole('button', { name: 'Download the proof of address (PDF)' }));
    await waitFor(() => expect(saves).toHaveBeenCalledTimes(1));
    expect((saves.mock.contexts[0] as HTMLAnchorElement).download).toBe('proof_of_address.pdf');
    // The line, naming the attribute and the type, and before the file left the page.
    expect(exportsOf(fetchMock)).toEqual([{ what: 'file', kind: 'refId', id: 'scan-1', attribute: 'proof_of_address', fileType: 'PDF' }]);
    const exportCall = fetchMock.mock.calls.findIndex(([input]) => String(input).endsWith('/export'));
    expect(fetchMock.mock.invocationCallOrder[exportCall]!).toBeLessThan(saves.mock.invocationCallOrder[0]!);
  });

  it('saves no file when its line cannot be written, says why beside the button, and saves it once the line is written', async () => {
    const user = userEvent.setup();
    let down = true;
    const { fetchMock, saves } = show(candidate({ proof_of_address: base64(PDF) }), () =>
      down ? apiError(503, 'audit_unavailable', AUDIT_DOWN) : json({ status: 'success' }),
    );
    const button = await screen.findByRole('button', { name: 'Download the proof of address (PDF)' });
    await user.click(button);
    const card = button.closest('figure')!;
    expect(await within(card).findByRole('alert')).toHaveTextContent(`The file was not saved: ${AUDIT_DOWN}`);
    expect(saves).not.toHaveBeenCalled();
    down = false;
    await user.click(button);
    await waitFor(() => expect(saves).toHaveBeenCalledTimes(1));
    expect(within(card).queryByRole('alert')).toBeNull();
    expect(exportsOf(fetchMock)).toHaveLength(2);
  });

  it('records a double-click as one save: the second press waits for the first', async () => {
    const user = userEvent.setup();
    let answer: (response: Response) => void = () => {};
    const { fetchMock, saves } = show(
      candidate({ passport: base64('<svg xmlns="http://www.w3.org/2000/svg"/>') }),
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    const button = await screen.findByRole('button', { name: 'Download the passport (SVG)' });
    await user.dblClick(button);
    await waitFor(() => expect(exportsOf(fetchMock)).toHaveLength(1));
    answer(json({ status: 'success' }));
    await waitFor(() => expect(saves).toHaveBeenCalledTimes(1));
    expect(exportsOf(fetchMock)).toEqual([{ what: 'file', kind: 'refId', id: 'scan-1', attribute: 'passport', fileType: 'SVG' }]);
  });

  it('attack: an attribute name the export would refuse is left out of its line, and the save is still recorded and made', async () => {
    const user = userEvent.setup();
    const { fetchMock, saves } = show(candidate({ '../selfie<x>': base64('<!doctype html><script>alert(1)</script>') }));
    await user.click(await screen.findByRole('button', { name: /^Download the .* \(HTML\)$/ }));
    await waitFor(() => expect(saves).toHaveBeenCalledTimes(1));
    expect(exportsOf(fetchMock)).toEqual([{ what: 'file', kind: 'refId', id: 'scan-1', fileType: 'HTML' }]);
  });
});
