import { afterEach, describe, expect, it } from 'vitest';
import { batchFileName } from '../../src/kyc/view/batch-export.ts';
import { downloadName } from '../../src/kyc/contract/download-name.ts';

/** The one name rule of the app's downloads: the batch page's CSV and the audit page's export alike. */
describe('a download’s name', () => {
  const original = process.env.TZ;
  afterEach(() => {
    if (original === undefined) delete process.env.TZ;
    else process.env.TZ = original;
  });
  const instant = new Date('2026-11-22T14:03:00Z');

  it.each([
    ['UTC', 'audit-2026-11-22-1403+0000.csv'],
    ['Europe/Berlin', 'audit-2026-11-22-1503+0100.csv'],
    ['Asia/Kolkata', 'audit-2026-11-22-1933+0530.csv'],
    ['America/New_York', 'audit-2026-11-22-0903-0500.csv'],
  ])('says the local time and its offset in %s', (zone, name) => {
    process.env.TZ = zone;
    expect(downloadName('audit', instant)).toBe(name);
  });

  it('is the batch page’s rule too: the same instant, the same clock', () => {
    process.env.TZ = 'America/New_York';
    expect(batchFileName('refId', instant)).toBe('candidates-refId-2026-11-22-0903-0500.csv');
  });
});
