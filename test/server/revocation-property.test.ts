import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../src/kyc/contract/api.ts';
import { followUsersFile, type StoredUser } from '../../src/server/auth/users-file.ts';
import type { Revocation } from '../../src/server/live/live-hub.ts';
import { readRevocation, revocationMessage } from '../../src/server/live/revocations.ts';
import { testPasswordHash } from './passwords.ts';

/**
 * What ends a user's live update streams (issue 31): the users file's watch names exactly the users whose
 * sessions no longer stand, and a revocation crosses Redis as it was sent, whatever else is on its channel.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-revocations-'));
let hashes: string[] = [];
beforeAll(async () => {
  hashes = await Promise.all(['one', 'two', 'three'].map((password) => testPasswordHash(password)));
});

const names = ['ana', 'Tess', 'rita', 'bo.k', 'x@y'];
const entry = fc.record({
  hash: fc.integer({ min: 0, max: 2 }),
  role: fc.constantFrom(...ROLES),
  environments: fc.option(fc.subarray(['a', 'b', 'c'], { minLength: 1 }), { nil: undefined }),
});
/** A users file: some of the names, each with one of three passwords, a role and maybe environments. */
const usersFile = fc.dictionary(fc.constantFrom(...names), entry, { maxKeys: names.length });
type Drawn = Record<string, { hash: number; role: (typeof ROLES)[number]; environments?: string[] }>;

/** Replaced as an editor or a deployment does (a new file renamed over it): a new file even within the kernel's clock tick. */
function write(file: string, drawn: Drawn): void {
  const users: StoredUser[] = Object.entries(drawn).map(([username, user]) => ({
    username,
    passwordHash: hashes[user.hash]!,
    role: user.role,
    ...(user.environments ? { environments: user.environments } : {}),
  }));
  writeFileSync(`${file}.new`, JSON.stringify({ users }));
  renameSync(`${file}.new`, file);
}

describe('the users file’s watch', () => {
  it('names exactly the users removed or given another password, role or environments, once, and nobody else', () => {
    let run = 0;
    fc.assert(
      fc.property(usersFile, usersFile, (before, after) => {
        const file = path.join(dir, `users-${run++}.json`);
        write(file, before);
        const heard: string[][] = [];
        const follower = followUsersFile(file, Date.now, (users) => heard.push([...users].sort()));
        follower.refresh();
        write(file, after);
        follower.refresh();
        follower.refresh();
        const expected = Object.keys(before)
          .filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]))
          .map((name) => name.toLowerCase())
          .sort();
        expect(heard).toEqual(expected.length > 0 ? [expected] : []);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps what it knew through a half-written file, and reads the file again once it is whole', () => {
    const file = path.join(dir, 'half.json');
    const heard: string[][] = [];
    write(file, { ana: { hash: 0, role: 'compliance' }, rita: { hash: 1, role: 'support' } });
    const follower = followUsersFile(file, Date.now, (users) => heard.push([...users]));
    expect([...follower.current().keys()]).toEqual(['ana', 'rita']);
    writeFileSync(file, '{"users":[{"username":"ana"');
    follower.refresh();
    expect([...follower.current().keys()]).toEqual(['ana', 'rita']);
    expect(heard).toEqual([]);
    write(file, { ana: { hash: 0, role: 'compliance' } });
    follower.refresh();
    expect(heard).toEqual([['rita']]);
  });
});

const revocation: fc.Arbitrary<Revocation> = fc.oneof(
  fc.constant({ kind: 'sign-out' as const }),
  fc.record({
    kind: fc.constant('users' as const),
    users: fc.array(fc.string({ minLength: 1, maxLength: 64 }), { minLength: 1, maxLength: 20 }),
  }),
);

describe('a revocation on Redis', () => {
  it('is read back as it was sent, with the instance that sent it', () => {
    fc.assert(
      fc.property(fc.uuid(), revocation, (origin, sent) => {
        expect(readRevocation(revocationMessage(origin, sent))).toEqual({ origin, revocation: sent });
      }),
    );
  });

  it('never throws on whatever another program publishes on its channel, and reads nothing that is not a revocation', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((json) => `origin ${json}`),
        ),
        (message) => {
          const read = readRevocation(message);
          if (read) expect(['users', 'sign-out']).toContain(read.revocation.kind);
        },
      ),
      { numRuns: 500 },
    );
  });
});
