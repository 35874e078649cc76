import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sniffedTypeOfMime } from '../../src/kyc/contract/picture-type.ts';
import { PictureParts } from '../../src/app/api/picture-parts.ts';
import { PicturePreview } from '../../src/app/candidate/picture-preview.tsx';
import type { ViewerPicture } from '../../src/app/viewer/viewer-picture.ts';

/**
 * One picture card as its part arrives: the preview, then the full picture. What the card hands the viewer
 * (onReady) is what the viewer shows and how it labels it, so no call may pass a preview's address off as
 * the full picture, not even for the one render between the full part's arrival and its object URL.
 */

const jpeg = (marker: number) => new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, marker])], { type: 'image/jpeg' });

function card() {
  const parts = new PictureParts(new Map([['selfie', { part: 'p0', type: 'image/jpeg', size: 5000 }]]), () => {});
  const onReady = vi.fn<(name: string, picture: ViewerPicture | undefined) => void>();
  const noop = () => {};
  render(
    <PicturePreview
      name="selfie"
      value=""
      owner="Ada Lovelace"
      parts={parts}
      onReady={onReady}
      onOpen={noop}
      onIntent={noop}
      thumbnailRef={noop}
    />,
  );
  return { parts, onReady };
}

describe('a picture card whose preview comes before the picture', () => {
  it('never hands the viewer the preview as the full picture, in any render, and then the picture itself', async () => {
    const { parts, onReady } = card();
    const type = sniffedTypeOfMime('image/jpeg');
    const made = vi.mocked(URL.createObjectURL);
    made.mockClear();
    await act(async () => parts.update('selfie', { state: 'loading', received: 1200, size: 5000, type, preview: jpeg(1) }));
    const previewUrl = made.mock.results[0]!.value as string;
    expect(screen.getByRole('img', { name: 'Selfie of Ada Lovelace' })).toHaveAttribute('src', previewUrl);
    expect(screen.getByText('Preview')).toBeInTheDocument();

    await act(async () => parts.update('selfie', { state: 'ready', size: 5000, type, blob: jpeg(2) }));
    const fullUrl = made.mock.results[1]!.value as string;
    expect(fullUrl).not.toBe(previewUrl);
    expect(screen.getByRole('img', { name: 'Selfie of Ada Lovelace' })).toHaveAttribute('src', fullUrl);
    expect(screen.queryByText('Preview')).toBeNull();

    const handed = onReady.mock.calls.map(([, picture]) => picture).filter((picture) => picture !== undefined);
    // Every time the preview's address was handed on, it was marked as a preview (with its download).
    for (const picture of handed.filter((picture) => picture.url === previewUrl)) expect(picture.loading).toBeDefined();
    expect(handed.at(-1)).toMatchObject({ url: fullUrl, loading: undefined });
  });
});
