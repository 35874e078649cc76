import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageAgain } from '../../src/app/lookup/page-again.ts';

/**
 * Enter in the search box on a candidate page: the page's own id, in its environment, with no kind chosen,
 * is the page's lookup once more (its kind, its notes); anything else is a new lookup of the box's kind.
 * Small alphabets, so that the box and the page often share an id and an environment.
 */
const kind = fc.constantFrom('refId' as const, 'recordId' as const);
const id = fc.constantFrom('cust_000482', 'bbbbbbbbbbbbbbbbbbbbbbbb', 'BBBBBBBBBBBBBBBBBBBBBBBB', 'nobody');
const environment = fc.constantFrom(undefined, 'staging', 'acme');
const box = fc.record({ kind, id, environment, chosen: fc.boolean() });
const page = fc.option(fc.record({ kind, id }), { nil: undefined });

describe('pageAgain', () => {
  it("property: again exactly for the page's id in its environment with no kind chosen, and then under the page's kind", () => {
    fc.assert(
      fc.property(box, page, environment, (read, shown, pageEnvironment) => {
        const { kind: looked, again } = pageAgain(read, shown, pageEnvironment);
        const own = shown !== undefined && !read.chosen && read.id === shown.id && read.environment === pageEnvironment;
        expect(again).toBe(own);
        expect(looked).toBe(own ? shown?.kind : read.kind);
      }),
    );
  });

  it('property: a kind chosen is always looked up as chosen, on any page', () => {
    fc.assert(
      fc.property(box, page, environment, (read, shown, pageEnvironment) => {
        expect(pageAgain({ ...read, chosen: true }, shown, pageEnvironment)).toEqual({ kind: read.kind, again: false });
      }),
    );
  });
});
