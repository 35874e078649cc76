import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { partName, previewPartName, recordPartName, statusPartName } from '../../src/kyc/contract/picture-parts.ts';
import { statusLevelOf } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { json, renderWithProviders, stubApi } from './render.tsx';

/**
 * An answer in parts as the proxy writes it since issue 25: the status level, the record, a preview of
 * each large picture, then each picture whole. The page shows the status at once, each preview marked as
 * one until its picture is in, and the viewer waits for the full picture before it zooms.
 */

// cust_000482: selfie and selfie with national ID, under the refId the tests ask for (the server refuses another candidate's record: other_candidate).
const record = { ...(await sampleCandidates({ now: new Date() }))[1]!.record, refId: 'abc' };
const PATH = '/api/candidates/refId/abc';
const BOUNDARY = 'fedcba9876543210fedcba9876543210';
const encoder = new TextEncoder();
const ascii = (text: string) => text.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

function part(name: string, type: string, body: Uint8Array, first = false): Uint8Array[] {
  const head = `${first ? '' : '\r\n'}--${BOUNDARY}\r\nContent-Type: ${type}\r\ncontent-id: ${name}\r\nContent-Length: ${body.length}\r\n\r\n`;
  return [encoder.encode(head), body];
}

/** A JPEG's magic bytes and a marker of which picture it is: raster, as the page checks. */
const jpeg = (marker: number, length: number) => {
  const bytes = new Uint8Array(length).fill(marker);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  return bytes;
};

function answer() {
  const identities = structuredClone(record.identities!);
  const full: Uint8Array[] = [];
  for (const attribute of Object.values(identities)) {
    if (attribute.type !== 'base64') continue;
    const bytes = jpeg(full.length + 1, 5000);
    (attribute as { value: unknown }).value = { part: partName(full.length, BOUNDARY), type: 'image/jpeg', size: bytes.length };
    full.push(bytes);
  }
  const json = 'application/json; charset=utf-8';
  const status = part(
    statusPartName(BOUNDARY),
    json,
    encoder.encode(ascii(JSON.stringify({ status: 'success', data: statusLevelOf(record) }))),
    true,
  );
  const recordPart = part(
    recordPartName(BOUNDARY),
    json,
    encoder.encode(ascii(JSON.stringify({ status: 'success', data: { ...record, identities } }))),
  );
  const previews = full.flatMap((_, i) => part(previewPartName(i, BOUNDARY), 'image/jpeg', jpeg(0x70 + i, 300)));
  const pictures = full.flatMap((bytes, i) => part(partName(i, BOUNDARY), 'image/jpeg', bytes));
  return { status, recordPart, previews, pictures, end: encoder.encode(`\r\n--${BOUNDARY}--\r\n`), full };
}

/** The pieces streamed in order; each 'wait' holds the rest back until `next()` is called once more. */
function streamed(pieces: Array<Uint8Array | 'wait'>) {
  const gates: Array<() => void> = [];
  const opened = pieces.filter((piece) => piece === 'wait').map(() => new Promise<void>((resolve) => gates.push(resolve)));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let gate = 0;
      for (const piece of pieces) {
        if (piece === 'wait') await opened[gate++];
        else controller.enqueue(piece);
      }
      controller.close();
    },
  });
  return {
    response: new Response(body, { headers: { 'content-type': `multipart/mixed; boundary="${BOUNDARY}"` } }),
    next: () => gates.shift()?.(),
  };
}

const figure = (name: string) => document.querySelector<HTMLElement>(`figure[data-attribute="${name}"]`)!;
const blobBytes = async (call: number) => new Uint8Array(await (vi.mocked(URL.createObjectURL).mock.calls[call]![0] as Blob).arrayBuffer());

