import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { recordForScope } from '../../src/server/sandbox/sandbox.ts';
import { envelope, json, renderWithProviders, stubApi } from './render.tsx';

const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const byRef = (refId: string) => samples.find((r) => r.refId === refId)!;
const amelie = byRef('c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10');

function show(record: CandidateRecord, kind: 'refId' | 'recordId' = 'refId') {
  const id = (record[kind] ?? '') as string;
  const path = `/api/candidates/${kind}/${encodeURIComponent(id)}`;
  // A document file saved from a picture card writes its audit line first (file-save.test.tsx).
  stubApi({ candidates: { [path]: envelope(record), '/api/export': () => json({ status: 'success' }) } });
  return renderWithProviders(`/candidates/${kind}/${encodeURIComponent(id)}`);
}

describe('candidate header', () => {
  it('shows the name, the status label, identifiers with copy buttons and the submission count', async () => {
    show(amelie);
    expect(await screen.findByRole('heading', { level: 1, name: 'Amélie Dubois-Léger' })).toBeInTheDocument();
    expect(screen.getAllByText('Approved')[0]).toBeInTheDocument();
    expect(screen.queryByText('Archived')).not.toBeInTheDocument();
    for (const value of [amelie.refId!, amelie.recordId!, amelie.blockPassID!]) expect(screen.getByText(value)).toBeInTheDocument();
    expect(screen.getByText('Submissions').nextElementSibling).toHaveTextContent('1');
  });

  it('copies an identifier to the clipboard and says so', async () => {
    const user = userEvent.setup();
    show(amelie);
    await screen.findByRole('heading', { level: 1 });
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copy recordId' }));
    expect(writeText).toHaveBeenCalledWith(amelie.recordId);
    expect(within(screen.getByRole('button', { name: 'Copy recordId' })).getByText('Copied')).toBeInTheDocument();
  });

  it('falls back to the refId when there is no name, and shows an unknown status by its raw value', async () => {
    show({ status: 'on_hold_custom', refId: 'ref-without-name', isArchived: false, blockPassID: 'bp' });
    expect(await screen.findByRole('heading', { level: 1, name: 'ref-without-name' })).toBeInTheDocument();
    const badge = screen.getAllByText('on_hold_custom')[0]!.closest('[data-status]')!;
    expect(badge).toHaveAttribute('data-status', 'on_hold_custom');
    expect(badge.className).toContain('slate');
  });
});

describe('status timeline', () => {
  it('lists every status date by time, marks the current one and says how long each step took', async () => {
    const record = byRef('support-ticket-4410');
    show(record);
    const list = await screen.findByRole('list', { name: 'Status changes, oldest first' });
    const steps = within(list).getAllByRole('listitem');
    expect(steps.map((li) => li.getAttribute('data-status'))).toEqual(['waiting', 'inreview', 'approved', 'review_requested']);
    expect(steps[3]).toHaveAttribute('aria-current', 'step');
    expect(steps[3]).toHaveTextContent('Current status');
    expect(steps[1]).toHaveTextContent('In review 40 s after submission');
    // Each step says what the one before it marks, not its label ("after in review", "after approved").
    expect(steps[2]).toHaveTextContent(/^Approved.* after the review began$/);
    expect(steps[3]).toHaveTextContent(/^Review requested.* after approval$/);
    const time = steps[0]!.querySelector('time')!;
    expect(time.getAttribute('dateTime')).toBe(record.waitingDate);
    expect(steps[0]).toHaveTextContent(/In UTC: .* UTC|In your time zone: /);
    expect(steps[0]).toHaveTextContent('(60 days ago)');
  });

  it('shows the whole history when the dates come in other ISO 8601 forms, and the date of on_hold written on_holdDate as its current step', async () => {
    show({
      status: 'on_hold',
      refId: 'ref-forms',
      waitingDate: '2024-03-01T10:00:00.000+0000',
      inreviewDate: '2024-03-01T12:00Z',
      approvedDate: '2024-03-01 11:00:00.000Z',
      rejectedDate: '2024-03-01T13:00:00.123456z',
      on_holdDate: '2024-03-01T19:30:00.000+0530',
    });
    const list = await screen.findByRole('list', { name: 'Status changes, oldest first' });
    const steps = within(list).getAllByRole('listitem');
    expect(steps.map((li) => [li.getAttribute('data-status'), li.querySelector('time')?.getAttribute('dateTime')])).toEqual([
      ['waiting', '2024-03-01T10:00:00.000Z'],
      ['approved', '2024-03-01T11:00:00.000Z'],
      ['inreview', '2024-03-01T12:00:00.000Z'],
      ['rejected', '2024-03-01T13:00:00.123Z'],
      ['on_hold', '2024-03-01T14:00:00.000Z'],
    ]);
    expect(steps[4]).toHaveAttribute('aria-current', 'step');
    expect(screen.queryByText(/ISO 8601 timestamp expected/)).not.toBeInTheDocument();
  });

  it('shows willArchiveAtDate as an upcoming event', async () => {
    show(byRef('f47ac10b-58cc-4372-a567-0e02b2c3d479'));
    const list = await screen.findByRole('list', { name: 'Status changes, oldest first' });
    const last = within(list).getAllByRole('listitem').at(-1)!;
    expect(last).toHaveAttribute('data-status', 'will-archive');
    expect(last).toHaveTextContent('Identity data will be archived');
    expect(last).toHaveTextContent('in 20 days');
  });
});

