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

/** How often the file's modification time is looked at, at most, when a request asks. */
const RECHECK_MS = 1000;

export interface UsersFollower {
  /** The users by lower-case name, the file looked at again when the last look is older than a second. */
  current(): Map<string, StoredUser>;
  /** Looks at the file now, however recent the last look (the watch of open live update streams). */
  refresh(): void;
}

/**
 * The users file, read again when it changes, so that a removed user's sessions end and a new role
 * applies at once. A missing file means no users; a file that cannot be read (being rewritten) keeps
 * what was known, and is read again at the next look. `onChange` hears, at the look that reads the
 * change, the (lower-case) names whose entry was removed or changed: their sessions no longer stand.
 */
export function followUsersFile(file: string, now: () => number, onChange?: (users: ReadonlySet<string>) => void): UsersFollower {
  let known: { version: string; checkedAt: number; byName: Map<string, StoredUser> } | undefined;
  const look = (at: number) => {
    const version = versionOf(file);
    if (known && known.version === version) {
      known.checkedAt = at;
      return known.byName;
    }
    let list: StoredUser[];
    try {
      list = version === MISSING ? [] : readUsersFile(file).users;
    } catch {
      // Half written: what was known stands, and the next look reads it again (its time is not taken as read).
      if (known) known.checkedAt = at;
      return known?.byName ?? new Map<string, StoredUser>();
    }
    const before = known?.byName;
    known = { version, checkedAt: at, byName: new Map(list.map((u) => [u.username.toLowerCase(), u])) };
    const changed = before ? changedUsers(before, known.byName) : new Set<string>();
    if (changed.size > 0) onChange?.(changed);
    return known.byName;
  };
  return {
    current: () => {
      const at = now();
      return known && at - known.checkedAt < RECHECK_MS ? known.byName : look(at);
    },
    refresh: () => void look(now()),
  };
}

const MISSING = 'missing';

/**
 * What tells a new file from the one read: its time, and its size and inode too, since two writes within
 * the kernel's clock tick (a few milliseconds) leave the same time. A missing file means no users.
 */
function versionOf(file: string): string {
  try {
    const stats = statSync(file);
    return `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
  } catch {
    return MISSING;
  }
}

/** Who was removed, or given another password, role or environments: each session of theirs has ended. */
function changedUsers(before: Map<string, StoredUser>, after: Map<string, StoredUser>): Set<string> {
  const changed = new Set<string>();
  for (const [name, was] of before) {
    const is = after.get(name);
    if (!is || is.passwordHash !== was.passwordHash || is.role !== was.role || String(is.environments) !== String(was.environments)) {
      changed.add(name);
    }
  }
  return changed;
}
