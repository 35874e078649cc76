import { screen, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { envelope, json, renderWithProviders, stubApi, type testMeta } from './render.tsx';

/** The support tests' page (support-view, support-loop): a candidate with Copy reply's audit line answered. */
export function showForReply(
  record: CandidateRecord,
  options: { session: SessionInfo; meta: ReturnType<typeof testMeta>; answer?: CandidateRecord },
) {
  const api = stubApi({
    session: options.session,
    meta: options.meta,
    candidates: {
      [`/api/candidates/refId/${record.refId}`]: envelope(options.answer ?? record),
      '/api/export': () => json({ status: 'success' }),
    },
  });
  renderWithProviders(`/candidates/refId/${record.refId}`);
  return api;
}

/** What the page sent to `/api/export`, in order. */
export const exportsOf = (fetchMock: ReturnType<typeof stubApi>['fetchMock']) =>
  fetchMock.mock.calls
    .filter(([input]) => String(input).endsWith('/export'))
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)));

/** Opens the reply editor with Copy reply (or the button named `button`): the dialog, and its text box as it is now. */
export async function openEditor(user: ReturnType<typeof userEvent.setup>, button = 'Copy reply') {
  await user.click(await screen.findByRole('button', { name: button }));
  const editor = screen.getByRole('dialog', { name: 'Reply to the customer' });
  return { editor, text: () => within(editor).getByRole('textbox', { name: 'Reply' }) as HTMLTextAreaElement };
}

/**
 * Opens the reply editor and its "Your greeting and sign-off" fields: the dialog, its text box, and the
 * fields' queries (Greeting, Sign-off, "Save for my replies", what the save said).
 */
export async function openFrameFields(user: ReturnType<typeof userEvent.setup>) {
  const opened = await openEditor(user);
  const frame = within(within(opened.editor).getByTestId('reply-frame'));
  await user.click(within(opened.editor).getByText('Your greeting and sign-off'));
  return { ...opened, frame, greeting: frame.getByRole('textbox', { name: 'Greeting' }) };
}
