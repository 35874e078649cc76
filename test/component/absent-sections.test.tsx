import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import fc from 'fast-check';
import { candidateRecordSchema, unreadFieldsOf } from '../../src/kyc/contract/schema.ts';
import { recordLevel } from '../../src/app/candidate/level-notice.tsx';
import { json, renderWithProviders, stubApi } from './render.tsx';

/**
 * What the candidate page says of what an answer lacks (the audit against the service's published
 * answers): only the status and one id can be relied on, and a key has one of three scopes, so a missing
 * section or id is said as "not in this response", never as a fact about the key or the candidate; and a
 * field the notice above names as unreadable is never "not provided" beside it.
 */

const SUPPORT: SessionInfo = { mode: 'proxy', user: 'sam', role: 'support' };

const BASE = {
  status: 'inreview',
  refId: 'ref-1',
  recordId: '65f2000000000000000000a1',
  blockPassID: 'bp-1',
  isArchived: false,
  waitingDate: '2024-03-01T10:00:00.000Z',
  inreviewDate: '2024-03-02T10:00:00.000Z',
};
const ADA = { given_name: { type: 'string', value: 'Ada' }, family_name: { type: 'string', value: 'Lovelace' } };

/** Each answer by the path it is asked at, as the service sent it (not as this project's contract would write it). */
function showAnswers(answers: Record<string, unknown>, path: string, session?: SessionInfo) {
  const candidates = Object.fromEntries(Object.entries(answers).map(([at, data]) => [at, () => json({ status: 'success', data })]));
  stubApi({ candidates, ...(session ? { session } : {}) });
  return renderWithProviders(path);
}

const show = (data: unknown, session?: SessionInfo) =>
  showAnswers({ '/api/candidates/refId/ref-1': data }, '/candidates/refId/ref-1', session);

const absent = (section: string) => document.querySelector(`[data-testid="absent-section"][data-section="${section}"]`);

afterEach(() => vi.restoreAllMocks());

