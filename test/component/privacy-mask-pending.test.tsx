import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PrivacyMaskProvider, PrivacyMaskToggle } from '../../src/app/preferences/privacy-mask.tsx';

/**
 * On a slow first answer the page is masked until the server's default is known, and the header's toggle
 * showed pressed, then let go by itself once the page loaded (UX review): it read as the mask turning off
 * on its own. Until the default is known it says it is waiting for it, dimmed and busy.
 */
describe('the privacy mask toggle before the server has said its default', () => {
  it('is busy and says the page is masked until the setting is known; then shows the setting, no longer busy', () => {
    const shown = (defaultOn: boolean | undefined) => (
      <PrivacyMaskProvider defaultOn={defaultOn}>
        <PrivacyMaskToggle />
      </PrivacyMaskProvider>
    );
    const { rerender } = render(shown(undefined));
    const toggle = screen.getByRole('button', { name: 'Privacy mask' });
    // Masked, to be safe, and said to be waiting for the setting (before: pressed, nothing said).
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(toggle).toHaveAttribute('aria-busy', 'true');
    expect(toggle).toHaveAttribute('title', expect.stringContaining("Masked until this server's setting is known."));
    rerender(shown(false));
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    expect(toggle).not.toHaveAttribute('aria-busy');
    rerender(shown(true));
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(toggle).not.toHaveAttribute('aria-busy');
  });
});
