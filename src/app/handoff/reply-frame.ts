import { candidatePersonName } from '../../kyc/contract/candidate-name.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { decodeAddress } from '../../kyc/view/address.ts';
import { nameProblem } from './frame-names.ts';
import { greetingPlaces } from './frame-places.ts';
import { contactProblem, folded, heldId, holdsDetail, namesPlace, refused } from './frame-rules.ts';
import { NAME_PARTICLES } from './frame-words.ts';

/**
 * A support agent's own greeting and sign-off ("Hello,", "Kind regards, Sam"), set once and put around
 * every reply they copy. Kept in this browser's localStorage, per user: it is the agent's own text, never
 * candidate data (the storage key is a hash of the user's name, so storage does not list who used the
 * browser, and a text holding the candidate's id, name or e-mail, or any name but the agent's own, e-mail
 * address, phone number, date or document number, is refused: frameProblem).
 */
export interface ReplyFrame {
  greeting: string;
  signOff: string;
}

/** A frame as loaded: one kept before a rule refused what it holds is removed, and that is said. */
export interface LoadedReplyFrame extends ReplyFrame {
  dropped?: string;
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

export function loadReplyFrame(user: string | undefined): LoadedReplyFrame {
  if (user === undefined) return NO_FRAME;
  try {
    const stored: unknown = JSON.parse(window.localStorage.getItem(frameKey(user)) ?? 'null');
    const frame = stored as Partial<ReplyFrame> | null;
    if (!frame || typeof frame.greeting !== 'string' || typeof frame.signOff !== 'string') return NO_FRAME;
    // Kept before e-mail addresses, phone numbers, names, dates and document numbers were refused: a
    // customer's may be in it, so it goes, and the editor says so (the agent saves a general one again).
    const problem = textProblem({ greeting: frame.greeting, signOff: frame.signOff }, user);
    if (problem) {
      window.localStorage.removeItem(frameKey(user));
      return { ...NO_FRAME, dropped: `Your saved greeting and sign-off were removed from this browser. ${problem}` };
    }
    return { greeting: frame.greeting.slice(0, MAX_FRAME_LENGTH), signOff: frame.signOff.slice(0, MAX_FRAME_LENGTH) };
  } catch {
    return NO_FRAME;
  }
}

/**
 * Keeps the frame for the user's next replies, once frameProblem finds nothing in it: undefined when kept,
 * else why not (what it holds, or the browser refused: storage off, full). Nothing is written then.
 */
export function saveReplyFrame(user: string, frame: ReplyFrame, known: KnownOfCandidate): string | undefined {
  const problem = frameProblem(frame, known, user);
  if (problem) return problem;
  try {
    if (frame.greeting.trim() === '' && frame.signOff.trim() === '') window.localStorage.removeItem(frameKey(user));
    else window.localStorage.setItem(frameKey(user), JSON.stringify({ greeting: frame.greeting.trim(), signOff: frame.signOff.trim() }));
    return undefined;
  } catch {
    return 'This browser refused to keep it (storage is off or full).';
  }
}

/** The frame as it is kept and put around a reply: each field trimmed. */
export const trimmedFrame = (frame: ReplyFrame): ReplyFrame => ({ greeting: frame.greeting.trim(), signOff: frame.signOff.trim() });
export const sameFrame = (a: ReplyFrame, b: ReplyFrame) => a.greeting === b.greeting && a.signOff === b.signOff;

/**
 * The frame around the reply once the fields hold `typed`: what is typed (trimmed), saved or not, as soon
 * as frameProblem finds nothing in it, else still the one around it now (`applied`). A refused frame never
 * goes into a reply, and one that would be kept is never left out of it (UX review: a greeting typed but
 * not saved was, and Copy copied the reply without it).
 */
export function frameInUse(applied: ReplyFrame, typed: ReplyFrame, known: KnownOfCandidate, user?: string): ReplyFrame {
  const next = trimmedFrame(typed);
  return frameProblem(next, known, user) === undefined ? next : applied;
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

/** What the page knows of the candidate: their ids, and their name and e-mail address where the record has them. */
export interface KnownOfCandidate {
  ids: ReadonlyArray<string | null | undefined>;
  /** Given name, family name, the full name, the e-mail address. A support user's record has none: identities stay on the server. */
  details: readonly string[];
  /** Their street and city where the record has an address (placesOf): no greeting may come from there. */
  places?: readonly string[];
}

/** The candidate's street and city, as far as the record shown holds an address. */
export function placesOf(record: CandidateRecord): string[] {
  const attribute = record.identities?.address;
  const address = attribute?.type === 'string' ? decodeAddress(attribute.value) : undefined;
  if (!address?.ok) return [];
  return [address.value.address, address.value.city].map((place) => place?.trim() ?? '').filter((place) => place !== '');
}

/**
 * The candidate's name (each part, each word of a part and the whole) and e-mail address, as far as the
 * record shown holds them. Each word, as "Thanks again ada, for your patience" names Ada Augusta
 * Lovelace as surely as "Ada Augusta" does (only the parts were compared, and it was kept); not a
 * particle in any case ("de", "DE", "van": NAME_PARTICLES) nor a word of two letters or fewer, which name
 * no one by themselves and are common words of a frame ("Saludos de parte del equipo," was refused as
 * "“DE”" for ANA DE SOUSA, "Have an easy day" as "“AN”" for VAN AN). The part itself is still compared.
 */
export function detailsOf(record: CandidateRecord): string[] {
  const text = (name: string) => {
    const attribute = record.identities?.[name];
    return attribute?.type === 'string' ? attribute.value.trim() : '';
  };
  const parts = [text('given_name'), text('family_name')];
  const words = parts
    .flatMap((part) => part.split(/[\s-]+/u))
    .filter((word) => !NAME_PARTICLES.has(folded(word)) && [...word.replace(/\.$/u, '')].length > 2);
  const details = [...parts, candidatePersonName(record)?.full ?? '', ...words, text('email')];
  return [...new Set(details)].filter((detail) => detail !== '');
}

/**
 * What is wrong with a frame to keep, or undefined: too long, or holding the candidate's id (any case, any
 * invisible character or separator inside, as whole words), name (or a word of it) or e-mail address, a
 * greeting from their street or city (capitalised), or in any line of either field a person's name
 * (but the signed-in `user`'s own, as far as their user name tells it: nameProblem), an e-mail address, a
 * phone number, a date or a document number (whose it is cannot be told, so none is kept). A guard
 * against slips, not a guarantee: a name or number of another shape still goes through.
 */
export function frameProblem(frame: ReplyFrame, known: KnownOfCandidate, user?: string): string | undefined {
  if (frame.greeting.length > MAX_FRAME_LENGTH || frame.signOff.length > MAX_FRAME_LENGTH) {
    return `A greeting or sign-off is at most ${MAX_FRAME_LENGTH} characters.`;
  }
  const comparable = folded(`${frame.greeting}\n${frame.signOff}`);
  // Quoted as the record has it ("cust_000482" for "ref CUST 000482"); the page shows it already.
  const id = heldId(comparable, known.ids);
  if (id !== undefined) return refused("this candidate's id", id, "is this candidate's id");
  // The longest first: "Ana Silva" is quoted, not "Ana".
  const detail = [...known.details].sort((a, b) => b.length - a.length).find((each) => holdsDetail(comparable, each));
  if (detail !== undefined) {
    const reads = detail.includes('@') ? "is this candidate's e-mail address" : "is this candidate's name";
    return refused("this candidate's name or e-mail address", detail, reads);
  }
  // A place is no one's name ("Greetings from Hong Kong,"), but the candidate's street or city is where
  // they live: a greeting from there would tell every later customer where this one does. Only as a name is
  // written, capitalised: the town of Best is not in "Hello from the best team,".
  const places = greetingPlaces(`${frame.greeting}\n${frame.signOff}`);
  const place = known.places?.find((each) => places.some((named) => namesPlace(named, each)));
  if (place !== undefined) return refused('where this candidate lives', place, 'is where this candidate lives');
  return textProblem(frame, user);
}

/** What the frame's own words hold that no frame may, whoever the candidate (frameProblem without them). */
function textProblem(frame: ReplyFrame, user: string | undefined): string | undefined {
  const text = `${frame.greeting}\n${frame.signOff}`;
  return contactProblem(text) ?? nameProblem(text, user);
}

/**
 * Which field a refused frame is refused for (frameProblem of each alone), for the editor to mark it: both
 * when neither alone is (an id split across the two), so a refusal always points at a field.
 */
export function refusedFields(frame: ReplyFrame, known: KnownOfCandidate, user?: string): { greeting: boolean; signOff: boolean } {
  const greeting = frameProblem({ greeting: frame.greeting, signOff: '' }, known, user) !== undefined;
  const signOff = frameProblem({ greeting: '', signOff: frame.signOff }, known, user) !== undefined;
  return greeting || signOff ? { greeting, signOff } : { greeting: true, signOff: true };
}