describe('identity sections', () => {
  it('shows custom fields, identity with age, the decoded address and the formatted phone', async () => {
    show(amelie);
    const fields = await screen.findByRole('table');
    expect(within(fields).getByRole('rowheader', { name: 'Customer tier' }).nextElementSibling).toHaveTextContent('gold');
    // Decision fields are in the summary instead.
    expect(within(fields).queryByRole('rowheader', { name: 'Risk level' })).not.toBeInTheDocument();
    expect(screen.getByText('Dubois-Léger')).toBeInTheDocument();
    expect(screen.getByText(/July 14, 1988|14 July 1988/)).toBeInTheDocument();
    expect(screen.getByText(/\(age \d+\)/)).toBeInTheDocument();
    const address = screen.getByRole('heading', { name: 'Address' }).closest('section')!;
    expect(address).toHaveTextContent('18 rue des Martyrs');
    expect(address).toHaveTextContent('75009 Paris');
    expect(address).toHaveTextContent('France (FRA)');
    const phone = await screen.findByText('+33 6 12 34 56 78');
    expect(phone.closest('a')).toHaveAttribute('href', 'tel:+33612345678');
  });

  it('shows raw address and phone text with a notice when they are not JSON, and a raw date of birth', async () => {
    show({
      status: 'waiting',
      refId: 'raw-values',
      isArchived: false,
      blockPassID: 'bp',
      identities: {
        address: { type: 'string', value: '12 Main St, Springfield' },
        phone: { type: 'string', value: '{"phoneNumber": 12' },
        dob: { type: 'string', value: '15.06.1987' },
        occupation: { type: 'string', value: 'Engineer' },
      },
    });
    expect(await screen.findByText('12 Main St, Springfield')).toBeInTheDocument();
    expect(screen.getByText(/The address is not valid JSON/)).toBeInTheDocument();
    expect(screen.getByText(/The phone number is not valid JSON/)).toBeInTheDocument();
    expect(screen.getByText('15.06.1987')).toBeInTheDocument();
    // Dotted, it can only be read day first: that date is said beside the raw text, never taken as read.
    expect(
      screen.getByText(
        /^\(shown as received: not in a form this page reads \(MM\/DD\/YYYY or YYYY-MM-DD\); day first \(DD\.MM\.YYYY\) it is June 15, 1987, age \d+\)$/,
      ),
    ).toBeInTheDocument();
    // An attribute with no card of its own is shown generically, by type.
    const others = screen.getByRole('heading', { name: 'Other identity attributes' }).closest('section')!;
    expect(others).toHaveTextContent('Occupation (string)');
    expect(others).toHaveTextContent('Engineer');
  });
});

