import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { NOT_RECOGNISED } from '../../src/kyc/view/certificate-review.ts';
import { envelope, renderWithProviders, stubApi, testMeta } from './render.tsx';

/**
 * One certificate, four shapes a KYC service may use: results in `Claim.reviewBody`, in
 * `Claim._customFields`, in a `reviewBody` that is text holding an array of checks, and no result at all.
 * Each reads as the reviewer needs it: the worst result on the chip, coloured, and where it was found.
 */

const SIGNATURES = [
  {
    type: 'EcdsaKoblitzSignature2016',
    creator: 'did:complyadvantage-service#key-1',
    created: '2026-10-24T00:01:00.000Z',
    signatureValue: 'c2ln',
  },
  {
    type: 'EcdsaKoblitzSignature2016',
    creator: 'did:blockpass#countersign-1',
    created: '2026-10-24T00:01:00.000Z',
    signatureValue: 'Y291bnRlcg==',
  },
];

function certificate(claim: Record<string, unknown>): string {
  return JSON.stringify({
    '@context': ['https://w3id.org/identity/v1'],
    signature: SIGNATURES,
    Claim: { issueDate: '2026-10-24T00:01:00.000Z', ...claim },
    Organization: { legalName: 'ComplyAdvantage Ltd', url: 'https://complyadvantage.com' },
    // Outcome words in the hashes of the person's data or the issuer never count.
    Entity: { result: 'match', rootHash: 'ab12' },
  });
}

function show(slug: string, raw: string, status = 'blocked') {
  const record: CandidateRecord = { status, refId: `shape-${slug}`, isArchived: false, blockPassID: 'bp', certs: { [slug]: raw } };
  const path = `/api/candidates/refId/${encodeURIComponent(record.refId!)}`;
  stubApi({ meta: testMeta(), candidates: { [path]: envelope(record) } });
  return renderWithProviders(`/candidates/refId/${encodeURIComponent(record.refId!)}`);
}

async function chipAndPanel() {
  const strip = await screen.findByRole('region', { name: 'Decision summary' });
  const chip = within(strip).getByRole('listitem').querySelector('[data-tone]')!;
  const panel = await screen.findByRole('article');
  const rows = [...within(panel).getByTestId('review-rows').querySelectorAll('dt')].map((dt) => [
    dt.textContent,
    dt.nextElementSibling!.textContent,
  ]);
  return { chip, panel, rows };
}

