import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { IdentityAttribute } from '../../kyc/contract/schema.ts';
import { Section } from '../ui/section.tsx';
import type { ViewerPicture } from '../viewer/viewer-picture.ts';
import type { PictureParts } from '../api/picture-parts.ts';
import { PicturePreview } from './picture-preview.tsx';

// The viewer and its gesture library are loaded when a picture is first opened (or about to be).
const loadViewer = () => import('../viewer/document-viewer.tsx');
const DocumentViewer = lazy(() => loadViewer().then((module) => ({ default: module.DocumentViewer })));

type GalleryProps = {
  pictures: Array<[string, IdentityAttribute]>;
  owner: string;
  /** The parts the pictures come in, when the record came in parts. */
  parts?: PictureParts;
  /** The pictures the candidate's notes name (picture-notes.ts): Compare puts one beside the picture shown first. */
  noted?: readonly string[];
};

/** The candidate's pictures as thumbnails; any of them opens the document viewer over all of them. */
export function PictureGallery({ pictures, owner, parts, noted }: GalleryProps) {
  // While shown, the pictures' download goes on; once not, it stops (picture-parts.ts).
  useEffect(() => parts?.hold(), [parts]);
  const [ready, setReady] = useState<Record<string, ViewerPicture | undefined>>({});
  const [open, setOpen] = useState<string>();
  const thumbnails = useRef(new Map<string, HTMLButtonElement>());

  const onReady = useCallback((name: string, picture: ViewerPicture | undefined) => {
    setReady((current) => (current[name] === picture ? current : { ...current, [name]: picture }));
  }, []);
  const thumbnailRef = useCallback((name: string, element: HTMLButtonElement | null) => {
    if (element) thumbnails.current.set(name, element);
    else thumbnails.current.delete(name);
  }, []);
  const viewable = pictures.flatMap(([name]) => (ready[name] ? [ready[name]] : []));

  return (
    <Section title="Pictures">
      <div className="grid gap-4 sm:grid-cols-2">
        {pictures.map(([name, attribute]) => (
          <PicturePreview
            key={name}
            name={name}
            value={attribute.value}
            owner={owner}
            parts={parts}
            onReady={onReady}
            onOpen={setOpen}
            onIntent={() => void loadViewer().catch(() => {})}
            thumbnailRef={thumbnailRef}
          />
        ))}
      </div>
      {open && viewable.some((picture) => picture.name === open) && (
        <Suspense fallback={null}>
          <DocumentViewer
            pictures={viewable}
            startName={open}
            noted={noted}
            onClose={(shownName) => {
              setOpen(undefined);
              // Back to the thumbnail of the picture last shown, which may not be the one first opened.
              thumbnails.current.get(shownName)?.focus();
            }}
          />
        </Suspense>
      )}
    </Section>
  );
}
