import { createHmac } from 'node:crypto';
import { openedSecrets } from './opened-candidates.ts';

/**
 * A candidate's presence rooms: a keyed hash of each of its ids, by which every instance and every page
 * matches the viewers of one candidate (presence.ts). Presence passes between instances on Redis pub/sub,
 * where anyone with SUBSCRIBE or MONITOR (an operator, another program on a shared Redis) reads it: with
 * the ids in the clear beside the user name, they read who opens which candidate, the very question the
 * opened candidates' keys were hashed for. So a message names rooms only, keyed with a secret derived
 * from the environment's full API key (as the opened candidates' are, with a label of its own), which
 * the pages never see: the server gives each page the rooms of the candidates it shows.
 */
export interface CandidateIds {
  refId?: string | null | undefined;
  recordId?: string | null | undefined;
}

/** A candidate's rooms: one per id it has, the refId's first. */
export type RoomsOf = (candidate: CandidateIds) => string[];

/** 128 bits of the HMAC: no two ids of one environment share a room, and every row of a queue page carries its own. */
const ROOM_HEX_LENGTH = 32;

export function roomsWith(secret: Buffer): RoomsOf {
  // The kind is part of what is hashed: a refId that is also another candidate's recordId is another room.
  const room = (kind: string, id: string) =>
    createHmac('sha256', secret)
      .update(JSON.stringify([kind, id]))
      .digest('hex')
      .slice(0, ROOM_HEX_LENGTH);
  return ({ refId, recordId }) => [...(refId ? [room('refId', refId)] : []), ...(recordId ? [room('recordId', recordId)] : [])];
}

/** Each environment's rooms, by its name: the same on every instance that serves it with the same key. */
export function presenceRooms(environments: Parameters<typeof openedSecrets>[0]): ReadonlyMap<string, RoomsOf> {
  return new Map(
    [...openedSecrets(environments)].map(([name, secret]) => [
      name,
      roomsWith(createHmac('sha256', secret).update('candidate-lookup:presence').digest()),
    ]),
  );
}
