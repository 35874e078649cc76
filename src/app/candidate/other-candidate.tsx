import type { ReactNode } from 'react';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { ApiError } from '../api/api-error.ts';
import { useEnvironmentPath } from '../environment/use-environment.ts';
import { Link } from '../navigation.tsx';
import { candidatePath } from '../routes.ts';
import { buttonClass } from '../ui/button.tsx';

/**
 * The screen of `other_candidate`: the KYC service (or a cache or gateway in front of it) answered with
 * another person's record, whom nobody asked to see. The server refused it, so nothing of it reached
 * this page, only the id it gave; shown under the id asked it would have been taken for that candidate's.
 * Try again (the id asked, once more: a cache that misfired may answer right) is the main button. The other
 * person's own lookup stays within reach as a quiet link, said to be what it is: a full lookup of a stranger,
 * written to the audit log under their id, which the blue button made look like the next step.
 */
export function otherCandidateScreen({ answeredId }: ApiError, kind: LookupKind, id: string, retry: ReactNode) {
  const answered = answeredId ? (
    <>
      the record of {kind} <code className="font-mono">{answeredId}</code>
    </>
  ) : (
    "another candidate's record"
  );
  return {
    body: (
      <>
        <p>
          Asked for {kind} <code className="font-mono">{id}</code>, it sent {answered}. It is not shown here: it is not the candidate you
          looked up, and taken for them it would mislead. Something in front of the service (a cache, a gateway) may be answering wrongly:
          try again, and if it keeps happening, tell whoever runs Candidate Lookup.
        </p>
        {answeredId && <LookUpAnswered kind={kind} answered={answeredId} />}
      </>
    ),
    action: retry,
  };
}

function LookUpAnswered({ kind, answered }: { kind: LookupKind; answered: string }) {
  const { to } = useEnvironmentPath();
  return (
    <p className="mt-2">
      <Link className={buttonClass({ variant: 'quiet' })} to={to(candidatePath(kind, answered))}>
        Look up {kind} {answered}
      </Link>{' '}
      (a lookup of that candidate, audited under their id)
    </p>
  );
}
