import { describe, expect, it } from 'vitest';
import { comparedRow } from '../../scripts/bench-engine.mjs';

/**
 * The benchmark's issue 20 table (bench-engine.mjs): a time in ms is judged only against the build before
 * run beside it (`--before`), never against the figure recorded on another machine, which every run here
 * read as MISSED (110 ms against 72); a ratio of two sides of one run is judged against its record.
 */
describe("the answer engine's rows", () => {
  it('print a time beside its record but judge it only against the same run', () => {
    const alone = comparedRow('server CPU per lookup in parts', 110, 72, undefined, ' ms', 0);
    expect(alone).toEqual(['server CPU per lookup in parts', '110 ms', '72 ms', '', '+53 %', 'with --before', 'not judged']);
    expect(comparedRow('cpu', 110, 72, 100, ' ms', 0).slice(3)).toEqual(['100 ms', '+10 %', '<= 133 ms', 'met']);
    expect(comparedRow('cpu', 140, 72, 100, ' ms', 0).at(-1)).toBe('MISSED');
  });

  it('judge a ratio of one run against the recorded ratio', () => {
    expect(comparedRow('proxy / bare', 1.42, 0.95, undefined, '', 2).slice(4)).toEqual(['+49 %', '<= 1.27', 'MISSED']);
    expect(comparedRow('proxy / bare', 1.05, 0.95, undefined, '', 2).at(-1)).toBe('met');
  });
});
