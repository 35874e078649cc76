import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Button } from '../ui/button.tsx';
import { sessionQueries, signIn, startOidcSignIn } from './session-query.ts';

/**
 * Said inside a dialog (or above a page's work) when its session ended: what is kept, and a way to sign
 * in again without leaving it. With built-in users the same user signs in here (the username is theirs,
 * not to be changed: someone else's sign-in must not inherit this work); with OpenID Connect the
 * provider opens in a new tab and this page carries on when it is back in front; behind a gateway, the
 * gateway signs in and "Check again" asks.
 */
export function SessionEndedNotice({ user, kept }: { user: string | undefined; kept: string }) {
  const session = useQuery(sessionQueries.current());
  const mode = session.data?.mode;
  const [open, setOpen] = useState(false);
  useRecheckOnReturn(mode === 'oidc' || mode === 'proxy');
  return (
    <div
      role="alert"
      data-testid="session-ended"
      className="mb-3 space-y-2 rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950"
    >
      <p>
        <strong className="font-semibold">Your session has ended.</strong> {kept}
      </p>
      {mode === 'users' &&
        user !== undefined &&
        (open ? <SignInAgainForm user={user} /> : <Button onClick={() => setOpen(true)}>Sign in again</Button>)}
      {mode === 'oidc' && <OidcAgain provider={session.data?.provider ?? 'your organisation'} />}
      {(mode === 'proxy' || (mode === 'users' && user === undefined)) && (
        <div className="flex flex-wrap items-center gap-2">
          <span>Sign in again in another tab, then check here.</span>
          <Button variant="secondary" size="sm" disabled={session.isFetching} onClick={() => void session.refetch()}>
            Check again
          </Button>
        </div>
      )}
    </div>
  );
}

/** The password of the user who was signed in; on success the session is theirs again and the work goes on. */
function SignInAgainForm({ user }: { user: string }) {
  const queryClient = useQueryClient();
  const passwordId = useId();
  const [missing, setMissing] = useState(false);
  const mutation = useMutation({
    mutationFn: signIn,
    onSuccess: (session) => {
      queryClient.setQueryData(sessionQueries.current().queryKey, session);
      // What failed while signed out is asked again; what the page shows stays as it is (no second lookup).
      void queryClient.invalidateQueries({ predicate: (query) => query.state.status === 'error' && query.queryKey[0] !== 'session' });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    setMissing(password === '');
    if (password !== '') mutation.mutate({ username: user, password });
  };
  const problem = missing ? 'Enter your password.' : mutation.error?.message;
  return (
    <form onSubmit={submit} noValidate className="space-y-2">
      <p>
        Signing in as <span className="font-medium break-all">{user}</span>
      </p>
      <label htmlFor={passwordId} className="block font-medium">
        Password
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={passwordId}
          name="password"
          type="password"
          autoComplete="current-password"
          // biome-ignore lint/a11y/noAutofocus: the form appears because the user asked to sign in again
          autoFocus
          className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-slate-900 focus-ring"
        />
        <Button type="submit" disabled={mutation.isPending}>
          {mutation.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
      </div>
      {problem && <p className="font-medium text-red-700">{problem}</p>}
    </form>
  );
}

function OidcAgain({ provider }: { provider: string }) {
  const start = useMutation({
    mutationFn: () => startOidcSignIn(window.location.pathname),
    // A new tab: this one keeps the work, and learns of the new session when it is back in front.
    onSuccess: (url) => window.open(url, '_blank', 'noopener'),
  });
  return (
    <div className="space-y-1">
      <Button disabled={start.isPending} onClick={() => start.mutate()}>
        Sign in again with {provider}
      </Button>
      <p>The sign-in opens in a new tab; come back here once it is done.</p>
      {start.error && <p className="font-medium text-red-700">{start.error.message}</p>}
    </div>
  );
}

/** Signed in elsewhere (another tab, the gateway): the session is asked again when this tab is back in front. */
function useRecheckOnReturn(enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const recheck = () => {
      if (document.visibilityState === 'visible') void queryClient.invalidateQueries({ queryKey: sessionQueries.all() });
    };
    window.addEventListener('focus', recheck);
    document.addEventListener('visibilitychange', recheck);
    return () => {
      window.removeEventListener('focus', recheck);
      document.removeEventListener('visibilitychange', recheck);
    };
  }, [enabled, queryClient]);
}
