import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PICTURES_AT_ONCE, PictureGallery } from '../../src/app/candidate/picture-gallery.tsx';
import { partName } from '../../src/kyc/contract/picture-parts.ts';
import type { IdentityAttribute } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { countPatterns } from '../support/count-patterns.ts';
import { envelope, json, renderWithProviders, stubApi } from './render.tsx';

/**
 * What a hostile record can make of the pictures: thousands of them (a card each kept the tab busy for
 * minutes, every picture's readiness rendering every card again), or one PNG of a few hundred kB whose
 * header says 20000 × 20000 pixels (1.6 GB once the browser decodes it).
 */

const figures = () => document.querySelectorAll('figure[data-attribute]');
const figure = (name: string) => document.querySelector<HTMLElement>(`figure[data-attribute="${name}"]`)!;

/** As the red team's record: `count` identities of type base64, each the first bytes of a JPEG. */
const manyPictures = (count: number): Array<[string, IdentityAttribute]> =>
  Array.from({ length: count }, (_, i) => [`pic${i}`, { type: 'base64', value: '/9j/4AAQ' }]);

describe('a record of many pictures', () => {
  it('attack: 2 000 pictures: the first 24 are on the page, with how many there are, and Show more adds the next 24 from the keyboard', async () => {
    const user = userEvent.setup();
    render(<PictureGallery pictures={manyPictures(2000)} owner="Ada Lovelace" />);

    expect(figures()).toHaveLength(PICTURES_AT_ONCE);
    expect(screen.getByRole('status')).toHaveTextContent('Showing 24 of 2,000 pictures');
    const more = screen.getByRole('button', { name: 'Show 24 more' });
    more.focus();
    await user.keyboard('{Enter}');
    expect(figures()).toHaveLength(2 * PICTURES_AT_ONCE);
    expect(screen.getByRole('status')).toHaveTextContent('Showing 48 of 2,000 pictures');
    expect(figure('pic47')).not.toBeNull();
    expect(figure('pic48')).toBeNull();
  });

  it('attack: the last Show more adds only the pictures left, and then there is none', async () => {
    const user = userEvent.setup();
    render(<PictureGallery pictures={manyPictures(30)} owner="Ada Lovelace" />);
    await user.click(screen.getByRole('button', { name: 'Show 6 more' }));
    expect(figures()).toHaveLength(30);
    expect(screen.getByRole('status')).toHaveTextContent('Showing 30 of 30 pictures');
    expect(screen.queryByRole('button', { name: /^Show .* more$/ })).toBeNull();
  });

  it("attack: one picture becoming ready (loaded, or not decodable) renders its own card again, not the others'", async () => {
    const renders = new Map<string, number>();
    const onCardRender = (id: string) => renders.set(id, (renders.get(id) ?? 0) + 1);
    render(<PictureGallery pictures={manyPictures(2000)} owner="Ada Lovelace" onCardRender={onCardRender} />);
    await waitFor(() => expect(document.querySelectorAll('figure img')).toHaveLength(PICTURES_AT_ONCE));

    renders.clear();
    // Each on its own, as the browser sends them: one picture loaded (its size now known), one not decodable.
    act(() => void fireEvent.load(figure('pic5').querySelector('img')!));
    act(() => void fireEvent.error(figure('pic9').querySelector('img')!));

    expect(within(figure('pic9')).getByText('The JPEG data could not be decoded as a picture.')).toBeInTheDocument();
    expect([...renders.keys()].sort()).toEqual(['pic5', 'pic9']);
  });
});

// cust_000482: selfie and selfie with national ID, under the refId the tests ask for.
const record = { ...(await sampleCandidates({ now: new Date() }))[1]!.record, refId: 'abc' };
const PATH = '/api/candidates/refId/abc';
const BOUNDARY = '0123456789abcdef0123456789abcdef';
const encoder = new TextEncoder();

/** A PNG whose header says 20000 × 20000 pixels: what decides how much a decoder allocates. */
function hugePng(): Uint8Array {
  const bytes = new Uint8Array(2000);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, ...encoder.encode('IHDR')]);
  new DataView(bytes.buffer).setUint32(16, 20000);
  new DataView(bytes.buffer).setUint32(20, 20000);
  bytes.set([8, 0, 0, 0, 0], 24);
  return bytes;
}

