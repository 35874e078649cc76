import { z } from '../../kyc/contract/zod.ts';

/**
 * What instances tell each other about presence (through the live hub: in this process, or Redis
 * pub/sub): a tab's stream shows a candidate of an environment (`here`), or none any more, or ended
 * (`gone`). Never stored, never replayed: an instance that starts later learns each entry from its
 * page's next heartbeat. A candidate is named by its rooms (lookup/presence-rooms.ts), never by its ids:
 * whoever reads the channel reads user names, and must not read beside them whom they look at.
 */
const text = (max: number) => z.string().check(z.maxLength(max));
export const presenceMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('here'),
    user: text(256),
    stream: text(64),
    environment: text(64),
    rooms: z.array(text(64)).check(z.minLength(1), z.maxLength(2)),
  }),
  z.object({ type: z.literal('gone'), user: text(256), stream: text(64) }),
]);
export type PresenceMessage = z.infer<typeof presenceMessageSchema>;

/** Where presence messages go to every instance, and come back from them (the publisher's own included). */
export interface PresenceChannel {
  publish(message: PresenceMessage): Promise<void>;
  subscribe(listener: (message: PresenceMessage) => void): () => void;
}

/** The channel of one process: what is published is heard at once, by every subscriber of this process. */
export function localPresenceChannel(): PresenceChannel {
  const listeners = new Set<(message: PresenceMessage) => void>();
  return {
    async publish(message) {
      for (const listener of listeners) listener(message);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** A message heard on Redis, checked like any input: Redis may be shared with other programs. */
export function readPresenceMessage(text: string): PresenceMessage | undefined {
  try {
    const parsed = presenceMessageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
