import { lazy, memo, Profiler, type ProfilerOnRenderCallback, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { PICTURES_AT_ONCE } from '../../kyc/contract/picture-parts.ts';
import type { IdentityAttribute } from '../../kyc/contract/schema.ts';
import { Section } from '../ui/section.tsx';
import { ShowMore, useShownAtOnce } from '../ui/show-more.tsx';
import type { ViewerPicture } from '../viewer/viewer-picture.ts';
import type { PictureParts } from '../api/picture-parts.ts';
import { PicturePreview } from './picture-preview.tsx';

// The viewer and its gesture library are loaded when a picture is first opened (or about to be).
const loadViewer = () => import('../viewer/document-viewer.tsx');
const DocumentViewer = lazy(() => loadViewer().then((module) => ({ default: module.DocumentViewer })));
const fetchViewer = () => void loadViewer().catch(() => {});

/**
 * Cards on the page at first, and added by each "Show more" (PICTURES_AT_ONCE): a record has a handful of
 * pictures, but the service may send thousands (20 000 in one record kept the tab busy for minutes), and
 * every card decodes its picture. The viewer pages through the pictures on the page. The server makes
 * previews of as many pictures of an answer, and no more: a card without one shows its picture's
 * progress until its full part is in.
 */
export { PICTURES_AT_ONCE };

type GalleryProps = {
  pictures: Array<[string, IdentityAttribute]>;
  owner: string;
  /** The parts the pictures come in, when the record came in parts. */
  parts?: PictureParts;
  /** The pictures the candidate's notes name (picture-notes.ts): Compare puts one beside the picture shown first. */
  noted?: readonly string[];
  /** For tests: called each time a picture's card renders (a React Profiler round each card), `id` its name. */
  onCardRender?: ProfilerOnRenderCallback;
};

type CardProps = Parameters<typeof PicturePreview>[0] & { onCardRender?: ProfilerOnRenderCallback };

/**
 * One card, rendered again only when its own props change: a picture that becomes ready changes the
 * gallery's list for the viewer, not the other cards.
 */
const PictureCard = memo(function PictureCard({ onCardRender, ...props }: CardProps) {
  const card = <PicturePreview {...props} />;
  return onCardRender ? (
    <Profiler id={props.name} onRender={onCardRender}>
      {card}
    </Profiler>
  ) : (
    card
  );
});

/** The candidate's pictures as thumbnails; any of them opens the document viewer over those on the page. */
export function PictureGallery({ pictures, owner, parts, noted, onCardRender }: GalleryProps) {
  // While shown, the pictures' download goes on; once not, it stops (picture-parts.ts).
  useEffect(() => parts?.hold(), [parts]);
  const [ready, setReady] = useState<Record<string, ViewerPicture | undefined>>({});
  const [open, setOpen] = useState<string>();
  const { shown, showMore } = useShownAtOnce(pictures, PICTURES_AT_ONCE);
  const thumbnails = useRef(new Map<string, HTMLButtonElement>());

  const onReady = useCallback((name: string, picture: ViewerPicture | undefined) => {
    setReady((current) => (current[name] === picture ? current : { ...current, [name]: picture }));
  }, []);
  const thumbnailRef = useCallback((name: string, element: HTMLButtonElement | null) => {
    if (element) thumbnails.current.set(name, element);
    else thumbnails.current.delete(name);
  }, []);
  const viewable = shown.flatMap(([name]) => (ready[name] ? [ready[name]] : []));

  return (
    <Section title="Pictures">
      <div className="grid gap-4 sm:grid-cols-2">
        {shown.map(([name, attribute]) => (
          <PictureCard
            key={name}
            name={name}
            value={attribute.value}
            sentAs={attribute.type === 'base64' ? undefined : `sent as type ${attribute.type.slice(0, 20)}`}
            owner={owner}
            parts={parts}
            onReady={onReady}
            onOpen={setOpen}
            onIntent={fetchViewer}
            thumbnailRef={thumbnailRef}
            onCardRender={onCardRender}
          />
        ))}
      </div>
      <ShowMore shown={shown.length} total={pictures.length} atOnce={PICTURES_AT_ONCE} noun="pictures" onMore={showMore} />
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
