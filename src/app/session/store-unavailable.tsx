import { Button } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { STORE_DOWN_TEXT } from './store-down.ts';

/** What the server's `store_unavailable` means for the person in front of the screen. */
export const STORE_UNAVAILABLE_TEXT =
  `${STORE_DOWN_TEXT}, so nobody can sign in or look candidates up. ` +
  'Nothing is wrong with your account or the id; it resumes by itself once the store is back. Try again in a moment.';

/** Instead of the page while sign-in cannot be checked (the shared store is down). */
export function StoreUnavailable({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <Card role="alert" tone="warning" className="space-y-3" data-error-kind="store_unavailable">
      <h1 className="text-xl font-semibold">Sign-in and lookups are paused</h1>
      <p className="text-sm">{STORE_UNAVAILABLE_TEXT}</p>
      <Button onClick={onRetry} disabled={retrying} className="inline-flex items-center">
        {retrying ? 'Trying…' : 'Try again'}
      </Button>
    </Card>
  );
}
