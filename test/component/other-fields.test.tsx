import { fireEvent, screen, within } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { json, renderWithProviders, stubApi, testMeta } from './render.tsx';
import { READ_BY_SECTIONS } from '../support/read-by-sections.ts';

/**
 * Fields the page does not know are shown, not dropped (review: `kycLevel`, `reviewer`, `rejectReason` at
 * the record's top level were nowhere on the page): a compliance user's page lists them in "Other fields in
 * this response", after the known sections; a support user's never.
 */

const PATH = '/api/candidates/refId/ref-1';
const BASE = { status: 'rejected', refId: 'ref-1', recordId: 'rec-1', isArchived: false, rejectedDate: '2026-01-02T10:00:00.000Z' };

function show(data: unknown, role: 'compliance' | 'support' = 'compliance', masked = false) {
  stubApi({
    session: { mode: 'proxy', user: 'u', role },
    meta: testMeta({ privacyMaskDefault: masked }),
    candidates: { [PATH]: () => json({ status: 'success', data }) },
  });
  return renderWithProviders('/candidates/refId/ref-1');
}

const card = async () => (await screen.findByRole('heading', { name: 'Other fields in this response' })).closest('section')!;
const shownValue = (section: HTMLElement, name: string) => within(section).getByText(name).closest('dt')!.nextElementSibling!;

describe('other fields in this response', { timeout: 60_000 }, () => {
  it('lists each top-level field no section reads, name and value as sent, after the known sections', async () => {
    show({
      ...BASE,
      serviceID: 'SVC-123456',
      kycLevel: 'tier2',
      reviewer: 'op-17',
      rejectReason: 'blurry passport',
      checks: { liveness: 'pass', score: 0.93 },
      flags: ['pep', 'sanctions'],
      attempts: 3,
      escalated: null,
      customFields: { riskLevel: 'high' },
    });
    const section = await card();
    expect(shownValue(section, 'kycLevel')).toHaveTextContent('tier2');
    expect(shownValue(section, 'reviewer')).toHaveTextContent('op-17');
    expect(shownValue(section, 'rejectReason')).toHaveTextContent('blurry passport');
    expect(shownValue(section, 'checks')).toHaveTextContent('{"liveness":"pass","score":0.93} (not text: an object, as JSON)');
    expect(shownValue(section, 'flags')).toHaveTextContent('["pep","sanctions"] (not text: a list, as JSON)');
    expect(shownValue(section, 'attempts')).toHaveTextContent('3 (not text: a number)');
    expect(shownValue(section, 'escalated')).toHaveTextContent('null (not text: null)');
    // What a section reads is not listed again; serviceID is the header's.
    for (const known of ['serviceID', 'status', 'refId', 'rejectedDate', 'customFields'])
      expect(within(section).queryByText(known)).not.toBeInTheDocument();
    // After the known sections: the last card of the page.
    const sections = [...document.querySelectorAll('main section[aria-labelledby]')];
    expect(sections.at(-1)).toBe(section);
  });

  it('shows a bidi control in a name or value as a visible marker, and cuts a long value', async () => {
    show({ ...BASE, 'note\u202E': `gpj.exe\u202Eok`, essay: 'x'.repeat(5_000) });
    const section = await card();
    expect(section).toHaveTextContent('note⟦U+202E⟧');
    expect(section).toHaveTextContent('gpj.exe⟦U+202E⟧ok');
    expect(within(section).getByRole('button', { name: /Show all \(4,700 more characters\)/ })).toBeInTheDocument();
  });

  it('hidden by the privacy mask, as contact details are: a field no section reads may be personal; the names stay, each shown on its own', async () => {
    show({ ...BASE, mobileNumber: '+44 7700 900123', homeAddress: { line1: '1 Secret Rd' } }, 'compliance', true);
    const section = await card();
    expect(document.body).not.toHaveTextContent('7700 900123');
    expect(document.body).not.toHaveTextContent('Secret Rd');
    expect(within(section).getByText('mobileNumber')).toBeInTheDocument();
    fireEvent.click(within(section).getByRole('button', { name: /^mobileNumber: hidden by the privacy mask/ }));
    expect(shownValue(section, 'mobileNumber')).toHaveTextContent('+44 7700 900123');
    // Showing one shows only that one.
    expect(document.body).not.toHaveTextContent('Secret Rd');
    expect(within(section).getByRole('button', { name: /^homeAddress: hidden by the privacy mask/ })).toBeInTheDocument();
  });

  for (const [name, nested] of [
    ['record', { status: 'rejected', refId: 'OTHER-7', identities: { given_name: 'Olga', family_name: 'Otherperson', dob: '1980-02-02' } }],
    ['data', { status: 'approved', recordId: 'rec-other', identities: { family_name: 'Otherperson', dob: '1980-02-02' } }],
    ['linked', { refId: 'OTHER-7', note: 'Otherperson 1980-02-02' }],
  ] as const) {
    it(`attack: a nested ${name} holding another candidate's record beside this one's own fields is named as left out, never shown`, async () => {
      show({ ...BASE, [name]: nested, kycLevel: 'tier2' });
      const section = await card();
      for (const personal of ['Otherperson', 'Olga', '1980-02-02', 'OTHER-7', 'rec-other'])
        expect(document.body).not.toHaveTextContent(personal);
      expect(shownValue(section, name)).toHaveTextContent(`a nested record of another candidate was left out (at data.${name})`);
      expect(shownValue(section, 'kycLevel')).toHaveTextContent('tier2');
    });
  }

  it('a nested object giving the record’s own ids is shown as sent', async () => {
    show({ ...BASE, record: { refId: 'REF-1 ', recordId: 'rec-1', kind: 'own' } });
    expect(shownValue(await card(), 'record')).toHaveTextContent('{"refId":"REF-1 ","recordId":"rec-1","kind":"own"}');
  });

  it('none on a record without other fields', async () => {
    show({ ...BASE, blockPassID: 'BP-1' });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('heading', { name: 'Other fields in this response' })).not.toBeInTheDocument();
  });

  it('never on a support user’s page, even if a field beyond the status level reached it', async () => {
    show({ ...BASE, kycLevel: 'tier2', rejectReason: 'blurry passport' }, 'support');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('heading', { name: 'Other fields in this response' })).not.toBeInTheDocument();
    expect(screen.queryByText('blurry passport')).not.toBeInTheDocument();
  });

  it('property: every extra top-level key of a record is on the page, in the card, by its name', async () => {
    const key = fc.stringMatching(/^[a-z][A-Za-z0-9_]{0,10}$/).filter((name) => !name.endsWith('Date'));
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          key.filter((name) => !READ_BY_SECTIONS.has(name)),
          { minLength: 1, maxLength: 4 },
        ),
        async (names) => {
          const extra = Object.fromEntries(names.map((name, index) => [name, `value-${index}`]));
          const { unmount } = show({ ...BASE, ...extra });
          const section = await card();
          for (const [index, name] of names.entries()) expect(shownValue(section, name)).toHaveTextContent(`value-${index}`);
          unmount();
        },
      ),
      { numRuns: 8 },
    );
  });
});
