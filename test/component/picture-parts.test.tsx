import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { partName } from '../../src/kyc/contract/picture-parts.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { renderWithProviders, stubApi } from './render.tsx';

/**
 * The browser's side of an answer in parts: the page from the first part, each picture's progress, its
 * Blob the moment its part completes (one object URL, the one the viewer uses too), and a picture whose
 * part never came shown as such, never as a picture.
 */

// cust_000482: selfie and selfie with national ID, under the refId the tests ask for (the server refuses another candidate's record: other_candidate).
const record = { ...(await sampleCandidates({ now: new Date() }))[1]!.record, refId: 'abc' };
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
  const left = [...pieces];
  const body = new ReadableStream<Uint8Array>(
    {
      // Each piece when the page asks for more (no queue ahead of it): a break comes once the page has read
      // what came before it, as on a network, however long the page takes.
      async pull(controller) {
        for (;;) {
          const piece = left.shift();
          if (piece === undefined) return controller.close();
          if (piece === 'cut') return controller.error(new TypeError('network error'));
          if (piece !== 'wait') return controller.enqueue(piece);
          await waiting;
        }
      },
    },
    { highWaterMark: 0 },
  );
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
    expect(await within(figure('selfie')).findByText(/^A file of type SVG \(not shown\)/)).toBeInTheDocument();
    expect(await within(figure('selfie_national_id')).findByRole('button', { name: /Open a larger view/ })).toBeInTheDocument();
    expect(made).toHaveBeenCalledTimes(1);
  });
});

describe('an answer in parts that is cut short or not framed as the server frames it', () => {
  const firstPartHead = (headers: string, first: string) => encoder.encode(`--${BOUNDARY}\r\n${headers}\r\n\r\n${first}`);
  const firstPartText = () => new TextDecoder().decode(answerInParts().head).split('\r\n\r\n')[1]!;

  it('a body that ends inside the first part: the download broke off, and no page is made of part of a record', async () => {
    const { head } = answerInParts();
    stubApi({ candidates: { [PATH]: () => streamed([head.subarray(0, head.length - 10)]).response } });
    renderWithProviders('/candidates/refId/abc');
    // A broken download is retried once by itself (after a second) before the error shows.
    expect(await screen.findByRole('heading', { name: 'The download broke off' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(document.querySelectorAll('figure[data-attribute]')).toHaveLength(0);
  });

  it.each([
    ['a first part without a Content-Length', () => firstPartHead('Content-Type: application/json', firstPartText())],
    [
      'a first delimiter that is not the boundary',
      () => encoder.encode(new TextDecoder().decode(answerInParts().head).replace(BOUNDARY, 'f'.repeat(32))),
    ],
    ['part headers that never end', () => firstPartHead(`Content-Type: application/json\r\nX-Filler: ${'x'.repeat(20_000)}`, '{}')],
  ])('%s: the lookup says the answer could not be read', async (_, first) => {
    const { parts, end } = answerInParts();
    stubApi({ candidates: { [PATH]: () => streamed([first(), ...parts.flat(), end]).response } });
    renderWithProviders('/candidates/refId/abc');
    expect(await screen.findByRole('heading', { name: 'The response is not readable' })).toBeInTheDocument();
    expect(screen.getByText(/The server's answer in parts could not be read \(/)).toBeInTheDocument();
    expect(document.querySelectorAll('figure[data-attribute]')).toHaveLength(0);
  });

  it('a body that ends inside a picture, without a network error: that picture never came, and is never shown', async () => {
    const { head, parts } = answerInParts();
    const { response } = streamed([head, ...parts[0]!, parts[1]![0]!, parts[1]![1]!.subarray(0, parts[1]![1]!.length - 1)]);
    stubApi({ candidates: { [PATH]: () => response } });
    const made = vi.mocked(URL.createObjectURL);
    made.mockClear();
    renderWithProviders('/candidates/refId/abc');
    await pictureCards();
    expect(await within(figure('selfie_national_id')).findByText(/The connection broke before this picture arrived/)).toBeInTheDocument();
    expect(within(figure('selfie_national_id')).queryByRole('img')).toBeNull();
    expect(within(figure('selfie')).getByRole('button', { name: /Open a larger view/ })).toBeInTheDocument();
    expect(made).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a part longer than its Content-Length', (delimiter: Uint8Array) => [encoder.encode('X'), delimiter]],
    [
      'a delimiter with another boundary',
      (delimiter: Uint8Array) => [encoder.encode(new TextDecoder().decode(delimiter).replace(BOUNDARY, '0'.repeat(32)))],
    ],
    [
      'a part without a Content-Length',
      (delimiter: Uint8Array) => [encoder.encode(new TextDecoder().decode(delimiter).replace(/Content-Length: \d+\r\n/, ''))],
    ],
  ])('%s after the first picture: the pictures after it could not be read, and are never shown', async (_, spoil) => {
    const { head, parts, end } = answerInParts();
    const { response } = streamed([head, ...parts[0]!, ...spoil(parts[1]![0]!), parts[1]![1]!, end]);
    stubApi({ candidates: { [PATH]: () => response } });
    const made = vi.mocked(URL.createObjectURL);
    made.mockClear();
    renderWithProviders('/candidates/refId/abc');
    await pictureCards();
    expect(await within(figure('selfie_national_id')).findByText(/The answer could not be read from here on/)).toBeInTheDocument();
    expect(within(figure('selfie_national_id')).queryByRole('img')).toBeNull();
    expect(within(figure('selfie')).getByRole('button', { name: /Open a larger view/ })).toBeInTheDocument();
    expect(made).toHaveBeenCalledTimes(1);
  });

  it('a picture in many small chunks becomes one Blob of exactly its bytes, its progress counted by its own bytes', async () => {
    const { head, parts, end, pictures } = answerInParts();
    const bytes = parts[1]![1]!;
    const chunks = Array.from({ length: Math.ceil(bytes.length / 400) }, (_, i) => bytes.subarray(i * 400, (i + 1) * 400));
    const { response, release } = streamed([head, ...parts[0]!, parts[1]![0]!, ...chunks.slice(0, 2), 'wait', ...chunks.slice(2), end]);
    stubApi({ candidates: { [PATH]: () => response } });
    const made = vi.mocked(URL.createObjectURL);
    made.mockClear();
    renderWithProviders('/candidates/refId/abc');
    await pictureCards();
    expect(await within(figure('selfie_national_id')).findByText(/^Selfie with national ID: 800 B of /)).toBeInTheDocument();
    release();
    expect(await within(figure('selfie_national_id')).findByRole('button', { name: /Open a larger view/ })).toBeInTheDocument();
    expect(new Uint8Array(await (made.mock.calls[1]![0] as Blob).arrayBuffer())).toEqual(pictures[1]);
  });
});
