import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { ApiError } from '../api/api-error.ts';
import { useEnvironmentPath } from '../environment/use-environment.ts';
import { Link } from '../navigation.tsx';
import { candidatePath } from '../routes.ts';
import { buttonClass } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';

/**
 * The screen of `other_candidate`: the KYC service (or a cache or gateway in front of it) answered with
 * another person's record, whom nobody asked to see. The server refused it, so nothing of it reached
 * this page, only the id it gave; shown under the id asked it would have been taken for that candidate's.
 * Their own lookup is one press away, audited under their id.
 */
export function otherCandidateScreen({ answeredId }: ApiError, kind: LookupKind, id: string) {
  const answered = answeredId ? (
    <>
      the record of {kind} <code className="font-mono">{answeredId}</code>
    </>
  ) : (
    "another candidate's record"
  );
  return {
    body: (
      <p>
        Asked for {kind} <code className="font-mono">{id}</code>, it sent {answered}. It is not shown here: it is not the candidate you
        looked up, and taken for them it would mislead. Something in front of the service (a cache, a gateway) may be answering wrongly:
        tell whoever runs Candidate Lookup.
      </p>
    ),
    action: answeredId ? <LookUpAnswered kind={kind} answered={answeredId} /> : undefined,
  };
}

function LookUpAnswered({ kind, answered }: { kind: LookupKind; answered: string }) {
  const { to } = useEnvironmentPath();
  return (
    <Link className={cn(buttonClass(), 'inline-flex items-center')} to={to(candidatePath(kind, answered))}>
      Look up {kind} {answered}
    </Link>
  );
}
