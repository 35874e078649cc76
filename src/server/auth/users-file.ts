import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { ROLES, type Role } from '../../kyc/contract/api.ts';
import { ConfigError } from '../config/config.ts';
import { parseJsonText } from '../config/json-text.ts';
import { PASSWORD_HASH_PATTERN } from './passwords.ts';

/** The users file (signIn.usersFile in CONFIG_FILE): `{"users":[{"username":"ana","passwordHash":"scrypt$…","role":"compliance"}]}`. */
export const USERNAME_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/;

const usersFileSchema = z
  .object({
    users: z.array(
      z.object({
        username: z.string().regex(USERNAME_PATTERN, 'must be 1 to 64 letters, digits or . _ @ -'),
        passwordHash: z.string().regex(PASSWORD_HASH_PATTERN, 'must be a scrypt hash written by `npm run user:add`'),
        role: z.enum(ROLES),
        /** The environments (by name) this user may use; absent means all of them. */
        environments: z.array(z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be environment names')).optional(),
      }),
    ),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.users.forEach((user, index) => {
      if (seen.has(user.username.toLowerCase())) {
        ctx.addIssue({ code: 'custom', path: ['users', index, 'username'], message: `duplicate user "${user.username}"` });
      }
      seen.add(user.username.toLowerCase());
    });
  });
export type UsersFile = z.infer<typeof usersFileSchema>;
export interface StoredUser {
  username: string;
  passwordHash: string;
  role: Role;
  environments?: string[];
}

export function readUsersFile(file: string): UsersFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`signIn.usersFile: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'an unexpected error'}`);
  }
  // Line and column only: Node's own message would quote the text there, a password hash perhaps.
  const json = parseJsonText(text);
  if (!json.ok) throw new ConfigError(`signIn.usersFile: ${file} ${json.problem}`);
  const parsed = usersFileSchema.safeParse(json.value);
  if (!parsed.success) throw new ConfigError(`signIn.usersFile: ${file} is not a users file:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Adds a user, or replaces the password and role of an existing one. The file is private to its owner. */
export function upsertUser(file: string, user: StoredUser): 'added' | 'updated' {
  const current = existsSync(file) ? readUsersFile(file) : { users: [] };
  const index = current.users.findIndex((u) => u.username.toLowerCase() === user.username.toLowerCase());
  // A new password or role keeps the user's environment limits unless new ones are given.
  if (index >= 0) current.users[index] = { ...current.users[index], ...user };
  else current.users.push(user);
  writeFileSync(file, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o600 });
  return index >= 0 ? 'updated' : 'added';
}

/** How often the file's modification time is looked at, at most. */
const RECHECK_MS = 1000;

/**
 * The users file, read again when it changes, so that a removed user's sessions end and a new role
 * applies at once. Returns the users by lower-case name. A missing file means no users; a file that
 * cannot be read (being rewritten) keeps what was known.
 */
export function followUsersFile(file: string, now: () => number): () => Map<string, StoredUser> {
  let known: { mtimeMs: number; checkedAt: number; byName: Map<string, StoredUser> } | undefined;
  return () => {
    const at = now();
    if (known && at - known.checkedAt < RECHECK_MS) return known.byName;
    let mtimeMs = -1;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      // A missing file means no users.
    }
    if (!known || known.mtimeMs !== mtimeMs) {
      let list: StoredUser[] = [];
      try {
        list = mtimeMs === -1 ? [] : readUsersFile(file).users;
      } catch {
        list = known ? [...known.byName.values()] : [];
      }
      known = { mtimeMs, checkedAt: at, byName: new Map(list.map((u) => [u.username.toLowerCase(), u])) };
    }
    known.checkedAt = at;
    return known.byName;
  };
}
