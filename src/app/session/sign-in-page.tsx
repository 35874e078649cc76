import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { clearRecentLookups } from '../recent/recent-lookups.ts';
import { Button } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { sessionQueries, signIn } from './session-query.ts';

const FIELD =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 focus-visible:border-blue-600 focus-ring';

/** Built-in users mode: username and password; the session lives in an HttpOnly cookie. */
export function SignInPage() {
  const queryClient = useQueryClient();
  const [missing, setMissing] = useState(false);
  const userId = useId();
  const passwordId = useId();
  const signInMutation = useMutation({
    mutationFn: signIn,
    onSuccess: async (session) => {
      // Whoever used this tab before: their recent lookups are not the new user's.
      clearRecentLookups();
      queryClient.setQueryData(sessionQueries.current().queryKey, session);
      await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionQueries.all()[0] });
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const username = String(form.get('username') ?? '').trim();
    const password = String(form.get('password') ?? '');
    setMissing(!username || !password);
    if (!username || !password) return signInMutation.reset();
    signInMutation.mutate({ username, password });
  };

  const problem = missing ? 'Enter your username and password.' : signInMutation.error?.message;
  return (
    <Card padding="lg" className="mx-auto max-w-sm">
      <h1 className="text-xl font-semibold text-slate-900">Sign in</h1>
      <p className="mt-1 text-sm text-slate-600">Candidate Lookup shows personal data: sign in to continue.</p>
      <form className="mt-4 space-y-3" onSubmit={submit} noValidate>
        <div>
          <label htmlFor={userId} className="text-sm font-medium text-slate-700">
            Username
          </label>
          <input
            id={userId}
            name="username"
            autoComplete="username"
            className={FIELD}
            required
            // The page's one job is signing in: the cursor starts where the first thing is typed.
            // biome-ignore lint/a11y/noAutofocus: the sign-in page has no other purpose
            autoFocus
          />
        </div>
        <div>
          <label htmlFor={passwordId} className="text-sm font-medium text-slate-700">
            Password
          </label>
          <input id={passwordId} name="password" type="password" autoComplete="current-password" className={FIELD} required />
        </div>
        {problem && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {problem}
          </p>
        )}
        <Button type="submit" size="block" disabled={signInMutation.isPending}>
          {signInMutation.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </Card>
  );
}
