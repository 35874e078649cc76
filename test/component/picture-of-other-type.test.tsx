import { render, screen } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OtherAttributes } from '../../src/app/candidate/other-attributes.tsx';
import { PicturePreview } from '../../src/app/candidate/picture-preview.tsx';
import { isPictureOfOtherType, sortAttributes } from '../../src/kyc/view/attributes.ts';

/**
 * An identity attribute of a type the page does not know holding a picture's base64
 * (`national_id: {type: "file", value: "/9j/4AAQ…"}`) is shown as a picture, its type named as sent; a
 * long base64 of no known picture type is shown bounded, with its size, never dumped as pages of letters.
 */
const JPEG =
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=';
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const noop = () => {};

describe('a picture sent under another type', () => {
  it('is sorted with the pictures whatever its type is called, when its bytes are a JPEG or a PNG', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }).filter((type) => type !== 'base64' && type !== 'string'),
        fc.constantFrom(Buffer.from(JPEG, 'base64'), PNG_HEAD),
        fc.uint8Array({ minLength: 60, maxLength: 400 }),
        (type, head, tail) => {
          const value = Buffer.concat([head, tail]).toString('base64');
          const { pictures, others } = sortAttributes({ national_id: { type, value }, given_name: { type: 'string', value: 'Ana' } });
          expect(pictures.map(([name]) => name)).toEqual(['national_id']);
          expect(others).toEqual([]);
        },
      ),
    );
  });

  it('stays with the other attributes when its bytes are no known picture, or it is short text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 400 }), (bytes) => {
        // Bytes that no sniffer names: 0x00 first is none of the types picture-type.ts knows.
        const value = Buffer.concat([Buffer.from([0, 1, 2, 3]), bytes]).toString('base64');
        expect(isPictureOfOtherType({ type: 'file', value })).toBe(false);
      }),
    );
    expect(isPictureOfOtherType({ type: 'text', value: 'Ana' })).toBe(false);
    expect(isPictureOfOtherType({ type: 'string', value: JPEG })).toBe(false);
  });

  it('shows on its card the type it was sent as', () => {
    render(
      <PicturePreview
        name="national_id"
        value={JPEG}
        sentAs="sent as type file"
        owner="Ana Silva"
        onReady={noop}
        onOpen={noop}
        onIntent={noop}
        thumbnailRef={noop}
      />,
    );
    expect(screen.getByText(/JPEG · .* · sent as type file/)).toBeInTheDocument();
  });
});

describe('a long base64 of no known picture type among the other attributes', () => {
  it('is shown bounded, with its size', () => {
    const value = Buffer.alloc(3000, 7).toString('base64');
    render(<OtherAttributes attributes={[['tax_document', { type: 'file', value }]]} />);
    expect(screen.getByText(/base64 of no known picture type, 2\.9 kB/)).toBeInTheDocument();
    expect(document.body.textContent!.length).toBeLessThan(600);
  });
});
