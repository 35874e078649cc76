import { attributeLabel } from '../../kyc/view/attributes.ts';
import { formatBytes } from '../../kyc/contract/bytes.ts';
import { base64ByteLength, cleanBase64 } from '../../kyc/view/image.ts';
import type { IdentityAttribute } from '../../kyc/contract/schema.ts';
import type { StructuredField } from '../../kyc/contract/other-forms.ts';
import { Masked } from '../preferences/privacy-reveal.tsx';
import { LongText } from '../ui/long-text.tsx';
import { ScrollRegion } from '../ui/scroll-region.tsx';
import { Section } from '../ui/section.tsx';
import { SentInOtherFormNote } from './other-parts.tsx';
import { StructuredValue } from './structured-value.tsx';

/** The attributes the privacy mask hides on their own cards: hidden here too when they come as an object or a list. */
const MASKED_ATTRIBUTES: ReadonlySet<string> = new Set(['address', 'phone']);

/**
 * Identity attributes with no dedicated card, shown generically by their type; then those sent as an
 * object or a list (`structured`, other-forms.ts) that no card shows, each as its JSON marked "not text".
 */
export function OtherAttributes({
  attributes,
  structured = [],
}: {
  attributes: Array<[string, IdentityAttribute]>;
  structured?: readonly StructuredField[];
}) {
  return (
    <Section title="Other identity attributes">
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
        {attributes.map(([name, attribute]) => (
          <Attribute key={name} name={name} type={attribute.type}>
            <AttributeText text={attribute.value} />
          </Attribute>
        ))}
        {structured.map((field) => (
          // Its declared type is said beside what came instead (structured-value.tsx).
          <Attribute key={`structured:${field.name}`} name={field.name} type={undefined}>
            {MASKED_ATTRIBUTES.has(field.name) ? (
              <Masked maskKey={field.name} label={attributeLabel(field.name)}>
                <StructuredValue field={field} />
              </Masked>
            ) : (
              <StructuredValue field={field} />
            )}
          </Attribute>
        ))}
      </dl>
      <SentInOtherFormNote fields={structured} />
    </Section>
  );
}

/** Long base64 that no picture type was found in: its start and its size, never pages of letters. */
const LONG_BASE64 = /^[A-Za-z0-9+/\s]{300,}={0,2}\s*$/;

function AttributeText({ text }: { text: string }) {
  if (!LONG_BASE64.test(text)) return <LongText text={text} />;
  return (
    <>
      <LongText text={text} limit={80} />{' '}
      <span className="text-xs text-slate-600">(base64 of no known picture type, {formatBytes(base64ByteLength(cleanBase64(text)))})</span>
    </>
  );
}

function Attribute({ name, type, children }: { name: string; type: string | undefined; children: React.ReactNode }) {
  return (
    <div className="contents">
      <dt className="font-medium text-slate-500">
        <LongText text={attributeLabel(name)} limit={60} />
        {type !== undefined && (
          <>
            {' '}
            <span className="font-mono text-xs font-normal">
              (<LongText text={type} limit={20} />)
            </span>
          </>
        )}
      </dt>
      <dd className="min-w-0 text-slate-900">
        <ScrollRegion label={`${attributeLabel(name)} value`} className="max-h-40 break-words whitespace-pre-wrap">
          {children}
        </ScrollRegion>
      </dd>
    </div>
  );
}
