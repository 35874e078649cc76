import { candidatePersonName } from '../../kyc/contract/candidate-name.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { NAME_LINE } from '../../kyc/view/id-input.ts';

/**
 * A support agent's own greeting and sign-off ("Hello,", "Kind regards, Sam"), set once and put around
 * every reply they copy. Kept in this browser's localStorage, per user: it is the agent's own text, never
 * candidate data (the storage key is a hash of the user's name, so storage does not list who used the
 * browser, and a text holding the candidate's id, name or e-mail, or any e-mail address or phone number,
 * is refused: frameProblem).
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
    // Kept before e-mail addresses, phone numbers and names were refused: a customer's may be in it, so it
    // goes, and the editor says so (the agent saves a general one again).
    const problem = contactProblem(`${frame.greeting}\n${frame.signOff}`) ?? nameProblem(frame.greeting);
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
  const problem = frameProblem(frame, known);
  if (problem) return problem;
  try {
    if (frame.greeting.trim() === '' && frame.signOff.trim() === '') window.localStorage.removeItem(frameKey(user));
    else window.localStorage.setItem(frameKey(user), JSON.stringify({ greeting: frame.greeting.trim(), signOff: frame.signOff.trim() }));
    return undefined;
  } catch {
    return 'This browser refused to keep it (storage is off or full).';
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

/*
 * What a greeting or sign-off to keep must not hold. It stays in localStorage long after the page has
 * gone, so it must be the agent's own words and no candidate's data (privacy audit: "Hello Zoë Ångström,
 * zoe.angstrom@example.se" was kept as typed, as only the candidate's id was refused).
 */

/** What the page knows of the candidate: their ids, and their name and e-mail address where the record has them. */
export interface KnownOfCandidate {
  ids: ReadonlyArray<string | null | undefined>;
  /** Given name, family name, the full name, the e-mail address. A support user's record has none: identities stay on the server. */
  details: readonly string[];
}

/** The candidate's name (each part and whole) and e-mail address, as far as the record shown holds them. */
export function detailsOf(record: CandidateRecord): string[] {
  const text = (name: string) => {
    const attribute = record.identities?.[name];
    return attribute?.type === 'string' ? attribute.value.trim() : '';
  };
  const details = [text('given_name'), text('family_name'), candidatePersonName(record)?.full ?? '', text('email')];
  return details.filter((detail) => detail !== '');
}

/** Why a frame was not kept, and what to save instead; the fields keep what was typed, so nothing is lost. */
const refused = (what: string) =>
  `Not saved: the greeting and sign-off are kept in this browser for every reply, so they must not hold ${what}. ` +
  'Save a general one, such as "Hello," or "Dear customer,", and write the customer\'s details in the reply itself. What you typed is still here.';

