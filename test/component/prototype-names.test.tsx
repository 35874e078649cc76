import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { liveEventLabel } from '../../src/app/live/live-event-text.ts';
import { envelope, renderWithProviders, stubApi } from './render.tsx';

/**
 * Names a record (or a webhook) gives that are also Object.prototype's: a label looked up as `TABLE[name]`
 * read through to the prototype, and an attribute named `constructor`, `__proto__`, `toString` or
 * `hasOwnProperty` (or a certificate so named) blanked the whole candidate page: "This page could not be
 * shown (e.replace is not a function)". Found by a red-team review.
 */

const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];

/** A record built from JSON text, so that `__proto__` is an own member, as the browser's JSON.parse makes it. */
function hostileRecord(): CandidateRecord {
  const identities = PROTOTYPE_NAMES.map((name) => `"${name}":{"type":"string","value":"value of ${name}"}`).join(',');
  const certs = ['__proto__', 'constructor'].map((slug) => `"${slug}":"{\\"result\\":\\"clear\\"}"`).join(',');
  return JSON.parse(
    `{"status":"waiting","refId":"proto-1","isArchived":false,"identities":{"given_name":{"type":"string","value":"Ada"},${identities}},"certs":{${certs}}}`,
  ) as CandidateRecord;
}

describe('names that are also the prototype’s', () => {
  it('attack: identity attributes and certificates named constructor, __proto__, toString keep the page, each under its own name', async () => {
    stubApi({ candidates: { '/api/candidates/refId/proto-1': envelope(hostileRecord()) } });
    renderWithProviders('/candidates/refId/proto-1');
    expect((await screen.findAllByText('Ada')).length).toBeGreaterThan(0);
    for (const name of PROTOTYPE_NAMES) expect(screen.getByText(`value of ${name}`)).toBeInTheDocument();
    // Humanised as any unknown name is, never a function's or an object's text.
    // The attribute and the certificate both.
    expect(screen.getAllByText('Constructor').length).toBeGreaterThanOrEqual(2);
    const certificates = screen.getAllByRole('article');
    expect(certificates.length).toBeGreaterThanOrEqual(2);
    for (const article of certificates) expect(within(article).queryByText(/function|\[object/)).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain('could not be shown');
  });

  it('attack: a webhook event named constructor is said by its status, not as a function', () => {
    const label = liveEventLabel({ event: 'constructor', status: 'approved' } as Parameters<typeof liveEventLabel>[0]);
    expect(label).toBe('Approved');
  });
});