describe('certificate shapes', () => {
  it('reads results in Claim.reviewBody', async () => {
    show(
      'complyadvantage-service-cert',
      certificate({ _customFields: {}, reviewBody: { checkType: 'aml_screening', matchStatus: 'potential_match' } }),
    );
    const { chip, rows } = await chipAndPanel();
    expect(chip).toHaveAttribute('data-tone', 'caution');
    expect(chip).toHaveTextContent('ComplyAdvantagepotential_match');
    expect(rows).toContainEqual(['Match status', expect.stringMatching(/potential_match.*found at reviewBody\.matchStatus$/)]);
  });

  it('reads results in Claim._customFields, where a service keeps its own fields', async () => {
    show(
      'complyadvantage-service-cert',
      certificate({ _customFields: { result: 'potential_match', search_id: 1234567, total_hits: 3, fuzziness: 0.6 }, reviewBody: {} }),
    );
    const { chip, rows } = await chipAndPanel();
    expect(chip).toHaveAttribute('data-tone', 'caution');
    expect(chip).toHaveTextContent('potential_match');
    expect(chip.getAttribute('title')).toContain('found at _customFields.result');
    expect(rows).toContainEqual(['Result', expect.stringMatching(/potential_match.*found at _customFields\.result$/)]);
    expect(rows).toContainEqual(['Total hits', '3']);
    expect(screen.queryByText(/no result/)).not.toBeInTheDocument();
  });

  it('reads a reviewBody that is text holding an array of checks, and shows the worst', async () => {
    const checks = [
      { name: 'document', result: 'clear', sub_result: 'clear' },
      { name: 'facial_similarity_photo', result: 'consider', breakdown: { face_comparison: { result: 'consider' } } },
      { name: 'watchlist', result: 'CLEAR' },
    ];
    show('onfido-service-cert', certificate({ _customFields: {}, reviewBody: JSON.stringify(checks) }), 'waiting');
    const { chip, rows } = await chipAndPanel();
    expect(chip).toHaveAttribute('data-tone', 'caution');
    expect(chip).toHaveTextContent('Onfidoconsider');
    expect(rows.map(([label]) => label)).toEqual([
      'Provider',
      'Document',
      'Document › Sub result',
      'Facial similarity photo',
      'Facial similarity photo › Breakdown › Face comparison',
      'Watchlist',
      // Each check's name labels its rows, and is no row of its own.
      'Issued',
    ]);
    expect(rows[3]).toEqual(['Facial similarity photo', expect.stringMatching(/consider.*found at reviewBody\[1\]\.result$/)]);
  });

  it('shows every field of a certificate with no recognisable result, and says so in neutral', async () => {
    show(
      'acme-service-cert',
      certificate({ _customFields: { case_ref: 'AC-1', reviewed_on: '2026-10-20T08:00:00.000Z' }, reviewBody: { note: 'ok' } }),
    );
    const { chip, rows } = await chipAndPanel();
    expect(chip).toHaveAttribute('data-tone', 'neutral');
    expect(chip).toHaveTextContent(NOT_RECOGNISED);
    // Never an empty card: each field labelled and with its path, the date formatted.
    expect(rows).toEqual([
      ['Provider', 'ComplyAdvantage Ltd'],
      ['Case ref', 'AC-1found at _customFields.case_ref'],
      ['Reviewed on', expect.stringMatching(/^Oct 20, 2026, \d\d:\d\d\s[AP]M/)],
      ['Note', 'okfound at reviewBody.note'],
      ['Issued', expect.stringMatching(/^Oct 24, 2026/)],
    ]);
  });

  it('says who signed it, and that the signatures are not verified', async () => {
    show('complyadvantage-service-cert', certificate({ reviewBody: { result: 'no_match' } }));
    const { panel } = await chipAndPanel();
    const signed = panel.querySelector('[data-signatures]')!;
    expect(signed).toHaveTextContent('Issued by ComplyAdvantage Ltd · signatures not verified by this app');
    const signatures = within(signed as HTMLElement).getAllByRole('listitem');
    expect(signatures.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^EcdsaKoblitzSignature2016 by did:complyadvantage-service#key-1, created Oct 24, 2026/),
      expect.stringMatching(/^EcdsaKoblitzSignature2016 by did:blockpass#countersign-1, created Oct 24, 2026/),
    ]);
    // No tick that suggests a check this app does not make.
    expect(signed.textContent).not.toMatch(/✓|verified(?! by)/);
    // A signature's date in the line's own small size, not the larger size of a stamp standing alone.
    for (const time of signed.querySelectorAll('time')) expect(time.closest('.text-sm')).toBeNull();
  });

  it('reads the worst result stated in a certificate that is not valid JSON', async () => {
    show('complyadvantage-service-cert', '{"Claim":{"_customFields":{"result":"potential_match"},,"reviewBody":');
    const strip = await screen.findByRole('region', { name: 'Decision summary' });
    const chip = within(strip).getByRole('listitem').querySelector('[data-tone]')!;
    expect(chip).toHaveAttribute('data-tone', 'caution');
    expect(chip).toHaveTextContent('potential_match');
  });

  // The published examples are cut off and hold `,,`: what the text said after the cut is unknown.
  const CUT =
    '{"@context":["https://w3id.org/identity/v1"],"Claim":{"reviewBody":{"checks":[{"name":"identity","result":"clear"},{"name":"watchlist","res';
  const DOUBLE_COMMA = '{"Claim":{"reviewBody":{"checks":[{"name":"identity","result":"clear"},,{"name":"watchlist","result":"clear"}]}}}';

  it.each([
    ['cut off after a clear result', CUT],
    ['with ,, between clear results', DOUBLE_COMMA],
  ])('never shows a pass of a certificate %s: the summary and the card say what was found and that the rest is unknown', async (_, raw) => {
    show('complyadvantage-service-cert', raw, 'waiting');
    const strip = await screen.findByRole('region', { name: 'Decision summary' });
    const panel = await screen.findByRole('article');
    const cardChip = panel.querySelector('[data-tone]')!;
    for (const chip of [within(strip).getByRole('listitem').querySelector('[data-tone]')!, cardChip]) {
      expect(chip).toHaveAttribute('data-tone', 'caution');
      expect(chip).toHaveTextContent(
        /^!.*clear found in the text — certificate incomplete or not valid JSON, the rest unknown\(needs attention\)$/,
      );
      expect(chip).not.toHaveTextContent(/✓|passed/);
      expect(chip).toHaveAttribute('title', expect.stringMatching(/^Needs attention: clear found in the text .* \(found at result\)$/));
    }
    expect(cardChip.parentElement).toHaveTextContent(/not valid JSON$/);
  });
});
