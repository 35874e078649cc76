import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AddressCard } from '../../src/app/candidate/address-card.tsx';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { revealBidiControls } from '../../src/kyc/view/text.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { envelope, renderWithProviders, stubApi, testMeta } from './render.tsx';

/** A sandbox candidate with identity data, custom fields and pictures, to put values of other forms in. */
const sandbox = (await sampleCandidates({ now: new Date() })).map((c) => c.record).find((r) => r.refId === 'user-7781')!;

/**
 * Identity and custom-field values the real service sent in other forms than documented (the audit's
 * probe fixtures: an address and phone as objects, parts beyond the documented ones, a phone without its
 * phoneNumber, custom fields holding an object or a list): each is shown, with what is odd about it named.
 */

function show(data: Record<string, unknown>, meta = testMeta()) {
  const record = { status: 'waiting', isArchived: false, blockPassID: 'bp', ...data } as CandidateRecord;
  const path = `/api/candidates/refId/${encodeURIComponent(record.refId!)}`;
  stubApi({ meta, candidates: { [path]: envelope(record) } });
  return renderWithProviders(`/candidates/refId/${encodeURIComponent(record.refId!)}`);
}

const card = async (title: string) => (await screen.findByRole('heading', { name: title })).closest('section')!;

describe('an address and a phone sent as objects, where text holding JSON is documented', () => {
  it('shows both cards with a note that the service sent an object, and names nothing as unread or missing', async () => {
    show({
      refId: 'addr-obj',
      identities: {
        given_name: { type: 'string', value: 'Ada' },
        address: {
          type: 'string',
          value: { address: '1 Rd', city: 'Berlin', country: 'DEU', state: '', postalCode: '10115', extraInfo: '' },
        },
        phone: { type: 'string', value: { countryCode: 'DEU', countryCode2: 'de', phoneNumber: '+4930123456', number: '30123456' } },
      },
    });
    const address = await card('Address');
    expect(address).toHaveTextContent('1 Rd');
    expect(address).toHaveTextContent('10115 Berlin');
    expect(within(address).getByTestId('sent-as-object')).toHaveTextContent('sent this address as an object, not as the text');
    const phone = await card('Phone');
    expect(await within(phone).findByText('+49 30 123456')).toBeInTheDocument();
    expect(within(phone).getByTestId('sent-as-object')).toHaveTextContent('sent this phone number as an object');
    expect(screen.queryByTestId('contact-not-provided')).not.toBeInTheDocument();
    expect(screen.queryByTestId('unread-fields')).not.toBeInTheDocument();
  });
});

