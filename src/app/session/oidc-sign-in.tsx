import { useState } from 'react';
import { SIGN_IN_REFUSALS, SIGN_IN_REFUSED_PATH, type SignInRefusal } from '../../kyc/contract/api.ts';
import { startOidcSignIn } from './session-query.ts';

const BUTTON =
  'w-full rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:opacity-70';

/** Starts a sign-in at the provider and leaves for it; on failure, says why. */
function useOidcStart() {
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const start = async (returnTo: string) => {
    setBusy(true);
    const started = await startOidcSignIn(returnTo);
    if (started.ok) return window.location.assign(started.url);
    setBusy(false);
    setProblem(started.message);
  };
  return { start, problem, busy };
}

function SignInButton({ provider, returnTo, label }: { provider: string; returnTo: string; label?: string }) {
  const { start, problem, busy } = useOidcStart();
  return (
    <div className="mt-4 space-y-3">
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {problem}
        </p>
      )}
      <button type="button" className={BUTTON} disabled={busy} onClick={() => void start(returnTo)}>
        {busy ? `Going to ${provider}…` : (label ?? `Sign in with ${provider}`)}
      </button>
    </div>
  );
}

/** OpenID Connect mode: one button that signs in at the provider and comes back to this page. */
export function OidcSignInPage({ provider, returnTo }: { provider: string; returnTo: string }) {
  return (
    <div className="mx-auto max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-xl font-semibold text-slate-900">Sign in</h1>
      <p className="mt-1 text-sm text-slate-600">Candidate Lookup shows personal data: sign in with your {provider} account to continue.</p>
      <SignInButton provider={provider} returnTo={returnTo} />
    </div>
  );
}

const REFUSALS: Record<SignInRefusal, { title: string; body: string; retry?: string }> = {
  no_role: {
    title: 'Your account has no access to Candidate Lookup',
    body:
      'You signed in, but your account is in none of the groups that Candidate Lookup gives a role to (compliance or ' +
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
export function signInRefusalOf(pathname: string): SignInRefusal | 'unknown' | undefined {
  if (!pathname.startsWith(SIGN_IN_REFUSED_PATH)) return undefined;
  const reason = pathname.slice(SIGN_IN_REFUSED_PATH.length);
  return (SIGN_IN_REFUSALS as readonly string[]).includes(reason) ? (reason as SignInRefusal) : 'unknown';
}

export function SignInRefusedPage({ reason, provider }: { reason: SignInRefusal | 'unknown'; provider: string | undefined }) {
  const view = reason === 'unknown' ? { title: 'The sign-in did not complete', body: 'Start again.', retry: 'Sign in' } : REFUSALS[reason];
  return (
    <div role="alert" className="mx-auto max-w-lg rounded-xl border border-red-200 bg-red-50 p-6 text-red-950" data-refusal={reason}>
      <h1 className="text-xl font-semibold">{view.title}</h1>
      <p className="mt-2 text-sm">{view.body}</p>
      {view.retry && provider && <SignInButton provider={provider} returnTo="/" label={view.retry} />}
    </div>
  );
}
