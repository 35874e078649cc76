import { z } from './zod.ts';

/**
 * Presence (issue 33): who else has a candidate open right now. Each open page says which candidate it
 * shows (`POST /api/presence`, again every PRESENCE_HEARTBEAT_MS), tied to the tab's live update stream,
 * which names itself first (`event: hello`); the server passes who is where to every stream (`event:
 * presence`), each user seeing the others in the environments they may use. Nothing is stored: an entry
 * lives as long as its stream (its end removes it at once) or its heartbeats (PRESENCE_EXPIRY_MS).
 */
export {
  PRESENCE_EVENT_NAME,
  PRESENCE_EXPIRY_MS,
  PRESENCE_HEARTBEAT_MS,
  PRESENCE_MAX_BODY_BYTES,
  PRESENCE_PATH,
  STREAM_HELLO_EVENT_NAME,
  STREAM_RESYNC_EVENT_NAME,
} from './presence-paths.ts';

/** A stream's name for itself: random, as the server made it. */
const streamId = z.string().check(z.regex(/^[A-Za-z0-9_-]{16,64}$/, 'expected the stream id of a hello event'));
/** An id the announcement knows, or null; one it does not know may also be left out (read as null). */
const candidateId = z._default(z.nullable(z.string().check(z.maxLength(256))), null);

/** A candidate as presence names it: the ids a queue row and a candidate page both know (at least one). */
export const presenceCandidateSchema = z
  .object({ refId: candidateId, recordId: candidateId })
  .check(z.refine((candidate) => Boolean(candidate.refId || candidate.recordId), 'a refId or a recordId is required'));
export type PresenceCandidate = z.infer<typeof presenceCandidateSchema>;

/** `POST /api/presence`: this tab (by its stream) shows this candidate of this environment, or none (null). */
export const presenceAnnouncementSchema = z.object({
  stream: streamId,
  environment: z.string().check(z.minLength(1), z.maxLength(64)),
  candidate: z.nullable(presenceCandidateSchema),
});
export type PresenceAnnouncement = z.infer<typeof presenceAnnouncementSchema>;

/** What `POST /api/presence` answers: the rooms of the candidate announced (none for no candidate). */
export const presenceRoomsSchema = z.object({ rooms: z.array(z.string()) });

/** `event: hello`: the stream's id, which the page's announcements name. */
export const streamHelloSchema = z.object({ stream: streamId });

/**
 * Someone else with a candidate open: their user name, nothing more of them, and the candidate's rooms (a
 * keyed hash of each of its ids, made by the server, which alone holds the key): a page matches them with
 * the rooms it was given for the candidates it shows, never with ids, which never pass between instances.
 */
export const presenceViewerSchema = z.object({
  user: z.string(),
  environment: z.string(),
  rooms: z.array(z.string()),
});
export type PresenceViewer = z.infer<typeof presenceViewerSchema>;

/** `event: presence`: everyone else's open candidates, whole each time (a few dozen at most). */
export const presenceSnapshotSchema = z.object({ viewers: z.array(presenceViewerSchema) });
