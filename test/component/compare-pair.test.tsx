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
