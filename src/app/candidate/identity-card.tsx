import { wasSentWithoutType } from '../../kyc/contract/identity-forms.ts';
import { ageOn, formatDob, readDob } from '../../kyc/view/dob.ts';
import type { IdentityAttribute, UnreadField } from '../../kyc/contract/schema.ts';
import type { StructuredField } from '../../kyc/contract/other-forms.ts';
import { Masked } from '../preferences/privacy-reveal.tsx';
import { LongText } from '../ui/long-text.tsx';
import { Section } from '../ui/section.tsx';
import { isUnread, SENT_EMPTY, SENT_UNREAD } from './absent-sections.tsx';
import { SentInOtherFormNote } from './other-parts.tsx';
import { StructuredValue } from './structured-value.tsx';

function text(attribute: IdentityAttribute | undefined): string | undefined {
  return attribute?.type === 'string' && attribute.value.trim() !== '' ? attribute.value : undefined;
}

/** An attribute sent as empty text (or spaces alone): it is in the response, said "sent empty" (SENT_EMPTY). */
const sentEmpty = (attribute: IdentityAttribute | undefined): boolean => attribute?.type === 'string' && attribute.value.trim() === '';

/** What a row without a value says: unreadable, sent empty, or not in the response (`absentWords`). */
function absentRow(attribute: IdentityAttribute | undefined, unread: boolean, absentWords: string): string {
  return unread ? SENT_UNREAD : sentEmpty(attribute) ? SENT_EMPTY : absentWords;
}

/** Rows hidden by the privacy mask, with their mask keys. */
const MASKED_ROWS: Record<string, string> = { 'Date of birth': 'dob', 'E-mail': 'email' };

/** The attribute each row shows. */
const ROW_ATTRIBUTES: Record<string, string> = {
  'Given name': 'given_name',
  'Family name': 'family_name',
  'Date of birth': 'dob',
  'E-mail': 'email',
};

/** The attributes the card shows (one sent as an object or a list too); other-attributes.tsx shows the rest. */
export const CARD_ATTRIBUTES: ReadonlySet<string> = new Set(Object.values(ROW_ATTRIBUTES));

/**
 * One plain address, nothing that a mailto: URL would read as more recipients, headers or a body, and no
 * control or invisible character: `ana@\u202Emoc.knab` read "ana@bank.com" on its link and wrote to
 * ana@moc.knab (red team). Any other is shown as text, its invisibles marked (LongText).
 */
const PLAIN_EMAIL =
  /^[^\s@?#,;%&<>"'\\()\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+@[^\s@?#,;%&<>"'\\()\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+\.[^\s@?#,;%&<>"'\\()\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+$/u;

/**
 * Given and family name, date of birth with age, e-mail. Missing attributes say so; one the answer held
 * but that could not be read (`unread`, named in the notice above the record) says that instead, and one
 * sent as empty text "sent empty"; one sent
 * as an object or a list (`structured`, other-forms.ts) is shown as its JSON, marked "not text".
 */
export function IdentityCard({
  identities,
  now,
  familyFirst = false,
  unread = [],
  structured = [],
  absentWords = 'not in this response',
}: {
  identities: Record<string, IdentityAttribute>;
  now: Date;
  familyFirst?: boolean;
  unread?: readonly UnreadField[];
  structured?: readonly StructuredField[];
  /** What a row the answer lacks says: "not in this response (the record is marked archived)" in an archived record. */
  absentWords?: string;
}) {
  const shown = structured.filter((field) => CARD_ATTRIBUTES.has(field.name));
  const other = (name: string) => {
    const field = shown.find((each) => each.name === name);
    return field && <StructuredValue field={field} limit={120} />;
  };
  const dobRaw = text(identities.dob);
  const reading = dobRaw ? readDob(dobRaw) : undefined;
  const dob = reading?.ok ? reading.dob : undefined;
  const age = dob ? ageOn(dob, now) : undefined;
  const email = text(identities.email);
  const given = text(identities.given_name);
  const family = text(identities.family_name);
  const names: Array<[string, React.ReactNode]> = [
    // One sent as an object or a list where its text is absent.
    ['Given name', (given && <LongText text={given} />) || other('given_name')],
    ['Family name', (family && <LongText text={family} />) || other('family_name')],
  ];
  if (familyFirst) names.reverse();
  const rows: Array<[string, React.ReactNode]> = [
    ...names,
    [
      'Date of birth',
      dobRaw === undefined ? (
        other('dob')
      ) : dob ? (
        <>
          {formatDob(dob)}{' '}
          <span className={age! < 0 ? 'text-amber-800' : 'text-slate-500'}>{age! < 0 ? '(a date in the future)' : `(age ${age})`}</span>
          {reading?.dayFirst && (
            <span className="block text-xs text-amber-800" data-testid="dob-both-ways">
              Sent as {dobRaw.trim()}: read month first, as documented; day first it would be {formatDob(reading.dayFirst)}.
            </span>
          )}
        </>
      ) : (
        <>
          <span className="font-mono">
            <LongText text={dobRaw} limit={40} />
          </span>{' '}
          <span className="text-xs text-amber-800">
            (shown as received: {reading && !reading.ok && reading.problem}
            {reading?.dayFirst &&
              `; day first (${dobRaw.includes('.') ? 'DD.MM.YYYY' : 'DD/MM/YYYY'}) it is ${formatDob(reading.dayFirst)}, age ${ageOn(reading.dayFirst, now)}`}
            )
          </span>
        </>
      ),
    ],
    [
      'E-mail',
      (email &&
        (PLAIN_EMAIL.test(email) && email.length <= 254 ? (
          <a className="text-blue-700 underline underline-offset-2 hover:text-blue-900" href={`mailto:${email}`}>
            {email}
          </a>
        ) : (
          <LongText text={email} limit={120} />
        ))) ||
        other('email'),
    ],
  ];
  return (
    <Section title="Identity">
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-500">{label}</dt>
            <dd className="min-w-0 break-words text-slate-900">
              {value === undefined || value === '' ? (
                <span className="text-slate-500 italic">
                  {absentRow(identities[ROW_ATTRIBUTES[label]!], isUnread(unread, `identities.${ROW_ATTRIBUTES[label]}`), absentWords)}
                </span>
              ) : wasSentWithoutType(identities[ROW_ATTRIBUTES[label]!]) ? (
                <>
                  {MASKED_ROWS[label] ? (
                    <Masked maskKey={MASKED_ROWS[label]} label={label}>
                      {value}
                    </Masked>
                  ) : (
                    value
                  )}{' '}
                  <span className="text-xs text-amber-800">(sent without a type)</span>
                </>
              ) : MASKED_ROWS[label] ? (
                <Masked maskKey={MASKED_ROWS[label]} label={label}>
                  {value}
                </Masked>
              ) : (
                value
              )}
            </dd>
          </div>
        ))}
      </dl>
      <SentInOtherFormNote fields={shown} />
    </Section>
  );
}
