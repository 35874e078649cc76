import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiMeta } from '../../src/kyc/contract/api.ts';
import { DEFAULT_REPLIES } from '../../src/kyc/contract/replies.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { envelope, renderWithProviders, stubApi, testMeta } from './render.tsx';

/**
 * The viewer's Compare opens on the pair a reviewer would hold side by side: the picture shown beside
 * its best counterpart, or beside the picture a note names. Eszter Kovács has a selfie, a passport and a
 * national ID, and the sandbox's review note "Document check flagged the national ID photo: compare it
 * with the selfie."
 */
const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const eszter = samples.find((r) => r.refId === 'hu-2026-0117')!;
const OWNER = 'Kovács Eszter';
beforeEach(() => localStorage.clear());

/** Eszter with other notes (none: only her risk level) and other pictures. */
function eszterWith(change: { note?: string; without?: string; add?: Record<string, string> }): CandidateRecord {
  const identities = { ...eszter.identities! };
  if (change.without) delete identities[change.without];
  for (const [name, like] of Object.entries(change.add ?? {})) identities[name] = identities[like]!;
  return { ...eszter, identities, customFields: { riskLevel: 'medium', ...(change.note ? { reviewNote: change.note } : {}) } };
}

async function compareFrom(record: CandidateRecord, picture: string, meta: Partial<ApiMeta> = {}) {
  const user = userEvent.setup();
  stubApi({ meta: testMeta(meta), candidates: { [`/api/candidates/refId/${record.refId}`]: envelope(record) } });
  renderWithProviders(`/candidates/refId/${record.refId}`);
  await user.click(await screen.findByRole('button', { name: `Open a larger view of the ${picture}` }));
  const dialog = await screen.findByRole('dialog', { name: new RegExp(` of ${OWNER}$`) });
  await user.click(within(dialog).getByRole('button', { name: 'Compare' }));
  expect(dialog).toHaveAccessibleName('Compare pictures');
  const side = (name: 'Left' | 'Right') =>
    (within(dialog).getByRole('combobox', { name: `${name} picture` }) as HTMLSelectElement).selectedOptions[0]!.text;
  const active = dialog.querySelector('[data-active="true"]')!.getAttribute('data-pane');
  return { pair: [side('Left'), side('Right')], active };
}

describe('the pair Compare opens on', () => {
  it('puts the selfie beside the identity document shown, in page order, the keys still on the document', async () => {
    expect(await compareFrom(eszterWith({}), 'national ID')).toEqual({ pair: ['Selfie', 'National ID'], active: 'national_id' });
  });

  it('puts the first identity document beside the selfie', async () => {
    expect(await compareFrom(eszterWith({}), 'selfie')).toEqual({ pair: ['Selfie', 'Passport'], active: 'selfie' });
  });

  it("puts the picture the service's note names beside the selfie: the flagged national ID, not the passport", async () => {
    expect(await compareFrom(eszter, 'selfie')).toEqual({ pair: ['Selfie', 'National ID'], active: 'selfie' });
  });

  it("does not follow the hand-off's internal note, which only support users (who see no pictures) read", async () => {
    const replyTemplates = { ...DEFAULT_REPLIES, inreview: { reply: 'We are on it.', note: 'Hold the national ID against the selfie.' } };
    expect(await compareFrom(eszterWith({}), 'selfie', { replyTemplates })).toEqual({ pair: ['Selfie', 'Passport'], active: 'selfie' });
  });

  it('without a selfie, puts an identity document beside the proof of address shown', async () => {
    const record = eszterWith({ without: 'selfie', add: { proof_of_address: 'passport' } });
    expect(await compareFrom(record, 'proof of address')).toEqual({ pair: ['Passport', 'Proof of address'], active: 'proof_of_address' });
  });

  it('without a selfie, puts the two documents side by side', async () => {
    expect(await compareFrom(eszterWith({ without: 'selfie' }), 'national ID')).toEqual({
      pair: ['Passport', 'National ID'],
      active: 'national_id',
    });
  });
});

/**
 * Paging one side of Compare passes over the picture the other side shows: the review saw → on the right
 * turn "Selfie | National ID" into "Selfie | Selfie", two copies of one picture where two were to be held
 * against each other.
 */
