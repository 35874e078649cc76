import { API_PREFIX } from './api-paths.ts';

/**
 * Presence's path, event names and timing, apart from its schemas (presence.ts): the tab's live stream
 * and its announcements are part of the app's first load, which carries no zod.
 */
export const PRESENCE_PATH = `${API_PREFIX}/presence`;
export const PRESENCE_EVENT_NAME = 'presence';
export const STREAM_HELLO_EVENT_NAME = 'hello';
/**
 * The stream could not send everything the page missed (more than a stream holds at once): the page
 * reads the queue again and re-checks an open candidate's status instead, and the stream goes on from
 * the events after.
 */
export const STREAM_RESYNC_EVENT_NAME = 'resync';
/** A page says again what it shows this often... */
export const PRESENCE_HEARTBEAT_MS = 30_000;
/** ...and an entry not said again for this long is gone (an instance that stopped cannot say its streams ended). */
export const PRESENCE_EXPIRY_MS = 75_000;
/** The largest announcement accepted. */
export const PRESENCE_MAX_BODY_BYTES = 2048;