/** "x@y.z", after NFKC has made a full-width "＠" an "@". */
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@.]{2,}/u;
/** A run of digits joined by spaces, "+", "-", "." or brackets: "+46 70-123 45 67". Counted, not matched whole. */
const DIGIT_RUN = /[+(]?\p{Nd}(?:[\p{Nd}\s().+-]*\p{Nd})?/gu;
const PHONE_DIGITS = 8;
/**
 * A run read as a phone number (with PHONE_DIGITS digits or more): digits alone ("0701234567"), or with a
 * "+" or "(" first, or grouped by spaces ("06 12 34 56 78"), as people write numbers. A run joined by "-"
 * and "." only is years, dates or hours ("2025-2026", "Mon-Fri 09.00-17.00"), never refused for it.
 */
const PHONE_LIKE = /^[+(]|^\p{Nd}+$|\p{Nd}\s+[(\p{Nd}]/u;
/** Scripts written without spaces between words: a name there is found anywhere in the text. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/** The text as it is compared: one form of each character ("e" + "¨" is "ë", full-width is plain), any case. */
const folded = (text: string) => text.normalize('NFKC').toLowerCase();

const holdsPhoneNumber = (text: string) =>
  [...text.matchAll(DIGIT_RUN)].some(
    ([run]) => [...run].filter((char) => /\p{Nd}/u.test(char)).length >= PHONE_DIGITS && PHONE_LIKE.test(run),
  );

/** A greeting's first word that only greets: the words after it are who is greeted. */
const SALUTATION = /^(?:hello|hi|hey|dear|greetings|good|hallo|bonjour|hola|olá|ciao|hej|hei|moin|salut|merhaba)$/u;
/** Words that greet no one in particular: "Hello Team,", "Dear Sir or Madam,", "Dear Valued Customer". */
const NO_ONE =
  /^(?:sir|madam|team|customer|customers|client|all|there|everyone|friend|friends|user|valued|support|colleague|colleagues|morning|afternoon|evening)$/u;

/**
 * A greeting that names someone ("Hello Mehmet Yılmaz,", "Dear Ana Silva", "Maria de Souza,"): a support
 * user's page holds no name to compare with (its record is status level), so who is greeted is read as the
 * search box reads a name (NAME_LINE: two or more capitalised words), unless a word of it greets no one in
 * particular. One given name alone ("Hello Ana,") cannot be told from "Hello Team," and is kept.
 */
export function nameProblem(greeting: string): string | undefined {
  const words = greeting
    .trim()
    .replace(/[\s,.!:;]+$/u, '')
    .split(/\s+/u);
  const greeted = SALUTATION.test(words[0]?.toLowerCase() ?? '') ? words.slice(1) : words;
  if (greeted.some((word) => NO_ONE.test(word.toLowerCase()))) return undefined;
  return NAME_LINE.test(greeted.join(' ')) ? refused("a person's name") : undefined;
}

/** Whether the (folded) text holds the detail as a word of its own: "Ana" is not in "Anastasia from Support". */
function holdsDetail(text: string, detail: string): boolean {
  const needle = folded(detail.trim());
  if (needle === '') return false;
  if (UNSPACED.test(needle)) return text.includes(needle);
  const escaped = needle.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])${escaped}(?![\\p{L}\\p{M}\\p{N}])`, 'u').test(text);
}

/**
 * What is wrong with a frame to keep, or undefined: too long, or holding the candidate's id, name or
 * e-mail address, or any e-mail address or phone number (whose it is cannot be told, so none is kept).
 */
export function frameProblem(frame: ReplyFrame, known: KnownOfCandidate): string | undefined {
  if (frame.greeting.length > MAX_FRAME_LENGTH || frame.signOff.length > MAX_FRAME_LENGTH) {
    return `A greeting or sign-off is at most ${MAX_FRAME_LENGTH} characters.`;
  }
  const text = `${frame.greeting}\n${frame.signOff}`;
  if (known.ids.some((id) => id && id.length >= 3 && text.includes(id))) return refused("this candidate's id");
  const comparable = folded(text);
  if (known.details.some((detail) => holdsDetail(comparable, detail))) {
    return refused("this candidate's name or e-mail address");
  }
  return contactProblem(comparable) ?? nameProblem(frame.greeting);
}

/**
 * Which field a refused frame is refused for (frameProblem of each alone), for the editor to mark it: both
 * when neither alone is (an id split across the two), so a refusal always points at a field.
 */
export function refusedFields(frame: ReplyFrame, known: KnownOfCandidate): { greeting: boolean; signOff: boolean } {
  const greeting = frameProblem({ greeting: frame.greeting, signOff: '' }, known) !== undefined;
  const signOff = frameProblem({ greeting: '', signOff: frame.signOff }, known) !== undefined;
  return greeting || signOff ? { greeting, signOff } : { greeting: true, signOff: true };
}

/** An e-mail address or a phone number in the text, anyone's: said, or undefined. */
export function contactProblem(text: string): string | undefined {
  const comparable = folded(text);
  // Whose it is cannot be told, so the agent's own is refused too.
  if (EMAIL.test(comparable)) return refused('an e-mail address, not even your own');
  if (holdsPhoneNumber(comparable)) return refused(`a phone number (${PHONE_DIGITS} digits or more), not even your own`);
  return undefined;
}
