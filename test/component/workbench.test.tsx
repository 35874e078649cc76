import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { ApiMeta } from '../../src/kyc/contract/api.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { metaQueries } from '../../src/app/meta/meta-query.ts';
import { KNOWN_OUTCOMES } from '../../src/kyc/contract/outcome.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { recordForScope } from '../../src/server/sandbox/sandbox.ts';
import { hostileCandidate, PAYLOADS } from '../fixtures/hostile-candidate.mjs';
import { inTimeZone } from './in-time-zone.ts';
import { envelope, json, renderWithProviders, stubApi, testMeta } from './render.tsx';

const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const byRef = (refId: string) => samples.find((r) => r.refId === refId)!;
const blocked = byRef('user-7781');
const amelie = byRef('c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10');
const wang = byRef('cust_000482');

// A zone with no daylight saving and a name that differs from UTC, so local and UTC labels differ.
inTimeZone('Asia/Singapore');
beforeEach(() => localStorage.clear());

function show(record: CandidateRecord, meta: Partial<ApiMeta> = {}) {
  const path = `/api/candidates/refId/${encodeURIComponent(record.refId!)}`;
  stubApi({ meta: testMeta(meta), candidates: { [path]: envelope(record) } });
  return renderWithProviders(`/candidates/refId/${encodeURIComponent(record.refId!)}`);
}

const summary = () => screen.findByRole('region', { name: 'Decision summary' });

/** A certificate panel's rows, as [label, value] text. */
const rowPairs = (panel: HTMLElement) =>
  [...within(panel).getByTestId('review-rows').querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]);

function withCertificate(result: string): CandidateRecord {
  return {
    status: 'inreview',
    refId: `cert-${result}`,
    isArchived: false,
    blockPassID: 'bp',
    certs: { 'acme-service-cert': JSON.stringify({ Claim: { reviewBody: { checkType: 'screening', result } } }) },
  };
}

describe('decision summary chips', () => {
  const COLOURS = { positive: 'bg-emerald-50', caution: 'bg-amber-50', negative: 'bg-red-50', neutral: 'bg-slate-100' } as const;
  const ICONS = { positive: '✓', caution: '!', negative: '✕', neutral: '?' } as const;

  it.each([
    ...Object.entries(KNOWN_OUTCOMES).map(([word, known]) => [word, known.tone] as const),
    ['unidentified', 'neutral'],
    ['Something New', 'neutral'],
  ] as const)('colours %s as %s, with an icon and the raw value as text', async (value, tone) => {
    show(withCertificate(value));
    const chip = within(within(await summary()).getByRole('list', { name: 'Certificate results' })).getByRole('listitem')
      .firstElementChild!;
    expect(chip).toHaveAttribute('data-tone', tone);
    expect(chip.className).toContain(COLOURS[tone]);
    expect(chip).toHaveTextContent(`${ICONS[tone]}Acme${value}`);
  });
});

describe('decision summary', () => {
  it('shows how long the status has held, a chip per certificate and the decision fields, right under the header', async () => {
    show(blocked);
    const strip = await summary();
    expect(strip.previousElementSibling?.tagName).toBe('HEADER');
    expect(within(strip).getByTestId('summary-status')).toHaveTextContent(
      /^⊘Blocked since \w{3} \d{1,2}, \d{4}, \d\d:\d\d\s[AP]M (SGT|UTC\+8)In UTC: /,
    );
    // The status is said once: by the badge, which the sentence goes on from.
    expect(
      within(strip)
        .getByTestId('summary-status')
        .textContent!.match(/Blocked/g),
    ).toHaveLength(1);
    expect(within(strip).getByTestId('summary-status')).toHaveTextContent(/ \(29 days ago\)$/);
    const chips = within(strip).getAllByRole('listitem');
    expect(chips.map((li) => [li.textContent, li.firstElementChild!.getAttribute('data-tone')])).toEqual([
      [expect.stringContaining('Onfidoclear'), 'positive'],
      [expect.stringContaining('ComplyAdvantagepotential_match'), 'caution'],
    ]);
    const fields = strip.querySelector('dl')!;
    expect(fields).toHaveTextContent('Risk levelhigh');
    expect(fields).toHaveTextContent('Screening caseCA-2026-00917');
    // The custom-fields card no longer repeats them; with nothing else left it is gone.
    expect(screen.queryByRole('heading', { name: 'Custom fields' })).not.toBeInTheDocument();
  });

  it('takes the decision fields from summaryFields, matched without regard to case', async () => {
    show(amelie, { summaryFields: ['CUSTOMER_TIER'] });
    const strip = await summary();
    expect(strip.querySelector('[data-field="customerTier"]')).toHaveTextContent('Customer tiergold');
    const card = screen.getByRole('heading', { name: 'Custom fields' }).closest('section')!;
    // Named in words as everywhere else on the page (UX review, 29 November), the key on hover.
    expect(card.querySelector('th[data-field="riskLevel"]')).toHaveTextContent('Risk level');
    expect(card.querySelector('th[data-field="riskLevel"]')).toHaveAttribute('title', 'riskLevel');
    expect(card).not.toHaveTextContent(/customerTier|Customer tier/);
  });

  it('shows the status alone when there are no certificates and no decision fields', async () => {
    show(recordForScope(blocked, 'status'));
    const strip = await summary();
    expect(strip).toHaveTextContent(/Blocked since .* \(29 days ago\)$/);
    expect(within(strip).queryByRole('list')).not.toBeInTheDocument();
    expect(strip.querySelector('dl')).toBeNull();
  });
});

