import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders, stubApi } from './render.tsx';

/**
 * The header's Menu (from sm to xl: the toggles and the user, in a panel over the page) comes before what it
 * opens, so that Tab from it goes on into the panel, and closes as a popover does: Escape (focus back on
 * Menu), a press or focus outside it. The review found Tab left the header for the page, the panel before
 * Menu in the document, and nothing but Menu itself closed it, over the page's own controls.
 */

/** The row's Menu (the one inside the panel it opens; the phone's stands before it, outside). */
async function rowMenu() {
  await screen.findByRole('button', { name: 'Privacy mask' });
  const menu = screen.getAllByRole('button', { name: 'Menu' }).find((button) => button.closest('#header-menu'));
  if (!menu) throw new Error('no Menu in the row');
  return menu;
}

describe('the header Menu', () => {
  it('stands before the toggles and the user it opens, in the order Tab follows', async () => {
    stubApi();
    renderWithProviders('/');
    const menu = await rowMenu();
    for (const name of [/^Notifications/, 'UTC times', 'Privacy mask']) {
      const item = screen.getByRole('button', { name });
      expect(menu.compareDocumentPosition(item) & Node.DOCUMENT_POSITION_FOLLOWING, String(name)).toBeTruthy();
    }
  });

  it('closes on Escape with focus back on Menu, on a press outside, and when focus leaves it', async () => {
    stubApi();
    renderWithProviders('/');
    const user = userEvent.setup();
    const menu = await rowMenu();

    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('button', { name: 'Privacy mask' }));
    // A press inside leaves it open.
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(menu).toHaveAttribute('aria-expanded', 'false'));
    expect(menu).toHaveFocus();

    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    fireEvent.pointerDown(document.body);
    await waitFor(() => expect(menu).toHaveAttribute('aria-expanded', 'false'));

    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    const outside = screen.getByRole('link', { name: 'Applicants' });
    outside.focus();
    await waitFor(() => expect(menu).toHaveAttribute('aria-expanded', 'false'));
  });

  it("the phone's Menu, before the page links, opens with focus on its first item: Tab goes on through the toggles, the Menu open", async () => {
    stubApi();
    renderWithProviders('/');
    const user = userEvent.setup();
    await rowMenu();
    // The phone's Menu stands before the page links; what it opens comes after them (UX review: Tab went to Applicants and closed it).
    const phoneMenu = screen.getAllByRole('button', { name: 'Menu' }).find((button) => !button.closest('#header-menu'))!;
    phoneMenu.focus();
    await user.keyboard('{Enter}');
    expect(phoneMenu).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: /^Notifications/ })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'UTC times' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Privacy mask' })).toHaveFocus();
    expect(phoneMenu).toHaveAttribute('aria-expanded', 'true');
  });

  it('keeps the privacy mask in sight while closed: "Masked" on Menu once it is on, gone once it is off, its name still Menu', async () => {
    stubApi();
    renderWithProviders('/');
    const user = userEvent.setup();
    const menu = await rowMenu();
    const mask = screen.getByRole('button', { name: 'Privacy mask' });
    // Masked until the server has said its default (off here): unmasking late is harmless, the reverse is not.
    await waitFor(() => expect(mask).toHaveAttribute('aria-pressed', 'false'));
    expect(menu).not.toHaveTextContent('Masked');
    await user.click(mask);
    expect(mask).toHaveAttribute('aria-pressed', 'true');
    expect(menu).toHaveTextContent('Masked');
    expect(menu).toHaveAccessibleName('Menu');
    await user.click(mask);
    expect(menu).not.toHaveTextContent('Masked');
  });

  it('Escape closes the notifications opened inside it first, focus back on their button, and the Menu with the next', async () => {
    stubApi();
    renderWithProviders('/');
    const user = userEvent.setup();
    const menu = await rowMenu();
    await user.click(menu);
    const bell = screen.getByRole('button', { name: /^Notifications/ });
    await user.click(bell);
    expect(bell).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(bell).toHaveAttribute('aria-expanded', 'false'));
    expect(bell).toHaveFocus();
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(menu).toHaveAttribute('aria-expanded', 'false'));
    expect(menu).toHaveFocus();
  });
});