/** The lookup answered in parts, as the proxy does for the page: the selfie is the huge PNG, the other picture as it is. */
function answerInParts(png: Uint8Array): Response {
  const identities = structuredClone(record.identities!);
  const pictures: Array<[string, Uint8Array]> = [];
  for (const [name, attribute] of Object.entries(identities)) {
    if (attribute.type !== 'base64') continue;
    const bytes = name === 'selfie' ? png : new Uint8Array(Buffer.from(attribute.value, 'base64'));
    const type = name === 'selfie' ? 'image/png' : 'image/jpeg';
    (attribute as { value: unknown }).value = { part: partName(pictures.length, BOUNDARY), type, size: bytes.length };
    pictures.push([type, bytes]);
  }
  const first = JSON.stringify({ status: 'success', data: { ...record, identities } }).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const pieces: Uint8Array[] = [
    encoder.encode(`--${BOUNDARY}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${first.length}\r\n\r\n${first}`),
  ];
  pictures.forEach(([type, bytes], i) => {
    pieces.push(
      encoder.encode(
        `\r\n--${BOUNDARY}\r\nContent-Type: ${type}\r\ncontent-id: ${partName(i, BOUNDARY)}\r\nContent-Length: ${bytes.length}\r\n\r\n`,
      ),
    );
    pieces.push(bytes);
  });
  pieces.push(encoder.encode(`\r\n--${BOUNDARY}--\r\n`));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': `multipart/mixed; boundary="${BOUNDARY}"` } });
}

/** The candidate page, with its two picture cards. */
const pictureCards = () => waitFor(() => expect(figures()).toHaveLength(2));

/** The selfie's card: no <img>, never an object URL of a PNG, and its bytes saved by Download. */
async function expectNotShown(png: Uint8Array) {
  const user = userEvent.setup();
  const made = vi.mocked(URL.createObjectURL);
  const card = figure('selfie');
  expect(await within(card).findByText('20000×20000 px: too large to show safely; download it to open it.')).toBeInTheDocument();
  expect(within(card).getByText(/^A PNG picture \(not shown\)/)).toBeInTheDocument();
  expect(await within(figure('selfie_national_id')).findByRole('button', { name: /Open a larger view/ })).toBeInTheDocument();
  expect(card.querySelector('img')).toBeNull();
  expect(made.mock.calls.map(([blob]) => (blob as Blob).type)).not.toContain('image/png');

  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  try {
    await user.click(within(card).getByRole('button', { name: 'Download the selfie (PNG)' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('selfie.png');
    const saved = made.mock.calls.at(-1)![0] as Blob;
    expect(saved.type).toBe('application/octet-stream');
    expect(Buffer.from(await saved.arrayBuffer()).equals(Buffer.from(png))).toBe(true);
  } finally {
    click.mockRestore();
  }
}

describe('a picture too large to show', () => {
  it('attack: a 20000x20000 PNG is decoded by the browser: in parts, it gets no <img>, but the card that says why, with Download', async () => {
    const png = hugePng();
    stubApi({ candidates: { [PATH]: () => answerInParts(png), '/api/export': () => json({ status: 'success' }) } });
    vi.mocked(URL.createObjectURL).mockClear();
    renderWithProviders('/candidates/refId/abc');
    await pictureCards();
    await expectNotShown(png);
  });

  it('attack: a 20000x20000 PNG is decoded by the browser: in a plain JSON record, the same', async () => {
    const png = hugePng();
    const identities = { ...record.identities!, selfie: { type: 'base64', value: Buffer.from(png).toString('base64') } };
    stubApi({
      candidates: { [PATH]: () => envelope({ ...record, identities } as typeof record), '/api/export': () => json({ status: 'success' }) },
    });
    vi.mocked(URL.createObjectURL).mockClear();
    renderWithProviders('/candidates/refId/abc');

    await pictureCards();
    await expectNotShown(png);
  });
});

describe('a record of many pictures and a note', () => {
  it('attack: 5,000 picture attributes with a text note render without a regex per picture per phrase', async () => {
    // The note is read for each picture's names (Compare puts the one it names first): a pattern per name per note took 4.6 s.
    const many = {
      ...record,
      refId: 'many',
      identities: Object.fromEntries(manyPictures(5000)),
      customFields: { reviewNote: 'Compare pic4999.' },
    };
    stubApi({ candidates: { '/api/candidates/refId/many': envelope(many) } });
    const patterns = countPatterns();
    try {
      renderWithProviders('/candidates/refId/many');
      expect(await screen.findByText('Showing 24 of 5,000 pictures')).toBeInTheDocument();
    } finally {
      patterns.stop();
    }
    // Before: a pattern per phrase per picture on every render of the page (10,000 here).
    expect(patterns.count()).toBeLessThan(5000);
  });
});