describe('an answer in parts with a status part and previews', () => {
  it('shows the status before the record, then the record, then the previews marked as such, then the full pictures', async () => {
    const { status, recordPart, previews, pictures, end, full } = answer();
    const { response, next } = streamed([...status, 'wait', ...recordPart, 'wait', ...previews, 'wait', ...pictures, end]);
    stubApi({ candidates: { [PATH]: () => response } });
    const made = vi.mocked(URL.createObjectURL);
    made.mockClear();
    renderWithProviders('/candidates/refId/abc');

    // The status part alone: header and timeline, and where the rest goes, that it is coming.
    expect(await screen.findByRole('heading', { name: 'Status history' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent('Loading identity data and pictures…');
    expect(screen.queryByText(/see status only/)).toBeNull();
    expect(document.querySelectorAll('figure[data-attribute]')).toHaveLength(0);

    next();
    await waitFor(() => expect(document.querySelectorAll('figure[data-attribute]')).toHaveLength(2));
    expect(screen.queryByText('Loading identity data and pictures…')).toBeNull();
    expect(made).not.toHaveBeenCalled();

    next();
    for (const name of ['selfie', 'selfie_national_id']) {
      expect(await within(figure(name)).findByRole('button', { name: /Open a larger view/ })).toBeInTheDocument();
      expect(within(figure(name)).getByText('Preview')).toBeInTheDocument();
      expect(within(figure(name)).getByRole('progressbar', { name: /full picture downloading/ })).toBeInTheDocument();
    }
    expect(made).toHaveBeenCalledTimes(2);
    expect((await blobBytes(0))[10]).toBe(0x70);

    next();
    await waitFor(() => expect(document.querySelectorAll('[data-preview-note]')).toHaveLength(0));
    expect(made).toHaveBeenCalledTimes(4);
    expect(await blobBytes(2)).toEqual(full[0]);
    expect(await blobBytes(3)).toEqual(full[1]);
  });

  it('the viewer opened on a preview waits for the full picture, with its progress, then shows it', async () => {
    const { status, recordPart, previews, pictures, end } = answer();
    const { response, next } = streamed([...status, ...recordPart, ...previews, 'wait', ...pictures, end]);
    stubApi({ candidates: { [PATH]: () => response } });
    const made = vi.mocked(URL.createObjectURL);
    made.mockClear();
    const user = userEvent.setup();
    renderWithProviders('/candidates/refId/abc');

    await waitFor(() => expect(figure('selfie')).not.toBeNull());
    await user.click(await within(figure('selfie')).findByRole('button', { name: /Open a larger view/ }));
    const dialog = await screen.findByRole('dialog');
    const waiting = within(dialog).getByRole('status');
    expect(waiting).toHaveTextContent(/Preview shown: waiting for the full selfie, 0 B of 4\.9 kB\. Zoom waits for it\./);
    const previewUrl = made.mock.results[0]!.value as string;
    expect(dialog.querySelector('img')!.getAttribute('src')).toBe(previewUrl);

    next();
    // The status and the address together, in the dialog as it is now: the full picture's object URL is
    // made in an effect, a render after its part comes, and the preview stays shown, and marked, until then
    // (picture-card.test.tsx holds every render to that).
    await waitFor(() => {
      const shown = screen.getByRole('dialog');
      expect(within(shown).queryByRole('status')).toBeNull();
      expect(shown.querySelector('img')!.getAttribute('src')).toBe(made.mock.results[2]?.value);
    });
    expect(made.mock.results[2]!.value).not.toBe(previewUrl);
  });

  it('attack: a picture whose bytes are an SVG is never shown, not even as the preview an older server made of it; Download saves its bytes', async () => {
    const { status, recordPart, previews, pictures, end } = answer();
    // The record says what the server sniffed: the selfie (the first picture) is an SVG, whose part follows.
    const svg = encoder.encode(`<svg xmlns="http://www.w3.org/2000/svg">${' '.repeat(4940)}</svg>`);
    const svgRecord = new TextDecoder()
      .decode(recordPart[1])
      .replace('"type":"image/jpeg","size":5000', `"type":"image/svg+xml","size":${svg.length}`);
    const recordHead = new TextDecoder().decode(recordPart[0]).replace(/Content-Length: \d+/, `Content-Length: ${svgRecord.length}`);
    const svgPart = part(partName(0, BOUNDARY), 'application/octet-stream', svg);
    const { response } = streamed([
      ...status,
      encoder.encode(recordHead),
      encoder.encode(svgRecord),
      ...previews,
      ...svgPart,
      ...pictures.slice(2),
      end,
    ]);
    stubApi({ candidates: { [PATH]: () => response, '/api/export': () => json({ status: 'success' }) } });
    const made = vi.mocked(URL.createObjectURL);
    made.mockClear();
    const user = userEvent.setup();
    renderWithProviders('/candidates/refId/abc');

    await waitFor(() => expect(figure('selfie')).not.toBeNull());
    const notShown = await within(figure('selfie')).findByText(/^A file of type SVG \(not shown\)/);
    expect(await within(figure('selfie_national_id')).findByRole('button', { name: /Open a larger view/ })).toBeInTheDocument();
    await waitFor(() => expect(document.querySelectorAll('[data-preview-note]')).toHaveLength(0));
    expect(figure('selfie').querySelector('img')).toBeNull();
    // Only the other picture's JPEGs were given object URLs: neither the SVG nor the preview made of it (marked 0x70).
    const shown = made.mock.calls.map(([blob]) => blob as Blob);
    expect(shown.length).toBeGreaterThan(0);
    for (const blob of shown) {
      expect(blob.type).toBe('image/jpeg');
      expect(new Uint8Array(await blob.arrayBuffer())[10]).not.toBe(0x70);
    }
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    try {
      await user.click(within(notShown.closest('figure')!).getByRole('button', { name: 'Download the selfie (SVG)' }));
      await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
      expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('selfie.svg');
      const saved = made.mock.calls.at(-1)![0] as Blob;
      expect(saved.type).toBe('application/octet-stream');
      expect(Buffer.from(await saved.arrayBuffer()).equals(Buffer.from(svg))).toBe(true);
    } finally {
      click.mockRestore();
    }
  });
});
