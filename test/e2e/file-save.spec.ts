import { expect, test, needsServers } from './fixtures.ts';
import { auditLinesOf, E2E_PORTS } from './servers.ts';
import { HOSTILE_REF_ID } from '../fixtures/hostile-candidate.mjs';

needsServers('hostile');

const base = `http://127.0.0.1:${E2E_PORTS.hostile}`;

/**
 * The compliance lead's finding, on the built app: every "Download the …" of the hostile candidate's
 * picture cards (an SVG, a page of HTML, a PDF, random bytes, a TIFF…) saved a file and left no audit line.
 * Each save now writes its line (`what: "file"`, the attribute and its type) before the file is saved.
 */
test('attack: saving a document file leaves no trace in the audit log', async ({ page }) => {
  await page.goto(`${base}/candidates/refId/${encodeURIComponent(HOSTILE_REF_ID)}`);
  // By their label in CSS, not by role: this page holds a dozen 100 kB values, and each poll of a role query
  // computes every element's accessible name over them, seconds a poll on a loaded machine (the buttons were
  // in the page when a 20 s wait for them by role ran out).
  const buttons = page.locator('button[aria-label^="Download the "]');
  await expect(buttons.first()).toBeVisible();
  const count = await buttons.count();
  expect(count).toBeGreaterThanOrEqual(4);
  const saved: string[] = [];
  for (let i = 0; i < count; i++) {
    const download = page.waitForEvent('download');
    await buttons.nth(i).click();
    saved.push((await download).suggestedFilename());
  }
  expect(saved).toContain('proof_of_address.pdf');
  const lines = auditLinesOf('hostile').filter((line) => line.kind === 'export' && line.what === 'file' && line.id === HOSTILE_REF_ID);
  expect(lines).toHaveLength(count);
  expect(lines).toContainEqual(expect.objectContaining({ lookupKind: 'refId', attribute: 'proof_of_address', fileType: 'PDF' }));
});