describe('an answer with nothing beyond the status level (a compliance user)', () => {
  it('says what the answer lacks, not that the key returns status only, even right after the same key sent identities', async () => {
    const { router } = showAnswers(
      {
        '/api/candidates/refId/ref-1': { ...BASE, identities: ADA, customFields: { note: 'x' }, certs: {} },
        '/api/candidates/refId/ref-2': { ...BASE, refId: 'ref-2', recordId: '65f2000000000000000000a2' },
      },
      '/candidates/refId/ref-1',
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
    await router.navigate('/candidates/refId/ref-2');
    expect(await screen.findByRole('heading', { level: 1, name: 'ref-2' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'This answer has no identity data, custom fields or certificates: the API key may be status-only, or the candidate has none.',
      ),
    ).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/returns status only/);
    // One sentence for the three: no line per section under it.
    expect(screen.queryByTestId('absent-section')).not.toBeInTheDocument();
  });

  it("keeps a support user's sentence, which is a fact: the server reduces their answers", async () => {
    show(BASE, SUPPORT);
    expect(
      await screen.findByText('Support users see status only: identity data, custom fields and certificates are not included.'),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('absent-section')).not.toBeInTheDocument();
  });
});

describe('an archived record whose identity data came as an empty map', () => {
  it('says the identity data was archived, not that the key or the candidate lacks it', async () => {
    show({ ...BASE, status: 'approved', isArchived: true, identities: {} });
    expect(await screen.findByText('Identity data was archived on the service. The status history remains.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Identity' })).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/not in this response|No address or phone|No pictures in this response/);
    expect(absent('identities')).toBeNull();
  });

  it('property: an archived record is said to be archived exactly when its identities hold no attribute', () => {
    const attribute = fc.record({ type: fc.constant('string'), value: fc.string() });
    const attributes = fc.dictionary(fc.stringMatching(/^[a-z]{1,12}$/), attribute, { maxKeys: 4 });
    fc.assert(
      fc.property(fc.option(attributes, { nil: undefined }), fc.constantFrom('approved', 'rejected', 'waiting'), (identities, status) => {
        const record = candidateRecordSchema.parse({ ...BASE, status, isArchived: true, ...(identities ? { identities } : {}) });
        const level = recordLevel(record, 'compliance', undefined, unreadFieldsOf(record));
        expect(level.archived).toBe(Object.keys(identities ?? {}).length === 0);
      }),
    );
  });

  it('an empty map not archived is no identity data, named once in its place', async () => {
    show({ ...BASE, identities: {}, customFields: { tier: 'gold' } });
    expect(await screen.findByText('gold')).toBeInTheDocument();
    expect(absent('identities')).toHaveTextContent(/^No identity data in this response/);
    expect(screen.queryByRole('heading', { name: 'Identity' })).not.toBeInTheDocument();
  });

  it('an archived record that kept some identity data says the rest is not in this response, the mark named, never archived', async () => {
    show({ ...BASE, isArchived: true, identities: { email: { type: 'string', value: 'ada@example.com' } } });
    expect(await screen.findByRole('heading', { name: 'Identity' })).toBeInTheDocument();
    // Before: the rows said "archived on the service" and the line "…: identity data was archived on the service.",
    // though the archive takes identity data whole and some of it came.
    expect(screen.getByText('No address or phone number in this response (the record is marked archived).')).toBeInTheDocument();
    expect(screen.getByText('Given name').nextElementSibling).toHaveTextContent(/^not in this response \(the record is marked archived\)$/);
    expect(screen.getByText('Date of birth').nextElementSibling).toHaveTextContent(
      /^not in this response \(the record is marked archived\)$/,
    );
    expect(document.body).not.toHaveTextContent(/archived on the service/);
    expect(
      screen.getByText(
        'No pictures in this response: the candidate has none, or the API key excludes them (the record is marked archived, yet identity data came with it).',
      ),
    ).toBeInTheDocument();
  });

  it('property: an archived record says "archived on the service" exactly when no identity data came; what a row lacks, the mark named', async () => {
    const CARD = ['given_name', 'family_name', 'dob', 'email', 'address', 'phone'] as const;
    const LABEL = { given_name: 'Given name', family_name: 'Family name', dob: 'Date of birth', email: 'E-mail' } as const;
    await fc.assert(
      fc.asyncProperty(fc.subarray([...CARD]), async (kept) => {
        cleanup();
        const identities = Object.fromEntries(kept.map((name) => [name, { type: 'string', value: `${name}-value` }]));
        show({ ...BASE, isArchived: true, identities });
        await screen.findByRole('heading', { level: 1 });
        const text = document.body.textContent ?? '';
        expect(/archived on the service/i.test(text)).toBe(kept.length === 0);
        if (kept.length === 0) return;
        for (const [name, label] of Object.entries(LABEL)) {
          if (kept.includes(name as (typeof CARD)[number])) continue;
          expect(screen.getByText(label).nextElementSibling).toHaveTextContent(/^not in this response \(the record is marked archived\)$/);
        }
        const contact = ['address', 'phone'].filter((name) => !kept.includes(name as (typeof CARD)[number]));
        if (contact.length > 0)
          expect(screen.getByTestId('contact-not-provided')).toHaveTextContent(/ in this response \(the record is marked archived\)\.$/);
      }),
      { numRuns: 12 },
    );
  });

  it('an archived record with its whole identity data but no pictures (a key without pictures) never blames the archive for them', async () => {
    const whole = {
      ...ADA,
      email: { type: 'string', value: 'ada@example.com' },
      dob: { type: 'string', value: '12/10/1815' },
      address: { type: 'string', value: JSON.stringify({ address: '12 St James Square', city: 'London', country: 'GBR' }) },
      phone: { type: 'string', value: JSON.stringify({ countryCode: 'GBR', countryCode2: 'gb', phoneNumber: '+442079460000' }) },
    };
    show({ ...BASE, isArchived: true, identities: whole });
    expect(await screen.findByRole('heading', { name: 'Identity' })).toBeInTheDocument();
    // Before: "No pictures in this response: identity data was archived on the service.", beside the name, address and phone.
    expect(document.body).not.toHaveTextContent(/identity data was archived on the service/);
    expect(screen.getByText(/^No pictures in this response: the candidate has none, or the API key excludes them/)).toHaveTextContent(
      /\(the record is marked archived, yet identity data came with it\)\.$/,
    );
  });
});

describe('an answer without a refId', () => {
  it('says "not in this response" in the header, as for a missing recordId, never "none assigned"', async () => {
    const { refId: _, ...withoutRefId } = BASE;
    showAnswers({ '/api/candidates/recordId/65f2000000000000000000a1': withoutRefId }, '/candidates/recordId/65f2000000000000000000a1');
    const header = (await screen.findByRole('heading', { level: 1 })).closest('header')!;
    expect(within(header).getByText('refId').nextElementSibling).toHaveTextContent(/^not in this response$/);
    expect(document.body).not.toHaveTextContent(/none assigned/);
  });
});

