import { attributeLabel } from '../../kyc/view/attributes.ts';
import type { IdentityAttribute } from '../../kyc/contract/schema.ts';
import { LongText } from '../ui/long-text.tsx';
import { ScrollRegion } from '../ui/scroll-region.tsx';
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
            <dd className="min-w-0 text-slate-900">
              <ScrollRegion label={`${attributeLabel(name)} value`} className="max-h-40 break-words whitespace-pre-wrap">
                <LongText text={attribute.value} />
              </ScrollRegion>
            </dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}