describe('certificate rows', () => {
  it("lists the sandbox certificates' provider results as labelled rows, the JSON one click away", async () => {
    show(blocked);
    const screening = await screen.findByRole('article', { name: 'ComplyAdvantage' });
    const rows = within(screening).getByTestId('review-rows');
    const pairs = rowPairs(screening);
    expect(pairs.slice(0, 3)).toEqual([
      ['Provider', 'ComplyAdvantage Ltd'],
      ['Check type', 'aml_screening'],
      // Each result says where it was read, so that a reviewer can check it in the raw JSON.
      ['Match status', expect.stringMatching(/potential_match.*found at reviewBody\.matchStatus$/)],
    ]);
    expect(pairs).toContainEqual(['Sources', 'sanctions, pep, adverse-media']);
    expect(pairs.at(-1)![0]).toBe('Issued');
    expect(pairs.at(-1)![1]).toMatch(/\d{4}, \d\d:\d\d\s[AP]M (SGT|UTC\+8)In UTC: /);
    expect(within(rows).getByText('potential_match').closest('[data-tone]')).toHaveAttribute('data-tone', 'caution');
    expect(within(screening).getByText('Raw JSON').closest('details')).not.toHaveAttribute('open');
  });

  it.each([
    ['hu-2026-0117', 'consider', 'caution'],
    ['c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10', 'clear', 'positive'],
  ] as const)("reads %s's Onfido document check (%s) as rows, each result coloured by what it means", async (refId, result, tone) => {
    show(byRef(refId));
    const onfido = await screen.findByRole('article', { name: 'Onfido' });
    const rows = within(onfido).getByTestId('review-rows');
    const pairs = rowPairs(onfido);
    expect(pairs.slice(0, 5)).toEqual([
      ['Provider', 'Onfido Ltd'],
      ['Check type', 'document'],
      ['Result', expect.stringMatching(new RegExp(`^.${result}\\(`))],
      ['Sub results › Visual authenticity', expect.stringMatching(new RegExp(`^.${result}\\(`))],
      ['Sub results › Data consistency', expect.stringMatching(/^.clear\(/)],
    ]);
    expect(pairs.at(-1)).toEqual(['Issued', expect.stringMatching(/\d{4}, \d\d:\d\d\s[AP]M (SGT|UTC\+8)In UTC: /)]);
    const tones = [...rows.querySelectorAll('dd [data-tone]')].map((chip) => chip.getAttribute('data-tone'));
    expect(tones).toEqual([tone, tone, 'positive']);
    // The panel's own chip and the summary's say the same.
    expect(within(onfido).getByRole('heading', { name: 'Onfido' }).parentElement!.querySelector('[data-tone]')).toHaveAttribute(
      'data-tone',
      tone,
    );
    expect(
      within(await summary())
        .getByText('Onfido')
        .closest('[data-tone]'),
    ).toHaveAttribute('data-tone', tone);
  });

  it('finds the results in a certificate of an unknown shape', async () => {
    show({
      status: 'approved',
      refId: 'odd-cert',
      isArchived: false,
      blockPassID: 'bp',
      certs: {
        'acme-kyc-cert': JSON.stringify({
          credentialSubject: { check: { vendor: 'Acme KYC', outcome: 'approved', breakdown: { face: 'clear', liveness: 'caution' } } },
        }),
      },
    });
    const panel = await screen.findByRole('article', { name: 'Acme KYC' });
    const rows = within(panel).getByTestId('review-rows');
    expect([...rows.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual([
      'Provider',
      'Check',
      'Check › Breakdown › Face',
      'Check › Breakdown › Liveness',
    ]);
    expect(within(rows).getByText('caution').closest('[data-tone]')).toHaveAttribute('data-tone', 'caution');
    // The worst of the three: a caution sub-result is not hidden behind an overall "approved".
    expect(within(await summary()).getByRole('listitem')).toHaveTextContent('Acme KYCcaution');
  });

  it('keeps hostile certificate content as inert text in the rows', async () => {
    show({
      status: 'approved',
      refId: 'hostile-cert',
      isArchived: false,
      blockPassID: 'bp',
      certs: {
        'x-cert': JSON.stringify({ Claim: { reviewBody: { result: '<img src=x onerror=alert(1)>', note: '<script>1</script>' } } }),
      },
    });
    const panel = await screen.findByRole('article', { name: 'X' });
    expect(within(panel).getAllByText('<img src=x onerror=alert(1)>').length).toBeGreaterThan(0);
    expect(within(panel).getByText('<script>1</script>')).toBeInTheDocument();
    expect(document.querySelector('main img, main script')).toBeNull();
  });

  it("keeps the hostile fixture's review body and decision fields inert text, every row shown", async () => {
    const warnings = vi.spyOn(console, 'error').mockImplementation(() => {});
    onTestFinished(() => warnings.mockRestore());
    const { record } = hostileCandidate();
    show(record);
    const strip = await summary();
    const panel = await screen.findByRole('article', { name: /onerror/ });
    const pairs = rowPairs(panel);
    // Both `checkType` and `check_type` read "Check type": two rows, neither lost to the other.
    expect(pairs.filter(([label]) => label === 'Check type').map(([, value]) => value)).toEqual([PAYLOADS[0], PAYLOADS[4]]);
    expect(pairs).toContainEqual(['Match status', expect.stringContaining(PAYLOADS[3]!)]);
    expect(pairs).toContainEqual([
      'Sub results › Visual authenticity',
      expect.stringContaining('⟦U+202E⟧evil right-to-left override⟦U+202C⟧'),
    ]);
    expect(pairs).toContainEqual(['Sub results › Proto › Polluted', expect.stringContaining(PAYLOADS[0]!)]);
    expect(pairs).toContainEqual(['Issued', '⟦U+202E⟧evil right-to-left override⟦U+202C⟧<script>window.__pwned=1</script>']);
    expect(pairs).toContainEqual(['Completed date', '2026-01-01T00:00:00.000Z<img src=x onerror="window.__pwned=1">']);
    expect(strip.querySelector('[data-field="riskLevel"]')).toHaveTextContent(`Risk level${PAYLOADS[1]}`);
    expect(strip.querySelector('[data-field="screeningCase"]')).toHaveTextContent(
      /^Screening case<script>window.__pwned=1<\/script>W+… Show all/,
    );
    expect(
      document.querySelector('main script, main svg[onload], main iframe, main [onerror], main [onload], main a[href^="javascript"]'),
    ).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // React says nothing is wrong (no two rows under one key).
    expect(warnings).not.toHaveBeenCalled();
  });
});

describe('privacy mask', () => {
  const secrets = (record: CandidateRecord) => {
    const address = JSON.parse(record.identities!.address!.value) as { address: string };
    const phone = JSON.parse(record.identities!.phone!.value) as { phoneNumber: string; number: string };
    // The phone as stored (+905321234567) and as the card formats it.
    return [
      record.identities!.email!.value,
      address.address,
      'Türkiye',
      'May 21, 1968',
      '21 May 1968',
      'age 58',
      phone.phoneNumber,
      '532 123 45 67',
    ];
  };

  it('keeps masked values out of the page text and blurs the pictures, until revealed or switched off', async () => {
    const user = userEvent.setup();
    show(blocked, { privacyMaskDefault: true });
    await screen.findByRole('heading', { level: 1 });
    await screen.findByRole('button', { name: 'Open a larger view of the passport' });
    expect(screen.getByRole('button', { name: 'Privacy mask' })).toHaveAttribute('aria-pressed', 'true');
    const text = () => document.body.textContent!.replace(/\s+/g, ' ');
    for (const secret of secrets(blocked)) expect(text()).not.toContain(secret);
    for (const img of screen.getAllByRole('img', { name: /of Mehmet Yılmaz$/ })) expect(img.className).toContain('blur');

    // A click reveals one item for good.
    await user.click(screen.getByRole('button', { name: /^Date of birth: hidden by the privacy mask/ }));
    expect(text()).toMatch(/May 21, 1968|21 May 1968/);
    expect(text()).not.toContain(blocked.identities!.email!.value);

    // Focus shows an item while it lasts.
    const email = screen.getByRole('button', { name: /^E-mail: hidden by the privacy mask/ });
    fireEvent.focus(email);
    expect(text()).toContain(blocked.identities!.email!.value);
    fireEvent.blur(email);
    expect(text()).not.toContain(blocked.identities!.email!.value);

    // Focusing a picture unblurs it.
    const selfie = screen.getByRole('button', { name: 'Open a larger view of the selfie' });
    fireEvent.focus(selfie);
    expect(within(selfie).getByRole('img').className).not.toContain('blur');

    await user.click(screen.getByRole('button', { name: 'Privacy mask' }));
    for (const secret of secrets(blocked).slice(0, 3)) expect(text()).toContain(secret);
    expect(await screen.findByTestId('phone-number')).toHaveTextContent('+90 532 123 45 67');
    for (const img of screen.getAllByRole('img', { name: /of Mehmet Yılmaz$/ })) expect(img.className).not.toContain('blur');
  });

  it('hides again what was revealed once the mask is switched off and on', async () => {
    const user = userEvent.setup();
    show(blocked, { privacyMaskDefault: true });
    await screen.findByRole('button', { name: 'Open a larger view of the passport' });
    const text = () => document.body.textContent!.replace(/\s+/g, ' ');
    const dateOfBirth = /May 21, 1968|21 May 1968/;
    await user.click(screen.getByRole('button', { name: /^Date of birth: hidden by the privacy mask/ }));
    await user.click(screen.getByRole('button', { name: 'Open a larger view of the passport' }));
    expect(text()).toMatch(dateOfBirth);
    const mask = screen.getByRole('button', { name: 'Privacy mask' });
    await user.click(mask);
    await user.click(mask);
    expect(mask).toHaveAttribute('aria-pressed', 'true');
    expect(text()).not.toMatch(dateOfBirth);
    expect(screen.getByRole('button', { name: /^Date of birth: hidden by the privacy mask/ })).toBeInTheDocument();
    expect(within(screen.getByRole('button', { name: 'Open a larger view of the passport' })).getByRole('img').className).toContain('blur');
  });

  it('stays masked when /api/meta, asked again, fails after saying the mask is on', async () => {
    // A key seen to archive makes the page ask /api/meta again (candidate-page.tsx); that ask fails here.
    const record = { ...blocked, willArchiveAtDate: new Date(Date.now() + 3600_000).toISOString() };
    const { fetchMock } = stubApi({
      meta: testMeta({ privacyMaskDefault: true }),
      candidates: { [`/api/candidates/refId/${record.refId}`]: envelope(record) },
    });
    const answer = fetchMock.getMockImplementation()!;
    let metaAsked = 0;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === '/api/meta' && ++metaAsked > 1) return json({ status: 'error', error: { code: 'x', message: 'down' } }, 503);
      return answer(input, init);
    });
    const { queryClient } = renderWithProviders(`/candidates/refId/${record.refId}`);
    await screen.findByTestId('archive-warning');
    // Asked again, and retried once (a second later): both failed, and the page has seen the failure.
    await waitFor(() => expect(metaAsked).toBe(3), { timeout: 15_000 });
    await waitFor(() => expect(queryClient.getQueryState(metaQueries.current(undefined).queryKey)?.status).toBe('error'));
    expect(screen.getByRole('button', { name: 'Privacy mask' })).toHaveAttribute('aria-pressed', 'true');
    expect(document.body.textContent).not.toContain(blocked.identities!.email!.value);
  });

  it('is off by default, and Alt+Shift+M switches it', async () => {
    const user = userEvent.setup();
    show(blocked);
    await screen.findByText(blocked.identities!.email!.value);
    await user.keyboard('{Alt>}{Shift>}M{/Shift}{/Alt}');
    expect(screen.queryByText(blocked.identities!.email!.value)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Privacy mask' })).toHaveAttribute('aria-pressed', 'true');
  });
});

describe('names as on the documents', () => {
  it('writes a Chinese name family first, with the document-order line beside it', async () => {
    show(wang);
    expect(await screen.findByRole('heading', { level: 1, name: '王秀英' })).toBeInTheDocument();
    expect(screen.getByTestId('document-order-name')).toHaveTextContent('In document order: 王, 秀英');
    const identity = screen.getByRole('heading', { name: 'Identity' }).closest('section')!;
    expect([...identity.querySelectorAll('dt')].slice(0, 2).map((dt) => dt.textContent)).toEqual(['Family name', 'Given name']);
  });

  it('writes a Vietnamese name family first, and others given name first', async () => {
    show(byRef('f47ac10b-58cc-4372-a567-0e02b2c3d479'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Nguyễn Thị Minh Khai' })).toBeInTheDocument();
    expect(screen.getByTestId('document-order-name')).toHaveTextContent('NGUYỄN THỊ, MINH KHAI');
  });

  it('keeps given name first elsewhere, still with the document order', async () => {
    show(amelie);
    expect(await screen.findByRole('heading', { level: 1, name: 'Amélie Dubois-Léger' })).toBeInTheDocument();
    expect(screen.getByTestId('document-order-name')).toHaveTextContent('DUBOIS-LÉGER, AMÉLIE');
    expect(screen.getByRole('img', { name: 'Passport of Amélie Dubois-Léger' })).toBeInTheDocument();
  });
});

describe('zone labels', () => {
  it('labels every absolute time with its zone and switches them all to UTC, remembering only that choice', async () => {
    const user = userEvent.setup();
    show(blocked);
    await summary();
    // Absolute times (a TimeStamp each); "Fetched now" and the like are relative.
    const times = () => [...document.querySelectorAll('main time[aria-describedby]')].map((time) => time.textContent!);
    expect(times().length).toBeGreaterThanOrEqual(5);
    for (const time of times()) expect(time).toMatch(/\d\d:\d\d\s[AP]M (SGT|UTC\+8)$/);
    const first = document.querySelector('main time[aria-describedby]')!;
    expect(document.getElementById(first.getAttribute('aria-describedby')!)).toHaveTextContent(/^In UTC: .* UTC$/);
    // No Tab stop each: the UTC switch shows every time in the other zone.
    expect(first).not.toHaveAttribute('tabindex');

    await user.click(screen.getByRole('button', { name: 'UTC times' }));
    for (const time of times()) expect(time).toMatch(/\d\d:\d\d\s[AP]M UTC$/);
    expect(document.getElementById(first.getAttribute('aria-describedby')!)).toHaveTextContent(/^In your time zone: .*(SGT|UTC\+8)$/);
    expect({ ...localStorage }).toEqual({ 'candidate-lookup:time-zone': 'utc' });
  });

  it('starts in UTC when that was chosen before', async () => {
    localStorage.setItem('candidate-lookup:time-zone', 'utc');
    show(blocked);
    await summary();
    expect(screen.getByRole('button', { name: 'UTC times' })).toHaveAttribute('aria-pressed', 'true');
    expect(document.querySelector('main time[aria-describedby]')!.textContent).toMatch(/ UTC$/);
  });
});

describe('document viewer', () => {
  it('has every tool by name, pages with the buttons and compares the selfie with the ID document, never a picture with itself', async () => {
    const user = userEvent.setup();
    show(blocked);
    await user.click(await screen.findByRole('button', { name: 'Open a larger view of the selfie' }));
    const dialog = await screen.findByRole('dialog', { name: 'Selfie of Mehmet Yılmaz' });
    for (const name of ['Zoom in', 'Zoom out', 'Fit', 'Actual size', 'Rotate', 'Previous picture', 'Next picture', 'Compare', 'Close']) {
      expect(within(dialog).getByRole('button', { name })).toBeInTheDocument();
    }
    await user.click(within(dialog).getByRole('button', { name: 'Next picture' }));
    expect(dialog).toHaveAccessibleName('Passport of Mehmet Yılmaz');
    await user.click(within(dialog).getByRole('button', { name: 'Compare' }));
    expect(dialog).toHaveAccessibleName('Compare pictures');
    expect(within(dialog).getByRole('combobox', { name: 'Left picture' })).toHaveDisplayValue('Selfie');
    expect(within(dialog).getByRole('combobox', { name: 'Right picture' })).toHaveDisplayValue('Passport');
    const alts = () => [...dialog.querySelectorAll('img')].map((img) => img.getAttribute('alt'));
    expect(alts()).toEqual(['Selfie of Mehmet Yılmaz', 'Passport of Mehmet Yılmaz']);
    // The left's picture is not one the right can show as well.
    expect(within(dialog).getByRole('option', { name: 'Selfie (left)' })).toBeDisabled();
  });
});
