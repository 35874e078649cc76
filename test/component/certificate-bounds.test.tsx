import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Certificates } from '../../src/app/candidate/certificates.tsx';
import { BIDI_CONTROLS } from '../../src/kyc/contract/bidi.ts';
import { stubApi } from './render.tsx';

/**
 * What a hostile record can make of the certificates: a thousand panels (3.1 s to show; 20,000 tiny
 * ones 18 s), raw JSON laid out under its closed "Raw JSON" (20 certificates of 28,000 lines: 7.2 s), and
 * direction overrides in a certificate's heading, slug and raw JSON that make its text read as another.
 */

/** The certificates section alone; `again` shows other certificates in its place (a live update). */
function show(certs: Record<string, string>) {
  stubApi();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const section = (shown: Record<string, string>) => (
    <QueryClientProvider client={client}>
      <Certificates certs={shown} recordCopy={async () => {}} />
    </QueryClientProvider>
  );
  const { rerender } = render(section(certs));
  return { again: (shown: Record<string, string>) => rerender(section(shown)) };
}

const panels = () => document.querySelectorAll('article[data-cert]');
const panel = (slug: string) => document.querySelector<HTMLElement>(`article[data-cert="${slug}"]`)!;
const rawView = (slug: string) => panel(slug).querySelector<HTMLDetailsElement>('details[data-raw-json]')!;
/** The boxes of certificate text on the page, and how many of them are laid out a line at a time (a span per line). */
const boxes = () => [...document.querySelectorAll('article[data-cert] pre')];
const laidOut = (pre: Element) => pre.children.length > 0;

/** `count` certificates, each of a provider of its own and a result, `lines` lines long once laid out. */
function manyCertificates(count: number, lines = 0, prefix = 'provider'): Record<string, string> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `${prefix}${i}-service-cert`,
      JSON.stringify({ Claim: { reviewBody: { result: 'clear', checks: Array.from({ length: lines }, () => 0) } } }),
    ]),
  );
}

async function toggleRawJson(slug: string) {
  await userEvent.setup().click(within(panel(slug)).getByText('Raw JSON'));
}

