import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { useEnvironmentPath } from '../environment/use-environment.ts';
import { Link } from '../navigation.tsx';
import { candidatePath } from '../routes.ts';
import { buttonClass } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { ProblemCard } from './problem-card.tsx';

/**
 * The id the answer's record gives for the kind asked, when it is another candidate's: a cache or a
 * gateway in front of the service answering with someone else's record. Ids are compared without regard
 * to case or outer spaces (a service may write them otherwise than they were typed); a record without
 * that id says nothing either way.
 */
export function otherCandidateIn(record: CandidateRecord, kind: LookupKind, id: string): string | undefined {
  const answered = record[kind];
  if (typeof answered !== 'string' || answered.trim() === '') return undefined;
  return answered.trim().toLowerCase() === id.trim().toLowerCase() ? undefined : answered;
}

/**
 * In place of the record: what it holds is another person's, whom nobody asked to see, and shown under
 * the id asked it would be taken for that candidate's (and the audit trail names only the id asked). Their
 * own lookup is one press away, audited under their id.
 */
export function OtherCandidate({ kind, id, answered }: { kind: LookupKind; id: string; answered: string }) {
  const { to } = useEnvironmentPath();
  return (
    <ProblemCard
      kind="other_candidate"
      home={to('/')}
      title="The KYC service answered with another candidate"
      body={
        <p>
          Asked for {kind} <code className="font-mono">{id}</code>, it sent the record of {kind}{' '}
          <code className="font-mono">{answered}</code>. It is not shown here: it is not the candidate you looked up, and taken for them it
          would mislead. Something in front of the service (a cache, a gateway) may be answering wrongly: tell whoever runs Candidate
          Lookup.
        </p>
      }
      action={
        <Link className={cn(buttonClass(), 'inline-flex items-center')} to={to(candidatePath(kind, answered))}>
          Look up {kind} {answered}
        </Link>
      }
    />
  );
}
