import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { navigate } from '../navigation.tsx';
import type { SessionInfo } from '../../kyc/contract/api.ts';
import { clearRecentLookups } from '../recent/recent-lookups.ts';
import { Button } from '../ui/button.tsx';
import { clearLiveNotifications } from '../live/live-stream.ts';
import { sessionQueries, signOut } from './session-query.ts';

const ROLE_LABELS = { support: 'Support', compliance: 'Compliance', lead: 'Compliance lead' } as const;

/** Who is signed in, with which role; in local mode, that no sign-in is in force. */
export function SessionBadge({ session }: { session: SessionInfo }) {
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string>();
  // A plain handler, not useMutation: the header is on the first load, which useMutation and its observer
  // (about 3 kB gzip) would push over its 100 kB; the sign-in pages, loaded later, use it.
  const [signingOut, setSigningOut] = useState(false);
  const signOutNow = async () => {
    setSigningOut(true);
    // The ids looked up in this tab go as soon as sign-out is asked, whatever the server answers (or if
    // it never does): the next person at the desk must not find them.
    setFailure(undefined);
    clearRecentLookups();
    clearLiveNotifications();
    try {
      await signOut();
      // Nothing personal stays in memory after sign-out.
      queryClient.clear();
    } catch (error) {
      // Not signed out: the candidate data leaves all the same, but the session stays as the server has
      // it, so the header (and this message beside the button) stays to try again.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueries.all()[0] });
      void queryClient.invalidateQueries({ queryKey: sessionQueries.all() });
      setFailure(error instanceof Error ? error.message : 'Signing out failed.');
    } finally {
      setSigningOut(false);
      navigate('/');
    }
  };
  if (session.mode === 'local') {
    return (
      <span data-testid="session" className="text-xs text-slate-600" title="Anyone who can open this page can look candidates up.">
        No sign-in (local mode)
      </span>
    );
  }
  // Nobody signed in (the sign-in page, or a session that ended under work that holds the page: session-end.ts).
  if (!session.user || !session.role) {
    return (
      <span data-testid="session" className="text-sm font-medium text-slate-700">
        Not signed in
      </span>
    );
  }
  return (
    <span data-testid="session" className="flex items-center gap-2 text-sm text-slate-700">
      <span>
        {/* A long name is cut on screen (whole in its tooltip), so that the header keeps to one row. */}
        <span className="inline-block max-w-32 truncate align-bottom font-medium" title={session.user}>
          {session.user}
        </span>{' '}
        <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-800">
          {/* "Lead" on screen, for the header's one row; the whole for screen readers. */}
          {session.role === 'lead' ? (
            <>
              <span className="sr-only">Compliance lead</span>
              <span aria-hidden="true">Lead</span>
            </>
          ) : (
            ROLE_LABELS[session.role]
          )}
        </span>
      </span>
      {(session.mode === 'users' || session.mode === 'oidc') && (
        <Button variant="secondary" size="sm" disabled={signingOut} onClick={() => void signOutNow()}>
          Sign out
        </Button>
      )}
      {failure && (
        <span role="alert" className="max-w-64 text-xs text-red-800">
          {failure}
        </span>
      )}
    </span>
  );
}
