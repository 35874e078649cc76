import { waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { partName } from '../../src/kyc/contract/picture-parts.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { renderWithProviders, stubApi } from './render.tsx';

/**
 * The browser's side of an answer in parts: the page from the first part, each picture's progress, its
 * Blob the moment its part completes (one object URL, the one the viewer uses too), and a picture whose
 * part never came shown as such, never as a picture.
 */

const record = sampleCandidates({ now: new Date() })[1]!.record; // cust_000482: selfie and selfie with national ID
const PATH = '/api/candidates/refId/abc';
const BOUNDARY = '0123456789abcdef0123456789abcdef';
const encoder = new TextEncoder();

/** The answer as the proxy writes it: the record with references, then one part per picture. */
function answerInParts() {
  const identities = structuredClone(record.identities!);
  const pictures: Uint8Array[] = [];
  for (const attribute of Object.values(identities)) {
    if (attribute.type !== 'base64') continue;
    const bytes = new Uint8Array(Buffer.from(attribute.value, 'base64'));
    (attribute as { value: unknown }).value = { part: partName(pictures.length, BOUNDARY), type: 'image/jpeg', size: bytes.length };
    pictures.push(bytes);
  }
  const first = JSON.stringify({ status: 'success', data: { ...record, identities } }).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const head = encoder.encode(
    `--${BOUNDARY}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${first.length}\r\n\r\n${first}`,
  );
  const parts = pictures.map((bytes, i) => [
    encoder.encode(
      `\r\n--${BOUNDARY}\r\nContent-Type: image/jpeg\r\ncontent-id: ${partName(i, BOUNDARY)}\r\nContent-Length: ${bytes.length}\r\n\r\n`,
    ),
    bytes,
  ]);
  return { head, parts, end: encoder.encode(`\r\n--${BOUNDARY}--\r\n`), pictures };
}

function streamed(pieces: Array<Uint8Array | 'wait' | 'cut'>) {
  let release!: () => void;
  const waiting = new Promise<void>((resolve) => (release = resolve));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const piece of pieces) {
        if (piece === 'wait') await waiting;
        else if (piece === 'cut') {
          // As on a network: what came before the break has been read by then.
          await new Promise((resolve) => setTimeout(resolve, 200));
          return controller.error(new TypeError('network error'));
        } else controller.enqueue(piece);
      }
      controller.close();
    },
  });
  const response = new Response(body, { headers: { 'content-type': `multipart/mixed; boundary="${BOUNDARY}"` } });
  return { response, release };
}

const figure = (name: string) => document.querySelector<HTMLElement>(`figure[data-attribute="${name}"]`)!;
/** The candidate page, rendered from the first part. */
const pictureCards = () => waitFor(() => expect(document.querySelectorAll('figure[data-attribute]')).toHaveLength(2));

describe('a lookup answered in parts', () => {
  it('renders from the first part, then each picture as its part completes, with its progress before', async () => {
    const { head, parts, end, pictures } = answerInParts();
    const half = parts[1]![1]!.subarray(0, 1000);
    const { response, release } = streamed([head, ...parts[0]!, parts[1]![0]!, half, 'wait', parts[1]![1]!.subarray(1000), end]);
    const { fetchMock } = stubApi({ candidates: { [PATH]: () => response } });
    const made = vi.mocked(URL.createObjectURL);
    made.mockClear();
    renderWithProviders('/candidates/refId/abc');

    await pictureCards();
    const lookupCall = fetchMock.mock.calls.find(([url]) => url === PATH)!;
    expect(new Headers(lookupCall[1]?.headers).get('accept')).toBe('multipart/mixed, application/json;q=0.9');
    // The first picture is in; the second shows how much of it has come.
    expect(await within(figure('selfie')).findByRole('button', { name: /Open a larger view/ })).toBeInTheDocument();
    expect(await within(figure('selfie_national_id')).findByText(/^Selfie with national ID: 1000 B of \d+(\.\d)? kB$/)).toBeInTheDocument();
    expect(made).toHaveBeenCalledTimes(1);
    const selfie = made.mock.calls[0]![0] as Blob;
    expect(selfie.type).toBe('image/jpeg');
    expect(new Uint8Array(await selfie.arrayBuffer())).toEqual(pictures[0]);

    release();
    expect(await within(figure('selfie_national_id')).findByRole('button', { name: /Open a larger view/ })).toBeInTheDocument();
    expect(made).toHaveBeenCalledTimes(2);
    expect(new Uint8Array(await (made.mock.calls[1]![0] as Blob).arrayBuffer())).toEqual(pictures[1]);
  });

  it('a picture whose part never came (the connection broke) says so, and is never shown', async () => {
    const { head, parts } = answerInParts();
    const { response } = streamed([head, ...parts[0]!, parts[1]![0]!, parts[1]![1]!.subarray(0, 500), 'cut']);
    stubApi({ candidates: { [PATH]: () => response } });
    renderWithProviders('/candidates/refId/abc');
    await pictureCards();
    expect(await within(figure('selfie_national_id')).findByText(/The connection broke before this picture arrived/)).toBeInTheDocument();
    expect(within(figure('selfie_national_id')).queryByRole('img')).toBeNull();
    expect(within(figure('selfie')).getByRole('button', { name: /Open a larger view/ })).toBeInTheDocument();
  });

  it('a part whose bytes are not a raster image is described, never given an object URL', async () => {
    const { head, parts, end } = answerInParts();
    const svg = encoder.encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'.padEnd(parts[0]![1]!.length, ' '));
    const { response } = streamed([head, parts[0]![0]!, svg, ...parts[1]!, end]);
    stubApi({ candidates: { [PATH]: () => response } });
    const made = vi.mocked(URL.createObjectURL);
    made.mockClear();
    renderWithProviders('/candidates/refId/abc');
    await pictureCards();
    expect(await within(figure('selfie')).findByText(/Not shown: this attribute holds SVG data/)).toBeInTheDocument();
    expect(await within(figure('selfie_national_id')).findByRole('button', { name: /Open a larger view/ })).toBeInTheDocument();
    expect(made).toHaveBeenCalledTimes(1);
  });
});