describe('address and phone with a part of another kind', () => {
  it('show every part that could be read, and name the one that could not, not its value', async () => {
    show({
      status: 'waiting',
      refId: 'odd-parts',
      isArchived: false,
      blockPassID: 'bp',
      identities: {
        address: {
          type: 'string',
          value: '{"address":"Invalidenstr. 117","postalCode":10115,"city":"Berlin","state":["secret-x"],"country":"DEU"}',
        },
        phone: { type: 'string', value: '{"countryCode":"DEU","phoneNumber":"+4915112345678","number":{"n":"secret-y"}}' },
      },
    });
    const address = (await screen.findByRole('heading', { name: 'Address' })).closest('section')!;
    expect(address).toHaveTextContent('Invalidenstr. 117');
    expect(address).toHaveTextContent('10115 Berlin');
    expect(address).toHaveTextContent('Germany (DEU)');
    expect(within(address).getByTestId('unread-parts')).toHaveTextContent('state (text expected, a list found)');
    const phone = screen.getByRole('heading', { name: 'Phone' }).closest('section')!;
    expect(within(phone).getByTestId('phone-number').textContent?.replace(/\D/g, '')).toBe('4915112345678');
    expect(within(phone).getByTestId('unread-parts')).toHaveTextContent('number (text expected, an object found)');
    expect(document.body).not.toHaveTextContent('secret');
  });
});

describe('address and phone, one of them missing (UX review: "show what is there and name what is missing")', () => {
  const withContact = (identities: CandidateRecord['identities']): CandidateRecord => ({
    status: 'waiting',
    refId: 'one-of-two',
    isArchived: false,
    blockPassID: 'bp',
    identities: { given_name: { type: 'string', value: 'Ines' }, ...identities },
  });
  const address = amelie.identities!.address!;
  const phone = amelie.identities!.phone!;

  it('a phone without an address: the phone card, and a line that names the address as not provided', async () => {
    show(withContact({ phone }));
    expect(await screen.findByText('+33 6 12 34 56 78')).toBeInTheDocument();
    expect(screen.getByTestId('contact-not-provided')).toHaveTextContent(/^No address in this response\.$/);
    expect(screen.queryByRole('heading', { name: 'Address' })).not.toBeInTheDocument();
  });

  it('an address without a phone: the address card, and a line that names the phone number as not provided', async () => {
    show(withContact({ address }));
    const card = (await screen.findByRole('heading', { name: 'Address' })).closest('section')!;
    expect(card).toHaveTextContent('18 rue des Martyrs');
    expect(screen.getByTestId('contact-not-provided')).toHaveTextContent(/^No phone number in this response\.$/);
    expect(screen.queryByRole('heading', { name: 'Phone' })).not.toBeInTheDocument();
  });

  it('neither: one line names both; both there: no line', async () => {
    show(withContact({}));
    expect(await screen.findByTestId('contact-not-provided')).toHaveTextContent(/^No address or phone number in this response\.$/);
    cleanup();
    show(amelie);
    expect(await screen.findByText('+33 6 12 34 56 78')).toBeInTheDocument();
    expect(screen.queryByTestId('contact-not-provided')).not.toBeInTheDocument();
  });

  it('a status-level answer, or an archived record, names nothing missing: identity data is not expected there', async () => {
    show(recordForScope(amelie, 'status'));
    expect(await screen.findByText(/This answer has no identity data, custom fields or certificates/)).toBeInTheDocument();
    expect(screen.queryByTestId('contact-not-provided')).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/No (address|phone)/);
    cleanup();
    show(byRef('legacy-2019-0031'));
    expect(await screen.findByText(/Identity data was archived on the service/)).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/No (address|phone)/);
  });
});

describe('date of birth', () => {
  const withDob = (value: string): CandidateRecord => ({
    status: 'waiting',
    refId: `dob-${value}`,
    isArchived: false,
    blockPassID: 'bp',
    identities: { dob: { type: 'string', value } },
  });
  const dobRow = async () => (await screen.findByText('Date of birth')).nextElementSibling!;

  it.each(['1990-04-23', '1990-04-23T00:00:00.000Z'])('reads %s as 23 April 1990, with the age and no flag', async (value) => {
    show(withDob(value));
    const row = await dobRow();
    expect(row).toHaveTextContent(/^(April 23, 1990|23 April 1990) \(age \d+\)$/);
    const today = new Date();
    const age = today.getFullYear() - 1990 - (today.getMonth() < 3 || (today.getMonth() === 3 && today.getDate() < 23) ? 1 : 0);
    expect(row).toHaveTextContent(`(age ${age})`);
    expect(row).not.toHaveTextContent('shown as received');
  });

  it('a date that reads both ways is read month first, and the day-first date is named beside it (facts review, 29 November)', async () => {
    show(withDob('03/04/1987'));
    const row = await dobRow();
    expect(row).toHaveTextContent(/^(March 4, 1987|4 March 1987) \(age \d+\)/);
    expect(within(row as HTMLElement).getByTestId('dob-both-ways')).toHaveTextContent(
      /^Sent as 03\/04\/1987: read month first, as documented; day first it would be (April 3, 1987|3 April 1987)\.$/,
    );
  });

  it('a date that only reads day first is shown as received, with the day-first date: never "a date that does not exist"', async () => {
    show(withDob('25/06/1987'));
    const row = await dobRow();
    expect(row).toHaveTextContent(
      /^25\/06\/1987 \(shown as received: not a date read month first \(MM\/DD\/YYYY\); day first \(DD\/MM\/YYYY\) it is (June 25, 1987|25 June 1987), age \d+\)$/,
    );
    expect(row).not.toHaveTextContent('exists');
  });

  it('shows a date that does not exist as received, and says so', async () => {
    show(withDob('1990-02-30'));
    const row = await dobRow();
    expect(row).toHaveTextContent('1990-02-30 (shown as received: not a date that exists)');
    expect(row).not.toHaveTextContent(/age/);
  });
});

