/**
 * A support agent's own greeting and sign-off ("Hello,", "Kind regards, Sam"), set once and put around
 * every reply they copy. Kept in this browser's localStorage, per user: it is the agent's own text, never
 * candidate data (the storage key is a hash of the user's name, so storage does not list who used the
 * browser, and a text holding the id of the candidate shown is refused).
 */
export interface ReplyFrame {
  greeting: string;
  signOff: string;
}

export const NO_FRAME: ReplyFrame = { greeting: '', signOff: '' };
export const MAX_FRAME_LENGTH = 300;
const KEY_PREFIX = 'candidate-lookup:reply-frame:';

/** FNV-1a, 32 bits: a short, stable stand-in for the user's name in the storage key (not a secret). */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (const char of text) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

export const frameKey = (user: string) => `${KEY_PREFIX}${hashOf(user)}`;

export function loadReplyFrame(user: string | undefined): ReplyFrame {
  if (user === undefined) return NO_FRAME;
  try {
    const stored: unknown = JSON.parse(window.localStorage.getItem(frameKey(user)) ?? 'null');
    const frame = stored as Partial<ReplyFrame> | null;
    if (!frame || typeof frame.greeting !== 'string' || typeof frame.signOff !== 'string') return NO_FRAME;
    return { greeting: frame.greeting.slice(0, MAX_FRAME_LENGTH), signOff: frame.signOff.slice(0, MAX_FRAME_LENGTH) };
  } catch {
    return NO_FRAME;
  }
}

/** What is wrong with a frame to keep, or undefined: too long, or holding an id of the candidate shown. */
export function frameProblem(frame: ReplyFrame, ids: ReadonlyArray<string | null | undefined>): string | undefined {
  if (frame.greeting.length > MAX_FRAME_LENGTH || frame.signOff.length > MAX_FRAME_LENGTH) {
    return `A greeting or sign-off is at most ${MAX_FRAME_LENGTH} characters.`;
  }
  const text = `${frame.greeting}\n${frame.signOff}`;
  if (ids.some((id) => id && id.length >= 3 && text.includes(id))) {
    return "The greeting and sign-off are kept in this browser for every reply: they must not hold this candidate's id.";
  }
  return undefined;
}

/** Keeps the frame for the user's next replies; false when the browser refused (storage off, full). */
export function saveReplyFrame(user: string, frame: ReplyFrame): boolean {
  try {
    if (frame.greeting.trim() === '' && frame.signOff.trim() === '') window.localStorage.removeItem(frameKey(user));
    else window.localStorage.setItem(frameKey(user), JSON.stringify({ greeting: frame.greeting.trim(), signOff: frame.signOff.trim() }));
    return true;
  } catch {
    return false;
  }
}

/** The reply as the editor first shows it: greeting, the filled template, sign-off, each a paragraph, the empty ones left out. */
export function framed(body: string, frame: ReplyFrame): string {
  return [frame.greeting.trim(), body, frame.signOff.trim()].filter((part) => part !== '').join('\n\n');
}

/**
 * The edited text with a new frame: the old greeting replaced where it still opens the text (or the new
 * one added where there was none), the same for the sign-off at the end; where the agent changed the old
 * one by hand, theirs stays. The rest of their edits stay too.
 */
export function reframed(text: string, from: ReplyFrame, to: ReplyFrame): string {
  const parts = { greeting: '', body: text, signOff: '' };
  const oldGreeting = from.greeting.trim();
  const oldSignOff = from.signOff.trim();
  if (oldGreeting === '') parts.greeting = to.greeting.trim();
  else if (parts.body.startsWith(`${oldGreeting}\n\n`)) {
    parts.body = parts.body.slice(oldGreeting.length + 2);
    parts.greeting = to.greeting.trim();
  }
  if (oldSignOff === '') parts.signOff = to.signOff.trim();
  else if (parts.body.endsWith(`\n\n${oldSignOff}`)) {
    parts.body = parts.body.slice(0, -(oldSignOff.length + 2));
    parts.signOff = to.signOff.trim();
  }
  return [parts.greeting, parts.body, parts.signOff].filter((part) => part !== '').join('\n\n');
}
