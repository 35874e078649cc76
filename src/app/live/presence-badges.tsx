/** How presence shows: initials on a queue row, a line on the candidate page; always in words too, never the circles alone. */

/** "ana" → "A", "ana.silva" → "AS", "ana.silva@example.com" → "AS": the first letters of a user name's first two parts. */
export function initialsOf(user: string): string {
  const local = user.includes('@') ? user.slice(0, user.indexOf('@')) : user;
  const parts = local.split(/[\s._-]+/).filter(Boolean);
  const letters = (parts.length > 0 ? parts : [user]).slice(0, 2).map((part) => [...part][0] ?? '');
  return letters.join('').toUpperCase() || '?';
}

/** "ana is viewing", "ana and sam are viewing", "ana, sam and 2 others are viewing". */
export function viewingText(users: readonly string[]): string {
  if (users.length === 1) return `${users[0]} is viewing`;
  if (users.length === 2) return `${users[0]} and ${users[1]} are viewing`;
  const others = users.length - 2;
  return `${users[0]}, ${users[1]} and ${others} ${others === 1 ? 'other' : 'others'} are viewing`;
}

function Initials({ user }: { user: string }) {
  return (
    <span
      aria-hidden="true"
      className="inline-flex size-6 items-center justify-center rounded-full bg-violet-100 text-[0.65rem] font-semibold text-violet-900 ring-1 ring-violet-300"
    >
      {initialsOf(user)}
    </span>
  );
}

/** A queue row's: each viewer's initials (at most three, then "+2"), named in full on hover and to screen readers. */
export function ViewerInitials({ users }: { users: readonly string[] }) {
  if (users.length === 0) return null;
  const text = viewingText(users);
  return (
    <span className="relative z-10 inline-flex items-center gap-0.5" title={text} data-viewers={users.join(' ')}>
      {users.slice(0, 3).map((user) => (
        <Initials key={user} user={user} />
      ))}
      {users.length > 3 && (
        <span aria-hidden="true" className="text-xs text-violet-900">
          +{users.length - 3}
        </span>
      )}
      <span className="sr-only">{text}</span>
    </span>
  );
}

/** The candidate page's: "ana is viewing this candidate", with their initials. */
export function ViewersLine({ users }: { users: readonly string[] }) {
  if (users.length === 0) return null;
  return (
    <p className="inline-flex items-center gap-2 text-sm font-medium text-violet-950" data-testid="viewers">
      <span className="inline-flex gap-0.5">
        {users.slice(0, 3).map((user) => (
          <Initials key={user} user={user} />
        ))}
      </span>
      {viewingText(users)} this candidate
    </p>
  );
}
