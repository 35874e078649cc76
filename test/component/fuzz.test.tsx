import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import fc from 'fast-check';
import { Component, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { CandidateView } from '../../src/app/candidate/candidate-view.tsx';
import { parseCandidateBody } from '../../src/app/api/fetch-candidate.ts';
import { ApiError } from '../../src/app/api/api-error.ts';
import { BrowserHistory } from '../../src/app/navigation.tsx';
import { sessionQueries } from '../../src/app/session/session-query.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';

/**
 * Property-based: generated and mutated response bodies go through the parser and the candidate page.
 * Never an uncaught exception; every invalid body gives a readable error that names the field.
 */
const seeds = (await sampleCandidates({ now: new Date('2026-11-20T00:00:00.000Z') })).map(({ record }) => {
  // Small pictures keep a thousand renders fast; their content does not matter to these properties.
  const identities =
    record.identities &&
    Object.fromEntries(
      Object.entries(record.identities).map(([name, attribute]) =>
        attribute.type === 'base64' ? [name, { ...attribute, value: attribute.value.slice(0, 400) }] : [name, attribute],
      ),
    );
  return { ...record, ...(identities ? { identities } : {}) } as Record<string, unknown>;
});

type Json = unknown;
const huge = fc.integer({ min: 50_000, max: 200_000 }).map((n) => 'Ж'.repeat(n));
const deep = fc.integer({ min: 100, max: 3000 }).map((depth) => {
  let value: Json = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { nested: value };
  return value;
});
const wrongJsonInString = fc.constantFrom(
  '{"city":',
  '{,,}',
  '[1,2',
  'null',
  '{"phoneNumber":42}',
  '"just a string"',
  '{"country":{"a":1}}',
);
const anyValue: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  huge,
  deep,
  wrongJsonInString,
  fc.constantFrom(undefined, null, '', 0, -1, 1e308, true, [], {}),
);

/** Every path into a JSON value, so a mutation can land anywhere. */
function paths(value: Json, prefix: Array<string | number> = [], depth = 0): Array<Array<string | number>> {
  if (depth > 4 || value === null || typeof value !== 'object') return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, child]) => paths(child, [...prefix, key], depth + 1))];
}

/** Copies only along the path, so values nested thousands deep are never cloned. */
function mutate(node: Json, path: Array<string | number>, replacement: Json, remove: boolean): Json {
  if (path.length === 0) return replacement;
  const [key, ...rest] = path as [string | number, ...Array<string | number>];
  const copy = (Array.isArray(node) ? [...node] : { ...(node as object) }) as Record<string | number, Json>;
  if (rest.length === 0 && remove && !Array.isArray(node)) delete copy[key];
  else copy[key] = mutate(copy[key], rest, replacement, remove);
  return copy;
}

const mutatedBody = fc
  .record({
    seed: fc.constantFrom(...seeds),
    mutations: fc.array(fc.record({ pick: fc.nat(), value: anyValue, remove: fc.boolean() }), { minLength: 1, maxLength: 4 }),
  })
  .map(({ seed, mutations }) => {
    let body: Json = { status: 'success', data: seed };
    for (const { pick, value, remove } of mutations) {
      const all = paths(body);
      body = mutate(body, all[pick % all.length]!, value, remove);
    }
    // A body mutated into `undefined` is sent as the text a server would write for it.
    return JSON.stringify(body) ?? 'undefined';
  });

const arbitraryBody = fc.oneof(
  { weight: 6, arbitrary: mutatedBody },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.base64String({ minLength: 4, maxLength: 400 }) },
);

class Boundary extends Component<{ onError: (error: unknown) => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    this.props.onError(error);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

function renderRecord(record: CandidateRecord): unknown[] {
  const errors: unknown[] = [];
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  queryClient.setQueryData(sessionQueries.current().queryKey, { mode: 'local', user: 'local', role: 'compliance' });
  const { unmount } = render(
    <QueryClientProvider client={queryClient}>
      <BrowserHistory>
        <Boundary onError={(error) => errors.push(error)}>
          <CandidateView record={record} recordCertificateCopy={async () => {}} recordFileSave={async () => {}} />
        </Boundary>
      </BrowserHistory>
    </QueryClientProvider>,
  );
  unmount();
  return errors;
}

describe('fuzzing the response path', () => {
  it('1000 generated bodies: a record that renders, or an error that says what is wrong', () => {
    let valid = 0;
    let invalid = 0;
    fc.assert(
      fc.property(arbitraryBody, (text) => {
        let record: CandidateRecord;
        try {
          record = parseCandidateBody(text);
        } catch (error) {
          invalid++;
          expect(error).toBeInstanceOf(ApiError);
          const apiError = error as ApiError;
          if (apiError.code === 'malformed') {
            // shape-words.ts names the field in the tool's words: "(at data.status)", never Zod's.
            expect(apiError.detail).toMatch(/\S/);
            expect(apiError.detail).not.toMatch(/Invalid input|✖/);
          } else {
            expect(apiError.code).toBe('not_json');
          }
          return;
        }
        valid++;
        expect(renderRecord(record)).toEqual([]);
      }),
      { numRuns: 1000, seed: Number(process.env.FUZZ_SEED ?? 20261121) },
    );
    // Both sides of the property were exercised.
    expect(valid).toBeGreaterThan(100);
    expect(invalid).toBeGreaterThan(100);
    // 17 to 28 s alone; a clean-clone CI run on a machine loaded to 15 (its two cores shared with eight other
    // jobs) passed 300 s. The time allowed guards against a hang, it measures nothing.
  }, 900_000);
});
