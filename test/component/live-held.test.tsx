import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ApiMeta, SessionInfo } from '../../src/kyc/contract/api.ts';
import { FakeEventSource, withFakeEventSource } from './fake-event-source.ts';
import { renderWithProviders, stubApi, testMeta } from './render.tsx';

withFakeEventSource();

/**
 * Live updates held (`liveHeld` in /api/meta): without a status-level key the server does not check the
 * service's webhook deliveries until a lookup has shown the full key keeps identity data, so no page is
 * told of one. The header said "Live" in green all the same; it now says "Live held", in amber, described
 * by the server's reason.
 */

const COMPLIANCE: SessionInfo = { mode: 'proxy', user: 'ana', role: 'compliance' };
const REASON = 'The applicants list is read once a lookup here has shown that the API key keeps identity data.';

function metaWith(liveHeld?: string): ApiMeta {
  const meta = testMeta();
  const environment = { ...meta.environment, live: true, ...(liveHeld ? { liveHeld } : {}) };
  return { ...meta, environment, environments: [environment], live: true, ...(liveHeld ? { liveHeld } : {}) };
}

async function indicatorWith(meta: ApiMeta) {
  stubApi({ session: COMPLIANCE, meta });
  renderWithProviders('/');
  await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
  FakeEventSource.instances[0]!.open();
  return screen.getByTestId('live-indicator');
}

describe('the header while live updates are held', () => {
  it('says "Live held", in amber, with the reason as its description and tooltip, the stream open', async () => {
    const indicator = await indicatorWith(metaWith(REASON));
    await waitFor(() => expect(indicator).toHaveTextContent(/^Live held/));
    expect(screen.getByRole('status', { name: 'Live held' })).toBe(indicator);
    expect(indicator).toHaveAccessibleDescription(expect.stringContaining(REASON));
    expect(indicator.getAttribute('title')).toContain(REASON);
    expect(indicator.querySelector('[aria-hidden="true"]')).toHaveClass('bg-amber-500');
  });

  it('says "Live" in green, with no description, when nothing is held', async () => {
    const indicator = await indicatorWith(metaWith());
    await waitFor(() => expect(indicator).toHaveTextContent(/^Live$/));
    expect(indicator).not.toHaveAttribute('title');
    expect(indicator.querySelector('[aria-hidden="true"]')).toHaveClass('bg-emerald-600');
  });
});
