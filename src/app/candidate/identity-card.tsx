import { ageOn, formatDob, parseDob } from '../../kyc/dob.ts';
import type { IdentityAttribute } from '../../kyc/schema.ts';
import { LongText } from '../ui/long-text.tsx';
import { Section } from '../ui/section.tsx';

function text(attribute: IdentityAttribute | undefined): string | undefined {
  return attribute?.type === 'string' ? attribute.value : undefined;
}

/** Given and family name, date of birth with age, e-mail. Missing attributes say so. */
export function IdentityCard({ identities, now }: { identities: Record<string, IdentityAttribute>; now: Date }) {
  const dobRaw = text(identities.dob);
  const dob = dobRaw ? parseDob(dobRaw) : undefined;
  const email = text(identities.email);
  const given = text(identities.given_name);
  const family = text(identities.family_name);
  const rows: Array<[string, React.ReactNode]> = [
    ['Given name', given && <LongText text={given} />],
    ['Family name', family && <LongText text={family} />],
    [
      'Date of birth',
      dobRaw === undefined ? undefined : dob ? (
        <>
          {formatDob(dob)} <span className="text-slate-500">(age {ageOn(dob, now)})</span>
        </>
      ) : (
        <>
          <span className="font-mono">
            <LongText text={dobRaw} limit={40} />
          </span>{' '}
          <span className="text-xs text-amber-800">(shown as received: not in the expected MM/DD/YYYY form)</span>
        </>
      ),
    ],
    [
      'E-mail',
      email && (
        <a className="text-blue-700 underline underline-offset-2 hover:text-blue-900" href={`mailto:${encodeURI(email)}`}>
          <LongText text={email} limit={120} />
        </a>
      ),
    ],
  ];
  return (
    <Section title="Identity" level={3}>
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-500">{label}</dt>
            <dd className="min-w-0 break-words text-slate-900">
              {value ?? <span className="text-slate-500 italic">not provided</span>}
            </dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}
