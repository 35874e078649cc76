import { afterAll, beforeAll } from 'vitest';

/** Runs the enclosing file or describe with the process (and so jsdom's Date and Intl) in `zone`. */
export function inTimeZone(zone: string) {
  const original = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    // Assigning undefined would set the zone named "undefined" for the tests after these.
    if (original === undefined) delete process.env.TZ;
    else process.env.TZ = original;
  });
}
