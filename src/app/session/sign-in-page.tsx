import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { clearRecentLookups } from '../recent/recent-lookups.ts';
import { sessionQuery, signIn } from './session-query.ts';

/** Built-in users mode: username and password; the session lives in an HttpOnly cookie. */
export function SignInPage() {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const userId = useId();
  const passwordId = useId();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const username = String(form.get('username') ?? '').trim();
    const password = String(form.get('password') ?? '');
    if (!username || !password) return setProblem('Enter your username and password.');
    setBusy(true);
    let result: Awaited<ReturnType<typeof signIn>>;
    try {
      result = await signIn(username, password);
    } finally {
      setBusy(false);
    }
    if (!result.ok) return setProblem(result.message);
    setProblem(undefined);
    // Whoever used this tab before: their recent lookups are not the new user's.
    clearRecentLookups();
    queryClient.setQueryData(sessionQuery().queryKey, result.session);
    await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
  };

  const field =
    'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 focus-visible:border-blue-600 focus-visible:outline-2 focus-visible:outline-blue-600';
  return (
    <div className="mx-auto max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-xl font-semibold text-slate-900">Sign in</h1>
      <p className="mt-1 text-sm text-slate-600">Candidate Lookup shows personal data: sign in to continue.</p>
      <form className="mt-4 space-y-3" onSubmit={submit} noValidate>
        <div>
          <label htmlFor={userId} className="text-sm font-medium text-slate-700">
            Username
          </label>
          <input id={userId} name="username" autoComplete="username" className={field} required />
        </div>
        <div>
          <label htmlFor={passwordId} className="text-sm font-medium text-slate-700">
            Password
          </label>
          <input id={passwordId} name="password" type="password" autoComplete="current-password" className={field} required />
        </div>
        {problem && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {problem}
          </p>
        )}
        <button
          type="submit"
          disabled={busy}
          className="w-full rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:opacity-70"
        >
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}
