import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { envelope, renderWithProviders, stubApi, testMeta } from './render.tsx';

/**
 * A picture keeps the turn given to it whichever pane shows it. The UX review turned Eszter Kovács's
 * national ID upright (`r`), pressed Compare, as her review note asks ("compare it with the selfie"), and
 * met it sideways again: each pane kept its own turn, and Compare's panes started at 0°.
 */
const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const eszter = samples.find((r) => r.refId === 'hu-2026-0117')!;
beforeEach(() => localStorage.clear());

async function viewerOn(picture: string) {
  const user = userEvent.setup();
  stubApi({ meta: testMeta(), candidates: { [`/api/candidates/refId/${eszter.refId}`]: envelope(eszter) } });
  renderWithProviders(`/candidates/refId/${eszter.refId}`);
  await user.click(await screen.findByRole('button', { name: `Open a larger view of the ${picture}` }));
  const dialog = await screen.findByRole('dialog', { name: /of Kovács Eszter$/ });
  /** Each pane shown, as "picture:turn", in the page's order. */
  const panes = () =>
    [...dialog.querySelectorAll<HTMLElement>('[data-pane]')].map(
      (pane) => `${pane.dataset.pane}:${pane.querySelector('img')!.dataset.rotation}`,
    );
  const activeName = () => dialog.querySelector<HTMLElement>('[data-active="true"]')!.dataset.pane!;
  return { user, dialog, panes, activeName };
}

// Each run of the property renders the viewer and drives it by up to eight actions: 30 s for the ten runs on
// a machine whose two cores are shared with other work, so the time allowed is generous (no bound is asserted).
describe("a picture's turn in the viewer", { timeout: 180_000 }, () => {
  it('is kept when Compare opens, turned further there, and kept when Compare closes', async () => {
    const { user, dialog, panes } = await viewerOn('national ID');
    await user.keyboard('r');
    expect(panes()).toEqual(['national_id:90']);
    await user.click(within(dialog).getByRole('button', { name: 'Compare' }));
    // Before: 'national_id:0', the ID sideways again beside the selfie.
    expect(panes()).toEqual(['selfie:0', 'national_id:90']);
    expect(within(dialog).getByRole('group', { name: /^Right: National ID, \d+ %, turned 90°$/ })).toBeInTheDocument();
    await user.keyboard('r');
    expect(panes()).toEqual(['selfie:0', 'national_id:180']);
    await user.click(within(dialog).getByRole('button', { name: 'Compare' }));
    expect(panes()).toEqual(['national_id:180']);
  });

  it('is the sum of the turns given to that picture, through Compare, paging and either side (property)', async () => {
    const action = fc.constantFrom('r', 'R', 'compare', 'next', 'left', 'right');
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 8 }), async (actions) => {
        const { user, dialog, panes, activeName } = await viewerOn('selfie');
        const turns: Record<string, number> = {};
        try {
          for (const act of actions) {
            if (act === 'r' || act === 'R') {
              const name = activeName();
              turns[name] = ((turns[name] ?? 0) + (act === 'r' ? 90 : 270)) % 360;
              await user.keyboard(act);
            } else if (act === 'compare') await user.click(within(dialog).getByRole('button', { name: 'Compare' }));
            else if (act === 'next') await user.click(within(dialog).getByRole('button', { name: 'Next picture' }));
            else {
              const side = dialog.querySelectorAll('[data-pane]')[act === 'left' ? 0 : 1];
              if (side) fireEvent.pointerDown(side);
            }
            // The keys act on the pane with the focus, as a reviewer's would on the side they chose.
            dialog.querySelector<HTMLElement>('[data-active="true"] [role="group"]')!.focus();
            for (const shown of panes()) {
              const [name, turn] = shown.split(':');
              expect(`${name}:${turn}`).toBe(`${name}:${turns[name!] ?? 0}`);
            }
          }
        } finally {
          cleanup();
        }
      }),
      { numRuns: 10, seed: 20261130 },
    );
  });
});