describe('parts of an address or phone the documentation does not name', () => {
  it('lists them on the card under their names, in name order', async () => {
    show({
      refId: 'addr-extra',
      identities: {
        address: {
          type: 'string',
          value: JSON.stringify({ address: '1 High St', city: 'Canterbury', country: 'GBR', county: 'Kent', addressLine2: 'Flat 3' }),
        },
        phone: { type: 'string', value: JSON.stringify({ countryCode: 'GBR', phoneNumber: '+447700900123', extension: '42' }) },
      },
    });
    const address = within(await card('Address')).getByTestId('other-parts');
    expect([...address.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['addressLine2 Flat 3', 'county Kent']);
    const phone = within(await card('Phone')).getByTestId('other-parts');
    expect(phone).toHaveTextContent('extension 42');
    // Text as sent, unmarked.
    expect(within(address).queryByTestId('not-text')).not.toBeInTheDocument();
  });

  it('marks a part that is an object or a list as its JSON, not text, as a custom field of that form is (the UX review)', async () => {
    show({
      refId: 'addr-geo',
      identities: {
        address: {
          type: 'string',
          value: JSON.stringify({ city: 'Dover', geo: { lat: 51.2, lng: 1.08 }, lines: ['Flat 3', 'Block B'], floor: 2 }),
        },
      },
    });
    const parts = [
      ...within(await card('Address'))
        .getByTestId('other-parts')
        .querySelectorAll('li'),
    ].map((li) => li.textContent);
    expect(parts).toEqual([
      'floor 2',
      'geo {"lat":51.2,"lng":1.08} (not text: an object, as JSON)',
      'lines ["Flat 3","Block B"] (not text: a list, as JSON)',
    ]);
  });

  it('attack: markup and bidi controls in a part’s name or value are shown as text, the controls made visible', async () => {
    show({
      refId: 'addr-hostile',
      identities: {
        address: {
          type: 'string',
          value: JSON.stringify({ city: 'Paris', '<img src=x onerror=alert(1)>': 'invoice\u202Egpj.exe', 'note\u2066': '<b>bold</b>' }),
        },
      },
    });
    const parts = within(await card('Address')).getByTestId('other-parts');
    expect(parts.querySelector('img, b')).toBeNull();
    expect(parts).toHaveTextContent('<img src=x onerror=alert(1)> invoice⟦U+202E⟧gpj.exe');
    expect(parts).toHaveTextContent('note⟦U+2066⟧ <b>bold</b>');
    expect(parts.textContent).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  it('property, never hides: every key of an address object appears on the card', () => {
    const name = fc.string({ minLength: 1, maxLength: 30 }).filter((key) => key.trim() !== '');
    fc.assert(
      fc.property(
        fc.dictionary(name, fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.boolean()), { minKeys: 1, maxKeys: 6 }),
        (extra) => {
          const { container } = render(<AddressCard raw={JSON.stringify({ city: 'Paris', ...extra })} />);
          const text = container.textContent ?? '';
          for (const key of Object.keys(extra)) expect(text).toContain(revealBidiControls(key));
          cleanup();
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('a phone without its phoneNumber', () => {
  it('shows the national number with its country’s calling code, marked as composed, with no call link', async () => {
    show({
      refId: 'phone-nophonenum',
      identities: { phone: { type: 'string', value: JSON.stringify({ countryCode: 'GBR', countryCode2: 'gb', number: '7700900123' }) } },
    });
    const phone = await card('Phone');
    expect(await within(phone).findByText('+44 7700 900123')).toBeInTheDocument();
    expect(within(phone).getByTestId('phone-composed')).toHaveTextContent(
      'Composed here from the calling code of United Kingdom (+44) and the number sent, 7700900123: no full number given.',
    );
    expect(within(phone).queryByRole('link')).not.toBeInTheDocument();
    expect(phone).not.toHaveTextContent('"number"');
  });

  it('without a country, shows the number as sent and says no full number was given', async () => {
    show({ refId: 'phone-nocountry', identities: { phone: { type: 'string', value: JSON.stringify({ number: '7700900123' }) } } });
    const phone = await card('Phone');
    expect(within(phone).getByTestId('phone-number')).toHaveTextContent(/^7700900123$/);
    expect(within(phone).getByTestId('phone-composed')).toHaveTextContent('no full number given');
  });
});

describe('custom fields holding an object or a list', () => {
  it('shows them in the table as compact JSON marked "not text", not in the unread notice', async () => {
    show({ refId: 'cf-odd', customFields: { n: 5, b: true, obj: { a: 1 }, arr: [1, 2], nul: null } });
    const table = await card('Custom fields');
    const row = (field: string) => table.querySelector(`th[data-field="${field}"]`)!.nextElementSibling!;
    expect(row('obj')).toHaveTextContent('{"a":1} (not text: an object, as JSON)');
    expect(row('arr')).toHaveTextContent('[1,2] (not text: a list, as JSON)');
    expect(row('n')).toHaveTextContent(/^5$/);
    expect(screen.queryByTestId('unread-fields')).not.toBeInTheDocument();
  });

  it('cuts a long one as other long values are cut, with the rest a click away', async () => {
    show({ refId: 'cf-long', customFields: { big: { list: Array.from({ length: 200 }, (_, index) => index) } } });
    const table = await card('Custom fields');
    expect(within(table).getByRole('button', { name: /Show all \(\d+ more characters\)/ })).toBeInTheDocument();
  });
});

describe('identity attributes sent as an object or a list', () => {
  const row = (section: HTMLElement, label: string) => within(section).getByText(label).closest('dt')!.nextElementSibling!;

  it('shows a name on the identity card and an unknown attribute with the others, as JSON marked "not text", with a note, none unread', async () => {
    show({
      ...sandbox,
      refId: 'attr-obj',
      identities: {
        ...sandbox.identities,
        given_name: { type: 'string', value: { first: 'Mehmet', middle: 'Ali' } },
        tax_id: { type: 'string', value: ['TR', 12345678901] },
      },
      customFields: { ...sandbox.customFields, sanctions: { lists: ['OFAC'], hit: false } },
    });
    const identity = await card('Identity');
    expect(row(identity, 'Given name')).toHaveTextContent(
      /^\{"first":"Mehmet","middle":"Ali"\} \(declared string; sent as an object, as JSON\)$/,
    );
    expect(within(identity).getByTestId('sent-in-other-form')).toHaveTextContent(
      /^The KYC service sent one attribute here as an object, not as the text its documentation describes: shown as sent, an object as its JSON,/,
    );
    const others = await card('Other identity attributes');
    // The type it came with, said beside what came: before, "Tax ID (string)" stood over "not text: a list", a contradiction.
    expect(within(others).getByText('Tax ID').closest('dt')).toHaveTextContent(/^Tax ID$/);
    expect(row(others, 'Tax ID')).toHaveTextContent(/^\["TR",12345678901\] \(declared string; sent as a list, as JSON\)$/);
    expect(within(others).getByTestId('sent-in-other-form')).toHaveTextContent('sent one attribute here as a list,');
    const custom = await card('Custom fields');
    expect(custom.querySelector('th[data-field="sanctions"]')!.nextElementSibling).toHaveTextContent(
      '{"lists":["OFAC"],"hit":false} (not text: an object, as JSON)',
    );
    expect(screen.queryByTestId('unread-fields')).not.toBeInTheDocument();
  });

  it('shows an address sent as a list with the other attributes, hidden by the privacy mask, and never says there is none', async () => {
    show(
      {
        refId: 'addr-list',
        identities: { given_name: { type: 'string', value: 'Ada' }, address: { type: 'string', value: ['1 Rd', 'Berlin'] } },
      },
      testMeta({ privacyMaskDefault: true }),
    );
    const others = await card('Other identity attributes');
    expect(document.body).not.toHaveTextContent('1 Rd');
    fireEvent.click(within(others).getByRole('button', { name: /^Address: hidden by the privacy mask/ }));
    expect(row(others, 'Address')).toHaveTextContent('["1 Rd","Berlin"] (declared string; sent as a list, as JSON)');
    expect(screen.getByTestId('contact-not-provided')).toHaveTextContent(/^No phone number in this response\.$/);
    expect(screen.queryByTestId('unread-fields')).not.toBeInTheDocument();
  });

  it('attack: a 1 MB object in a name, deep nesting and __proto__ keys are shown cut, as text, and the page stands', async () => {
    show({
      refId: 'attr-hostile',
      identities: {
        given_name: { type: 'string', value: { first: 'x'.repeat(1_000_000) } },
        // About as deep as the server lets an answer through (MAX_DEPTH, 1000 levels, in answer/json-tokens.ts).
        family_name: JSON.parse(`{"type":"string","value":${'['.repeat(998)}${']'.repeat(998)}}`),
        tax_id: JSON.parse('{"__proto__":{"isAdmin":true},"<img src=x onerror=alert(1)>":"\u202Egpj.exe"}'),
      },
    });
    const identity = await card('Identity');
    // At most the 10,000 characters kept, of which the card shows 120.
    const more = within(identity).getByRole('button', { name: /Show all \(([\d,]+) more characters\)/ });
    expect(Number(/\(([\d,]+)/.exec(more.textContent!)![1]!.replaceAll(',', ''))).toBeLessThanOrEqual(10_001 - 120);
    expect(row(identity, 'Family name')).toHaveTextContent(
      `${'['.repeat(32)}…${']'.repeat(32)} (declared string; sent as a list, as JSON)`,
    );
    const others = await card('Other identity attributes');
    expect(others.querySelector('img')).toBeNull();
    expect(row(others, 'Tax ID')).toHaveTextContent('{"__proto__":{"isAdmin":true},"<img src=x onerror=alert(1)>":"⟦U+202E⟧gpj.exe"}');
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});

describe('identity attributes whose value is a number, true or false, or null', () => {
  const row = (section: HTMLElement, label: string) => within(section).getByText(label).closest('dt')!.nextElementSibling!;

  it('shows each as sent, marked with the type declared and what came, never as a date, none unread', async () => {
    show({
      refId: 'attr-number',
      approvedDate: '2026-01-01T00:00:00.000Z',
      identities: {
        given_name: { type: 'string', value: 'Ada' },
        // Read as a Unix time, 19151210 is 8 Aug 1970; read as digits it is what the service sent.
        dob: { type: 'string', value: 19151210 },
        email: { type: 'string', value: null },
        address: { type: 'string', value: 10115 },
        phone: { type: 'string', value: true },
        // 12345678901234567890 has more digits than a double holds: the number read is a rounding of it.
        tax_id: { type: 'string', value: Number('12345678901234567890') },
      },
    });
    const identity = await card('Identity');
    expect(row(identity, 'Date of birth')).toHaveTextContent(/^19151210 \(declared string; sent as a number\)$/);
    expect(row(identity, 'E-mail')).toHaveTextContent(/^null \(declared string; sent as null\)$/);
    expect(identity).not.toHaveTextContent(/1970|age/);
    const others = await card('Other identity attributes');
    expect(row(others, 'Address')).toHaveTextContent(/^10115 \(declared string; sent as a number\)$/);
    expect(row(others, 'Phone')).toHaveTextContent(/^true \(declared string; sent as true or false\)$/);
    expect(row(others, 'Tax ID')).toHaveTextContent(
      /^12345678901234567168 \(declared string; sent as a number; too long to read exactly, its last digits may differ from those sent\)$/,
    );
    expect(screen.queryByRole('heading', { name: 'Address' })).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/No address|No phone/);
    expect(screen.queryByTestId('unread-fields')).not.toBeInTheDocument();
  });

  it('says under each card the forms that came: a number is not called an object or a list, nor said to be shown as JSON', async () => {
    show({
      refId: 'attr-number-note',
      identities: {
        given_name: { type: 'string', value: 'Ada' },
        dob: { type: 'string', value: 19151210 },
        email: { type: 'string', value: null },
        document_number: { type: 'string', value: Number('12345678901234567890') },
      },
    });
    const identity = await card('Identity');
    // Before: "…sent 2 attributes here in another form, an object or a list, … shown as its JSON" for a number and a null.
    expect(within(identity).getByTestId('sent-in-other-form')).toHaveTextContent(
      /^The KYC service sent 2 attributes here, as a number and as null, not as the text its documentation describes: shown as sent, marked beside the value, never read as text\.$/,
    );
    const others = await card('Other identity attributes');
    expect(row(others, 'Document number')).toHaveTextContent(/^12345678901234567168 \(declared string; sent as a number;/);
    const note = within(others).getByTestId('sent-in-other-form');
    expect(note).toHaveTextContent(/^The KYC service sent one attribute here as a number, not as the text/);
    expect(note).not.toHaveTextContent(/object|list|JSON/);
  });
});

describe('an e-mail holding a direction override', () => {
  it('attack: ana@\u202Emoc.knab is shown as text with the override marked, never as a link that reads one address and writes to another', async () => {
    show({
      refId: 'bidi-mail',
      identities: { given_name: { type: 'string', value: 'Ana' }, email: { type: 'string', value: 'ana@\u202Emoc.knab' } },
    });
    const identity = await card('Identity');
    // Before: <a href="mailto:ana@‮moc.knab">, drawn as "ana@bank.com".
    expect(within(identity).queryByRole('link')).not.toBeInTheDocument();
    expect(identity).toHaveTextContent('ana@⟦U+202E⟧moc.knab');
  });

  it('keeps a plain address a link', async () => {
    show({
      refId: 'plain-mail',
      identities: { given_name: { type: 'string', value: 'Ana' }, email: { type: 'string', value: 'ana@bank.com' } },
    });
    const identity = await card('Identity');
    expect(within(identity).getByRole('link', { name: 'ana@bank.com' })).toHaveAttribute('href', 'mailto:ana@bank.com');
  });
});