describe('paging one side of Compare', () => {
  async function comparing(record: CandidateRecord = eszter) {
    const user = userEvent.setup();
    stubApi({ meta: testMeta(), candidates: { [`/api/candidates/refId/${record.refId}`]: envelope(record) } });
    renderWithProviders(`/candidates/refId/${record.refId}`);
    await user.click(await screen.findByRole('button', { name: 'Open a larger view of the selfie' }));
    const dialog = await screen.findByRole('dialog', { name: new RegExp(` of ${OWNER}$`) });
    await user.click(within(dialog).getByRole('button', { name: 'Compare' }));
    const picker = (name: 'Left' | 'Right') => within(dialog).getByRole('combobox', { name: `${name} picture` }) as HTMLSelectElement;
    const pair = () => [picker('Left').selectedOptions[0]!.text, picker('Right').selectedOptions[0]!.text].join(' | ');
    /** The pairs seen after each of `count` presses of `key`, with the focus on `side`'s picture. */
    const press = async (side: 'Left' | 'Right', key: 'ArrowRight' | 'ArrowLeft', count: number) => {
      within(dialog)
        .getByRole('group', { name: new RegExp(`^${side}: `) })
        .focus();
      const seen: string[] = [];
      for (let i = 0; i < count; i++) {
        await user.keyboard(`{${key}}`);
        seen.push(pair());
      }
      return seen;
    };
    return { user, dialog, picker, pair, press };
  }

  it('→ and ← on the right pass over the selfie on the left', async () => {
    const { pair, press } = await comparing();
    expect(pair()).toBe('Selfie | National ID');
    expect(await press('Right', 'ArrowRight', 3)).toEqual(['Selfie | Passport', 'Selfie | National ID', 'Selfie | Passport']);
    expect(await press('Right', 'ArrowLeft', 3)).toEqual(['Selfie | National ID', 'Selfie | Passport', 'Selfie | National ID']);
  });

  it('→ and ← on the left pass over the national ID on the right', async () => {
    const { press } = await comparing();
    expect(await press('Left', 'ArrowRight', 3)).toEqual(['Passport | National ID', 'Selfie | National ID', 'Passport | National ID']);
    expect(await press('Left', 'ArrowLeft', 3)).toEqual(['Selfie | National ID', 'Passport | National ID', 'Selfie | National ID']);
  });

  it("the toolbar's Next and Previous pass over it too", async () => {
    const { user, dialog, pair } = await comparing();
    const seen: string[] = [];
    for (const name of ['Next picture', 'Next picture', 'Previous picture', 'Previous picture']) {
      await user.click(within(dialog).getByRole('button', { name }));
      seen.push(pair());
    }
    // The keys act on the left, the side of the picture that was shown.
    expect(seen).toEqual(['Passport | National ID', 'Selfie | National ID', 'Passport | National ID', 'Selfie | National ID']);
  });

  it("each list offers the other side's picture only as where it is, not to choose", async () => {
    const { user, picker, pair } = await comparing();
    const offered = (name: 'Left' | 'Right') => [...picker(name).options].map((option) => [option.text, option.disabled]);
    expect(offered('Left')).toEqual([
      ['Selfie', false],
      ['Passport', false],
      ['National ID (right)', true],
    ]);
    expect(offered('Right')).toEqual([
      ['Selfie (left)', true],
      ['Passport', false],
      ['National ID', false],
    ]);
    await user.selectOptions(picker('Right'), 'Passport');
    expect(pair()).toBe('Selfie | Passport');
    expect(offered('Left').map(([, disabled]) => disabled)).toEqual([false, true, false]);
  });

  it('with two pictures, a side has no other to page to: the buttons are off and the keys leave the pair', async () => {
    const { dialog, pair, press } = await comparing(eszterWith({ without: 'passport' }));
    expect(pair()).toBe('Selfie | National ID');
    for (const name of ['Next picture', 'Previous picture']) expect(within(dialog).getByRole('button', { name })).toBeDisabled();
    expect(await press('Right', 'ArrowRight', 1)).toEqual(['Selfie | National ID']);
    expect(await press('Left', 'ArrowLeft', 1)).toEqual(['Selfie | National ID']);
  });
});