describe('a record of many certificates', () => {
  it('attack: 1,000 certificates: the first 24 are on the page, with how many there are, and Show more adds the next 24', async () => {
    const user = userEvent.setup();
    show(manyCertificates(1000));
    expect(panels()).toHaveLength(24);
    expect(screen.getByRole('status')).toHaveTextContent('Showing 24 of 1,000 certificates');
    const more = screen.getByRole('button', { name: 'Show 24 more' });
    more.focus();
    await user.keyboard('{Enter}');
    expect(panels()).toHaveLength(48);
    expect(screen.getByRole('status')).toHaveTextContent('Showing 48 of 1,000 certificates');
    expect(panel('provider47-service-cert')).not.toBeNull();
    expect(panel('provider48-service-cert')).toBeNull();
  });

  it('attack: 20,000 tiny certificates: 24 panels; the last Show more adds only those left, and then there is none', async () => {
    show(manyCertificates(20_000));
    expect(panels()).toHaveLength(24);
    expect(screen.getByRole('status')).toHaveTextContent('Showing 24 of 20,000 certificates');
    cleanup();
    show(manyCertificates(30));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show 6 more' }));
    expect(panels()).toHaveLength(30);
    expect(screen.getByRole('status')).toHaveTextContent('Showing 30 of 30 certificates');
    expect(screen.queryByRole('button', { name: /^Show .* more$/ })).toBeNull();
  });

  it('attack: a failed certificate sent 1,000th of 1,000 is among the first shown, the worst first, never left under Show more', () => {
    const certs = manyCertificates(1000);
    certs['provider999-service-cert'] = JSON.stringify({ Claim: { reviewBody: { result: 'rejected' } } });
    certs['provider500-service-cert'] = JSON.stringify({ Claim: { reviewBody: { result: 'consider' } } });
    show(certs);
    const slugs = [...panels()].map((article) => article.getAttribute('data-cert'));
    expect(slugs.slice(0, 3)).toEqual(['provider999-service-cert', 'provider500-service-cert', 'provider0-service-cert']);
    expect(slugs).toHaveLength(24);
  });

  it('shows a handful of certificates whole, with no count and no Show more', () => {
    show(manyCertificates(3));
    expect(panels()).toHaveLength(3);
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe("a certificate's raw JSON", () => {
  it('attack: 20 certificates whose raw JSON is 28,000 lines together: none is laid out until its Raw JSON is opened, then only its own', async () => {
    show(manyCertificates(20, 1_390));
    expect(panels()).toHaveLength(20);
    // Closed, a Raw JSON holds no text at all: nothing to lay out.
    expect(boxes()).toHaveLength(0);

    await toggleRawJson('provider3-service-cert');
    await waitFor(() => expect(rawView('provider3-service-cert')).toHaveAttribute('open'));
    expect(boxes()).toHaveLength(1);
    expect(rawView('provider3-service-cert').querySelector('pre')!.children.length).toBeGreaterThan(1_390);

    // Closed again: its lines leave the page.
    await toggleRawJson('provider3-service-cert');
    await waitFor(() => expect(boxes()).toHaveLength(0));
  });

  it('attack: raw JSON views opened one after another lay out at most MAX_LAID_OUT characters on the page, then one block of text each', async () => {
    // Three certificates of 90,000 characters: two laid out make 180,000, a third would make 270,000.
    const long = (letter: string) => JSON.stringify({ Claim: { reviewBody: { result: 'clear', note: letter.repeat(90_000) } } });
    show({ 'a-service-cert': long('a'), 'b-service-cert': long('b'), 'c-service-cert': long('c') });
    for (const slug of ['a-service-cert', 'b-service-cert', 'c-service-cert']) {
      await toggleRawJson(slug);
      await waitFor(() => expect(rawView(slug).querySelector('pre')).not.toBeNull());
    }
    const pre = (slug: string) => rawView(slug).querySelector('pre')!;
    expect([pre('a-service-cert'), pre('b-service-cert'), pre('c-service-cert')].map(laidOut)).toEqual([true, true, false]);
    // The block holds the text whole all the same.
    expect(pre('c-service-cert').textContent).toContain('c'.repeat(90_000));

    // With the first closed, a view opened again has the room it left.
    await toggleRawJson('a-service-cert');
    await waitFor(() => expect(rawView('a-service-cert').querySelector('pre')).toBeNull());
    await toggleRawJson('a-service-cert');
    await waitFor(() => expect(rawView('a-service-cert').querySelector('pre')).not.toBeNull());
    expect(laidOut(pre('a-service-cert'))).toBe(true);
  });

  it('closes a view whose certificate changed while it was open, and gives its room back', async () => {
    const long = (letter: string) => JSON.stringify({ Claim: { reviewBody: { result: 'clear', note: letter.repeat(150_000) } } });
    const { again } = show({ 'a-service-cert': long('a'), 'b-service-cert': long('b') });
    await toggleRawJson('a-service-cert');
    await waitFor(() => expect(rawView('a-service-cert').querySelector('pre')).not.toBeNull());
    // A live update: the first certificate's text is another.
    again({ 'a-service-cert': long('x'), 'b-service-cert': long('b') });
    await waitFor(() => expect(rawView('a-service-cert')).not.toHaveAttribute('open'));
    expect(rawView('a-service-cert').querySelector('pre')).toBeNull();
    // Its 150,000 characters no longer count: the second is laid out a line at a time.
    await toggleRawJson('b-service-cert');
    await waitFor(() => expect(rawView('b-service-cert').querySelector('pre')).not.toBeNull());
    expect(laidOut(rawView('b-service-cert').querySelector('pre')!)).toBe(true);
  });

  it('attack: 24 certificates that are not JSON, of 1,000 lines each, are shown as received without an element per line', () => {
    const broken = `{"Claim": {"reviewBody": {"result": "clear",,\n${'  "x": 1,\n'.repeat(1_000)}`;
    show(Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`broken${i}-service-cert`, broken])));
    expect(boxes()).toHaveLength(24);
    expect(boxes().filter(laidOut)).toHaveLength(0);
    expect(boxes()[0]!.textContent).toBe(broken);
  });

  it('lays out a short certificate that is not JSON a line at a time, as before', () => {
    show({ 'broken-service-cert': '{"Claim": {"result": "consider",,\n  "x": 1' });
    expect(boxes().map(laidOut)).toEqual([true]);
  });
});

const BIDI = new RegExp(`[${BIDI_CONTROLS}]`);

describe('direction overrides in a certificate', () => {
  it('attack: a right-to-left override in its legalName, its slug and its raw JSON is shown as a marker, never reordering the text', async () => {
    const slug = 'acme\u202Etrec-exe-service-cert';
    const raw = JSON.stringify({
      Organization: { legalName: 'Acme \u202Edetimil\u202C Ltd' },
      Claim: { reviewBody: { result: 'clear', note: 'pay \u2066to\u2069 \u200fhere' } },
    });
    show({ [slug]: raw });
    const article = panel(slug);
    expect(within(article).getByRole('heading', { level: 3 })).toHaveTextContent('Acme ⟦U+202E⟧detimil⟦U+202C⟧ Ltd');
    expect(article.querySelector('code')).toHaveTextContent('acme⟦U+202E⟧trec-exe-service-cert');

    await toggleRawJson(slug);
    await waitFor(() => expect(rawView(slug).querySelector('pre')).not.toBeNull());
    const text = rawView(slug).querySelector('pre')!.textContent;
    expect(text).toContain('"legalName": "Acme ⟦U+202E⟧detimil⟦U+202C⟧ Ltd"');
    expect(text).toContain('"note": "pay ⟦U+2066⟧to⟦U+2069⟧ ⟦U+200F⟧here"');
    // Nowhere in the panel does a control reach the page as itself.
    expect(article.textContent).not.toMatch(BIDI);
  });

  it('marks them in a certificate that is not JSON too, shown as received', () => {
    show({ 'broken-service-cert': '{"note": "\u202Eexe.jpg",,' });
    expect(boxes()[0]!.textContent).toBe('{"note": "⟦U+202E⟧exe.jpg",,');
  });
});
