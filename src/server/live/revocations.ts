import { z } from 'zod';
import type { Logger } from '../log/log.ts';
import type { LiveHub, Revocation } from './live-hub.ts';

/**
 * Revocations on the live hub (live-hub.ts): this instance's listeners, and the message that carries a
 * revocation to the other instances through Redis. Each message names the hub that sent it, which has
 * told its own listeners already (at once, without waiting for Redis) and ignores its echo.
 */

type Listener = (revocation: Revocation) => void;

export interface RevocationListeners {
  tell(revocation: Revocation): void;
  add(listener: Listener): () => void;
}

/** Each listener is called in turn; one that throws costs nobody else their revocation. */
export function revocationListeners(): RevocationListeners {
  const listeners = new Set<Listener>();
  return {
    tell(revocation) {
      for (const listener of [...listeners]) {
        try {
          listener(revocation);
        } catch {
          // A stream that failed to close is cut by its socket's own end; the others are told regardless.
        }
      }
    },
    add(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** Read like any input: Redis may be shared with other programs. A user name is the users file's (at most 64 characters). */
const revocationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('users'), users: z.array(z.string().min(1).max(64)).min(1).max(100_000) }),
  z.object({ kind: z.literal('sign-out') }),
]);

/** `<origin> <json>`: the hub that sent it, then what ended. */
export function revocationMessage(origin: string, revocation: Revocation): string {
  return `${origin} ${JSON.stringify(revocation)}`;
}

export function readRevocation(message: string): { origin: string; revocation: Revocation } | undefined {
  const space = message.indexOf(' ');
  if (space < 1) return undefined;
  try {
    const parsed = revocationSchema.safeParse(JSON.parse(message.slice(space + 1)));
    return parsed.success ? { origin: message.slice(0, space), revocation: parsed.data } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sessions that ended, told to the event streams of every instance (live-hub.ts). This instance's
 * close at once, whatever Redis does; when Redis cannot be reached, the others find out by themselves.
 */
export function revocationsTo(hub: LiveHub, logger: Logger | undefined): (revocation: Revocation) => void {
  return (revocation) =>
    void hub.revoke(revocation).catch(() => {
      const what = revocation.kind === 'users' ? 'users changed in the users file' : 'a sign-out';
      logger?.warn(
        `Live updates: the other instances could not be told of ${what} (Redis unreachable); they close those streams at their own next look.`,
      );
    });
}
