import { useMutation } from '@tanstack/react-query';
import type { SignInRefusal } from '../../kyc/contract/api.ts';
import { Button } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { startOidcSignIn } from './session-query.ts';

function SignInButton({ provider, returnTo, label }: { provider: string; returnTo: string; label?: string }) {
  const start = useMutation({
    mutationFn: startOidcSignIn,
    onSuccess: (url) => window.location.assign(url),
  });
  // Once the provider's URL is known the page is leaving: the button stays busy until it has gone.
  const busy = start.isPending || start.isSuccess;
  return (
    <div className="mt-4 space-y-3">
      {start.error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {start.error.message}
        </p>
      )}
      <Button size="block" disabled={busy} onClick={() => start.mutate(returnTo)}>
        {busy ? `Going to ${provider}…` : (label ?? `Sign in with ${provider}`)}
      </Button>
    </div>
  );
}

/** OpenID Connect mode: one button that signs in at the provider and comes back to this page. */
export function OidcSignInPage({ provider, returnTo }: { provider: string; returnTo: string }) {
  return (
    <Card padding="lg" className="mx-auto max-w-sm">
      <h1 className="text-xl font-semibold text-slate-900">Sign in</h1>
      <p className="mt-1 text-sm text-slate-600">Candidate Lookup shows personal data: sign in with your {provider} account to continue.</p>
      <SignInButton provider={provider} returnTo={returnTo} />
    </Card>
  );
}

const REFUSALS: Record<SignInRefusal, { title: string; body: string; retry?: string }> = {
  no_role: {
    title: 'Your account has no access to Candidate Lookup',
    body:
      'You signed in, but your account is in none of the groups that Candidate Lookup gives a role to (lead, compliance or ' +
      'support), so you were not signed in here. If you need access, ask whoever runs Candidate Lookup to add you to one.',
  },
  stale: {
    title: 'The sign-in did not complete',
    body:
      'The answer from the sign-in provider did not belong to a sign-in started in this browser (it expired, was used ' +
      'already, or was opened elsewhere). Nothing was signed in. Start again.',
    retry: 'Start the sign-in again',
  },
  rejected: {
    title: 'The sign-in provider refused the sign-in',
    body: 'The provider did not confirm who you are (the answer was refused, expired or could not be verified). Try again.',
    retry: 'Try again',
  },
  provider_unavailable: {
    title: 'The sign-in provider cannot be reached',
    body: 'Candidate Lookup could not reach the sign-in provider to finish the sign-in. Try again in a moment.',
    retry: 'Try again',
  },
  store_unavailable: {
    title: 'Sign-in is paused',
    body: 'Candidate Lookup cannot reach its session store right now, so the sign-in could not be finished. It resumes by itself: try again in a moment.',
    retry: 'Try again',
  },
};

/** `/sign-in-refused/<reason>`: where the server sends the browser when a sign-in gave no session. */
export function SignInRefusedPage({ reason, provider }: { reason: SignInRefusal | 'unknown'; provider: string | undefined }) {
  const view = reason === 'unknown' ? { title: 'The sign-in did not complete', body: 'Start again.', retry: 'Sign in' } : REFUSALS[reason];
  return (
    <Card role="alert" tone="danger" padding="lg" className="mx-auto max-w-lg" data-refusal={reason}>
      <h1 className="text-xl font-semibold">{view.title}</h1>
      <p className="mt-2 text-sm">{view.body}</p>
      {view.retry && provider && <SignInButton provider={provider} returnTo="/" label={view.retry} />}
    </Card>
  );
}