describe('a full record without certificates or custom fields', () => {
  it('names each missing section in its place, as the pictures are named', async () => {
    show({ ...BASE, identities: ADA });
    expect(await screen.findByRole('heading', { name: 'Identity' })).toBeInTheDocument();
    expect(absent('certs')).toHaveTextContent(/^No certificates in this response: the candidate has none, or the API key excludes them\.$/);
    expect(absent('customFields')).toHaveTextContent(
      /^No custom fields in this response: the candidate has none, or the API key excludes them\.$/,
    );
    expect(absent('identities')).toBeNull();
    expect(screen.getByText(/No pictures in this response/)).toBeInTheDocument();
  });

  it('says nothing of either when both came, empty', async () => {
    show({ ...BASE, identities: ADA, customFields: {}, certs: {} });
    expect(await screen.findByText('No certificates.')).toBeInTheDocument();
    expect(screen.getByText('No custom fields.')).toBeInTheDocument();
    expect(screen.queryByTestId('absent-section')).not.toBeInTheDocument();
  });

  it('says "sent, but could not be read" of certificates the notice names, not that there are none', async () => {
    show({ ...BASE, identities: ADA, customFields: { tier: 'gold' }, certs: 'not-a-map' });
    expect(await screen.findByTestId('unread-fields')).toHaveTextContent('certs: an object expected, text found');
    expect(absent('certs')).toHaveTextContent(/^Certificates: sent, but could not be read \(see above\)\.$/);
    expect(absent('customFields')).toBeNull();
    expect(screen.getByText('gold')).toBeInTheDocument();
  });

  it('names missing identity data above when other sections came', async () => {
    show({ ...BASE, customFields: { tier: 'gold' } });
    expect(await screen.findByText('gold')).toBeInTheDocument();
    expect(absent('identities')).toHaveTextContent(
      /^No identity data in this response: the candidate has none, or the API key excludes it\.$/,
    );
    expect(absent('certs')).toHaveTextContent(/^No certificates in this response/);
  });

  it('an archived record without certificates does not say its certificates remain', async () => {
    show({ ...BASE, isArchived: true, customFields: { tier: 'gold' } });
    expect(await screen.findByText('Identity data was archived on the service. The status history remains.')).toBeInTheDocument();
    expect(absent('certs')).toHaveTextContent(/^No certificates in this response/);
    expect(absent('identities')).toBeNull();
  });

  it('names no missing section to a support user, who sees the status level by design', async () => {
    show({ ...BASE, identities: ADA }, SUPPORT);
    expect(await screen.findByText(/Support users see status only/)).toBeInTheDocument();
    expect(screen.queryByTestId('absent-section')).not.toBeInTheDocument();
  });
});

describe('a field the notice names as unreadable', () => {
  it('is "sent, but could not be read" beside it, not "not provided": an e-mail without a value, an address as a number', async () => {
    show({
      ...BASE,
      identities: {
        ...ADA,
        email: { type: 'string' },
        // An object is read as the JSON text it stands for, a list or a number value shown as its JSON
        // (other-forms.ts); an attribute that is itself a number is neither.
        address: 10115,
      },
    });
    const notice = await screen.findByTestId('unread-fields');
    expect(notice).toHaveTextContent('identities.email');
    expect(notice).toHaveTextContent('identities.address');
    const card = screen.getByRole('heading', { name: 'Identity' }).closest('section')!;
    expect(within(card).getByText('E-mail').nextElementSibling).toHaveTextContent(/^sent, but could not be read \(see above\)$/);
    expect(within(card).getByText('Date of birth').nextElementSibling).toHaveTextContent(/^not in this response$/);
    expect(screen.getByTestId('contact-unread')).toHaveTextContent(/^Address: sent, but could not be read \(see above\)\.$/);
    // The phone was not sent at all: that one is "not provided".
    expect(screen.getByTestId('contact-not-provided')).toHaveTextContent(/^No phone number in this response\.$/);
    expect(document.body).not.toHaveTextContent(/No address/);
  });

  it('attack: an attribute named "email.x" with an unreadable value does not pass for the e-mail, nor "address.x" for the address', async () => {
    show({ ...BASE, identities: { ...ADA, 'email.x': 7, 'address.x': [1] } });
    const notice = await screen.findByTestId('unread-fields');
    expect(notice).toHaveTextContent('identities.email.x');
    const card = screen.getByRole('heading', { name: 'Identity' }).closest('section')!;
    expect(within(card).getByText('E-mail').nextElementSibling).toHaveTextContent(/^not in this response$/);
    expect(screen.getByTestId('contact-not-provided')).toHaveTextContent(/^No address or phone number in this response\.$/);
    expect(screen.queryByTestId('contact-unread')).not.toBeInTheDocument();
  });
});
