import { attributeLabel } from '../../kyc/view/attributes.ts';
import type { IdentityAttribute } from '../../kyc/contract/schema.ts';
import { LongText } from '../ui/long-text.tsx';
import { Section } from '../ui/section.tsx';

/** Identity attributes with no dedicated card, shown generically by their type. */
export function OtherAttributes({ attributes }: { attributes: Array<[string, IdentityAttribute]> }) {
  return (
    <Section title="Other identity attributes">
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
        {attributes.map(([name, attribute]) => (
          <div key={name} className="contents">
            <dt className="font-medium text-slate-500">
              <LongText text={attributeLabel(name)} limit={60} />{' '}
              <span className="font-mono text-xs font-normal">
                (<LongText text={attribute.type} limit={20} />)
              </span>
            </dt>
            <dd
              tabIndex={0}
              className="max-h-40 min-w-0 overflow-auto focus-visible:outline-2 focus-visible:outline-blue-600 break-words whitespace-pre-wrap text-slate-900"
            >
              <LongText text={attribute.value} />
            </dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}