describe('pictures', () => {
  it('shows each raster picture from an object URL, labelled, and revokes the URL when the page goes', async () => {
    const { unmount } = show(amelie);
    const selfie = await screen.findByRole('img', { name: 'Selfie of Amélie Dubois-Léger' });
    expect(selfie.getAttribute('src')).toMatch(/^blob:/);
    expect(screen.getByRole('img', { name: 'Proof of address of Amélie Dubois-Léger' })).toBeInTheDocument();
    expect(screen.getByText(/^PNG · /)).toBeInTheDocument();
    expect(document.body.innerHTML).not.toContain('data:image');
    const created = vi.mocked(URL.createObjectURL).mock.results.map((r) => r.value as string);
    unmount();
    const revoked = vi.mocked(URL.revokeObjectURL).mock.calls.map(([url]) => url);
    expect(created.filter((url) => !revoked.includes(url))).toEqual([]);
  });

  it('opens the viewer on click, on the object URL of the thumbnail, and closes back to the thumbnail', async () => {
    const user = userEvent.setup();
    show(amelie);
    const thumbnail = await screen.findByRole('button', { name: 'Open a larger view of the passport' });
    const thumbnailUrl = within(thumbnail).getByRole('img').getAttribute('src');
    const created = vi.mocked(URL.createObjectURL).mock.calls.length;
    await user.click(thumbnail);
    const dialog = await screen.findByRole('dialog', { name: 'Passport of Amélie Dubois-Léger' });
    expect(dialog).toHaveAttribute('open');
    expect(within(dialog).getByAltText('Passport of Amélie Dubois-Léger')).toHaveAttribute('src', thumbnailUrl);
    expect(vi.mocked(URL.createObjectURL).mock.calls.length).toBe(created);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(thumbnail).toHaveFocus();
  });

  it.each([
    ['SVG', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'],
    ['HTML', '<html><script>alert(1)</script></html>'],
    ['PDF', '%PDF-1.7 fake'],
    ['TIFF', 'II*\u0000\u0008\u0000\u0000\u0000'],
    ['an unknown type', '\u0000\u0001garbage bytes'],
  ])('never renders %s inline: a card gives the type and size', async (label, content) => {
    show({
      status: 'waiting',
      refId: 'hostile-picture',
      isArchived: false,
      blockPassID: 'bp',
      identities: { passport: { type: 'base64', value: Buffer.from(content).toString('base64') } },
    });
    const kind = label === 'an unknown type' ? label : `type ${label}`;
    expect(await screen.findByText(`A file of ${kind} (not shown) · ${content.length} B`)).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /Passport/ })).not.toBeInTheDocument();
  });

  it('attack: an SVG picture is never put in an <img>; its card names the type, and Download saves its own bytes as octets', async () => {
    const user = userEvent.setup();
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"><filter id="f"><feTurbulence numOctaves="10"/></filter>${'<rect filter="url(#f)"/>'.repeat(50)}</svg>`;
    show({
      status: 'waiting',
      refId: 'heavy-svg',
      isArchived: false,
      blockPassID: 'bp',
      identities: { national_id: { type: 'base64', value: Buffer.from(svg).toString('base64') } },
    });
    const card = (await screen.findByText(/^A file of type SVG \(not shown\)/)).closest('figure')!;
    expect(card.querySelector('img')).toBeNull();
    expect(vi.mocked(URL.createObjectURL)).not.toHaveBeenCalledWith(expect.objectContaining({ type: 'image/svg+xml' }));
    const created = vi.mocked(URL.createObjectURL).mock.calls.length;
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    try {
      await user.click(within(card).getByRole('button', { name: 'Download the national ID (SVG)' }));
      await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
      const link = click.mock.contexts[0] as HTMLAnchorElement;
      expect(link.download).toBe('national_id.svg');
      expect(link.href).toMatch(/^blob:/);
      const saved = vi.mocked(URL.createObjectURL).mock.calls[created]![0] as Blob;
      expect(saved.type).toBe('application/octet-stream');
      expect(Buffer.from(await saved.arrayBuffer()).toString()).toBe(svg);
    } finally {
      click.mockRestore();
    }
  });

  it('saves a page of HTML found in a picture attribute as .bin, which nothing opens by itself', async () => {
    const user = userEvent.setup();
    show({
      status: 'waiting',
      refId: 'html-picture',
      isArchived: false,
      blockPassID: 'bp',
      identities: { '../selfie<x>': { type: 'base64', value: Buffer.from('<!doctype html><script>alert(1)</script>').toString('base64') } },
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    try {
      await user.click(await screen.findByRole('button', { name: /^Download the .* \(HTML\)$/ }));
      await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
      expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('_selfie_x_.bin');
    } finally {
      click.mockRestore();
    }
  });
});

describe('certificates', () => {
  it('shows one panel per certificate, titled from its slug, with the pretty JSON-LD one click away', async () => {
    const user = userEvent.setup();
    show(amelie);
    const onfido = await screen.findByRole('article', { name: 'Onfido' });
    expect(within(onfido).getByText('onfido-service-cert')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'ComplyAdvantage' })).toBeInTheDocument();
    const raw = within(onfido).getByText('Raw JSON').closest('details')!;
    expect(raw).not.toHaveAttribute('open');
    await user.click(within(onfido).getByText('Raw JSON'));
    expect(raw).toHaveAttribute('open');
    expect(raw.querySelector('pre')!.textContent).toContain('\n  "@context": [');
    expect(within(raw).getByRole('button', { name: 'Copy Onfido certificate' })).toBeInTheDocument();
  });

  it('shows a certificate that is not JSON as raw text with a notice', async () => {
    show(byRef('a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d'));
    const panel = await screen.findByRole('article', { name: 'Onfido' });
    expect(within(panel).getByText('not valid JSON')).toBeInTheDocument();
    expect(within(panel).getByText(/This certificate is not valid JSON/)).toBeInTheDocument();
    // The same chip as the decision summary's for it: one state, one word and one colour.
    const summary = screen.getByRole('region', { name: 'Decision summary' });
    const summaryChip = [...summary.querySelectorAll('[data-tone]')].find((chip) => chip.textContent?.includes('Onfido'))!;
    const panelChip = panel.querySelector('[data-tone]')!;
    expect(panelChip).toHaveAttribute('data-tone', summaryChip.getAttribute('data-tone')!);
    expect(panelChip).toHaveAttribute('title', summaryChip.getAttribute('title')!);
    expect(panel.querySelector('pre')!.textContent).toContain(',,');
  });
});

describe('levels of detail', () => {
  it('says once that the answer has no identity data, custom fields or certificates, instead of empty sections', async () => {
    show(recordForScope(amelie, 'status'));
    expect(
      await screen.findByText(
        'This answer has no identity data, custom fields or certificates: the API key may be status-only, or the candidate has none.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: amelie.refId! })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Status history' })).toBeInTheDocument();
    for (const name of ['Identity', 'Custom fields', 'Pictures', 'Certificates']) {
      expect(screen.queryByRole('heading', { name })).not.toBeInTheDocument();
    }
  });

  it('says that an archived record keeps status history and certificates', async () => {
    show(byRef('legacy-2019-0031'));
    expect(
      await screen.findByText(/Identity data was archived on the service\. The status history and certificates remain\./),
    ).toBeInTheDocument();
    expect(screen.getAllByText('Archived').length).toBeGreaterThan(0);
    expect(screen.getByRole('heading', { name: 'Certificates' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Identity' })).not.toBeInTheDocument();
  });

  it('says when identities come without pictures', async () => {
    show(recordForScope(amelie, 'identity'));
    expect(await screen.findByText(/No pictures in this response/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Identity' })).toBeInTheDocument();
  });
});
