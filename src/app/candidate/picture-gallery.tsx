import type { IdentityAttribute } from '../../kyc/contract/schema.ts';
import { Section } from '../ui/section.tsx';
import { PicturePreview } from './picture-preview.tsx';

export function PictureGallery({ pictures, owner }: { pictures: Array<[string, IdentityAttribute]>; owner: string }) {
  return (
    <Section title="Pictures">
      <div className="grid gap-4 sm:grid-cols-2">
        {pictures.map(([name, attribute]) => (
          <PicturePreview key={name} name={name} value={attribute.value} owner={owner} />
        ))}
      </div>
    </Section>
  );
}
