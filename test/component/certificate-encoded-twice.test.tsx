import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { NOT_RECOGNISED } from '../../src/kyc/view/certificate-review.ts';
import { envelope, renderWithProviders, stubApi, testMeta } from './render.tsx';

/**
 * A certificate encoded twice (text holding JSON text of the document) read "result not recognised" on its
 * chip, with no notice and no raw text. It is read once more, its result shown and the form it came in
 * named; one whose text still cannot be read is shown as received, with a notice saying why.
 */

const SLUG = 'complyadvantage-service-cert';
const DOC = JSON.stringify({
  '@context': ['https://w3id.org/identity/v1'],
  Claim: { reviewBody: { checks: [{ name: 'watchlist', result: 'potential_match' }] } },
  Organization: { legalName: 'ComplyAdvantage Ltd' },
});

function show(raw: string) {
  const record: CandidateRecord = {
    status: 'inreview',
    refId: 'encoded-twice',
    isArchived: false,
    blockPassID: 'bp',
    certs: { [SLUG]: raw },
  };
  stubApi({ meta: testMeta(), candidates: { '/api/candidates/refId/encoded-twice': envelope(record) } });
  renderWithProviders('/candidates/refId/encoded-twice');
}

describe('a certificate encoded twice', () => {
  it('attack: a certificate encoded twice shows its result and says it came encoded twice, where it read "result not recognised"', async () => {
    show(JSON.stringify(DOC));
    const panel = await screen.findByRole('article', { name: 'ComplyAdvantage' });
    const chip = panel.querySelector('[data-tone]')!;
    expect(chip).toHaveTextContent('potential_match');
    expect(panel).not.toHaveTextContent(NOT_RECOGNISED);
    expect(within(panel).getByTestId('encoded-twice')).toHaveTextContent('The KYC service sent this certificate encoded twice');
    const rows = [...within(panel).getByTestId('review-rows').querySelectorAll('dt')].map((dt) => dt.textContent);
    expect(rows).toContain('Checks › Watchlist');
    // The decision summary's chip says the same.
    const summary = screen.getByRole('region', { name: 'Decision summary' });
    expect(within(summary).getByRole('listitem')).toHaveTextContent('potential_match');
  });

  it('a certificate encoded twice whose text is cut off is shown as received, with a notice saying why, its chip the result its text states', async () => {
    const cut = '{"Claim":{"reviewBody":{"result":"consider",,';
    show(JSON.stringify(cut));
    const panel = await screen.findByRole('article', { name: 'ComplyAdvantage' });
    expect(within(panel).getByText(/This certificate came as JSON text holding text, and that text is not valid JSON/)).toBeInTheDocument();
    expect(within(panel).getByText('JSON text holding text, not read')).toBeInTheDocument();
    expect(panel.querySelector('pre')!.textContent).toBe(JSON.stringify(cut));
    expect(panel.querySelector('[data-tone]')).toHaveTextContent('consider');
    expect(within(panel).queryByTestId('encoded-twice')).toBeNull();
  });
});
