import { greetsFrom, isSentFrom, nameAfterPlace, PARTICLE, PART_BREAK, placeEnd, placesRead } from './frame-places.ts';
import { bare, folded, refused } from './frame-rules.ts';
import {
  CLOSING,
  CLOSING_FILLER,
  GREETING_FILLER,
  LEAD,
  NO_ONE,
  ORGANISATION,
  SALUTATION,
  TIME_OF_DAY,
  TITLE,
  WEAK,
} from './frame-words.ts';

/** A word as a name is written: capitalised (or in capitals), letters and the marks names hold. */
const CAPITALISED = /^[\p{Lu}\p{Lt}\p{Lo}][\p{L}\p{M}'’.-]*$/u;
const LETTERS = /^\p{L}[\p{L}\p{M}'’.-]*$/u;

/** An initial: one letter, maybe with its dot ("A.", "a"). */
const INITIAL = /^\p{L}\.?$/u;
/** A letter alone, without a dot: "a" or "A" starts no name ("A quick update"). */
const isLetterAlone = (word: string) => INITIAL.test(word) && !word.endsWith('.');
/** An initial written as one starts a name: a capital with its dot ("A. Zyxwvut"). */
const startsAsInitial = (word: string) => INITIAL.test(word) && !isLetterAlone(word) && /^\p{Lu}/u.test(word);

// "I" names the agent, never a customer ("Hi, I am Sam."); "I." is an initial ("Dear I. Smith,").
const isNoOne = (word: string) => NO_ONE.has(bare(word)) || SALUTATION.has(bare(word)) || folded(word) === 'i';
/**
 * A word that goes on with a run of names, though it may name no one elsewhere: an initial ("Gertrude A.
 * Zyxwvut": "a" is an article too), or a common word written with a capital (WEAK: "Billie Holiday").
 */
const goesOn = (word: string, anyCase: boolean) =>
  INITIAL.test(word) ? anyCase || /^\p{Lu}/u.test(word) : WEAK.has(bare(word)) && CAPITALISED.test(word);
/**
 * Whether the word at `index` goes on with the run of `names` (or starts one right after a word a name
 * follows: "Re: An Nguyen,"): an initial before another word, or a common word with a capital; not an
 * organisation's word after one name ("Acme Payments").
 */
function goesOnAt(words: readonly string[], index: number, names: readonly string[]): boolean {
  const word = words[index]!;
  // An initial with its dot ("A. Zyxwvut") may start a name; a letter alone is "a" there ("A quick update").
  const after = names.length > 0 || startsAsInitial(word) || (index > 0 && LEAD.has(bare(words[index - 1]!)));
  if (!after || !goesOn(word, false)) return false;
  if (INITIAL.test(word)) return index < words.length - 1;
  return !(names.length === 1 && ORGANISATION.has(bare(word)));
}
// The time of day is read as the greeting word it goes with: "good morning, ana silva", "guten tag, ana silva".
const isLead = (word: string) => LEAD.has(bare(word)) || SALUTATION.has(bare(word)) || TIME_OF_DAY.has(bare(word));
/**
 * The words of the signed-in user's name as the session gives it ("sam.smith", "sam.smith@example.org",
 * "Sam Smith"): a run of names made of these alone is the agent's own ("Kind regards, Sam Smith"), theirs
 * to sign with (it was refused as anyone's full name). A user name of one word ("sam") tells no family
 * name, so "Sam Smith" is still refused for that user.
 */
function ownNameWords(user: string | undefined): ReadonlySet<string> {
  const [local = ''] = folded(user ?? '')
    .replace(/’/gu, "'")
    .split('@');
  return new Set(local.split(/[^\p{L}\p{M}']+/u).filter((word) => [...word].length >= 2));
}
const isOwn = (names: readonly string[], own: ReadonlySet<string>) =>
  own.size > 0 &&
  names.every((name) =>
    bare(name)
      .split('-')
      .every((part) => own.has(part)),
  );

/** A name has at most this many words (particles counted): more words of letters in a row are a sentence. */
const MAX_NAME_WORDS = 5;

/** Words read as a name, to be quoted in the refusal ("Gertrude Zyxwvut"), or undefined when none is. */
type Named = readonly string[] | undefined;

/**
 * The first run of two or more words that reads as a name: capitalised words (with particles between),
 * none of them a word that names no one. `anyCase`: a run of any words of letters, for who is greeted
 * right after "Hello" ("hello gertrude zyxwvut,").
 */
function nameRun(words: readonly string[], anyCase: boolean, own: ReadonlySet<string>): Named {
  let names: string[] = [];
  // Where the run starts and ends, to quote it as typed with its particles: "Maria de Souza" (it was "Maria Souza").
  let [from, to] = [0, 0];
  const isName = () => names.length >= 2 && !isOwn(names, own);
  for (const [index, word] of words.entries()) {
    if (isNoOne(word) && !goesOnAt(words, index, names)) {
      // A run that ends in who the agent works for is theirs, not a person's: "Open Banking Ltd",
      // "Candidate Lookup Support"; one ended otherwise is a name ("Gertrude Zyxwvut and team").
      if (isName() && !ORGANISATION.has(bare(word))) return words.slice(from, to);
      names = [];
    } else if ((anyCase ? LETTERS : CAPITALISED).test(word)) {
      if (names.length === 0) from = index;
      names.push(word);
      to = index + 1;
    } else if (!(names.length > 0 && PARTICLE.test(word) && index < words.length - 1)) {
      if (isName()) return words.slice(from, to);
      names = [];
    }
    if (anyCase && names.length === 0) return undefined;
  }
  return isName() ? words.slice(from, to) : undefined;
}

/**
 * The name the part is, written in any case ("ana silva", "gertrude zyxwvut and team"): two to
 * MAX_NAME_WORDS words of letters, none a word that names no one, then nothing but such words, the first
 * of them no organisation's word ("open banking ltd" is the agent's employer).
 */
function nameAlone(words: readonly string[], own: ReadonlySet<string>): Named {
  let names = 0;
  // A name's word, or, before another, an initial or a common word with a capital (goesOn: "An Nguyen"),
  // after a name's word in any case ("gertrude a zyxwvut").
  const isNameWord = (word: string, at: number) =>
    LETTERS.test(word) &&
    (!isNoOne(word) || (at < words.length - 1 && goesOn(word, at > 0) && (at > 0 || !isLetterAlone(word)) && !isNoOne(words[at + 1]!)));
  while (names < words.length && isNameWord(words[names]!, names)) names += 1;
  if (names < 2 || names > MAX_NAME_WORDS || isOwn(words.slice(0, names), own)) return undefined;
  const after = words.slice(names);
  return after.length === 0 || (!ORGANISATION.has(bare(after[0]!)) && after.every(isNoOne)) ? words.slice(0, names) : undefined;
}

/**
 * A name in any case where a frame puts a name: at the start of a line ("Kind regards,\nana silva"), or
 * after nothing but a closing, a reference or a greeting word ("Thanks ana silva", "re: gertrude zyxwvut,
 * born …", "kind regards, ana silva"). Only there: elsewhere words in lower case are the agent's sentence
 * ("thanks for reaching out"), which capitals would tell from a name and lower case cannot.
 */
function nameInPlace(parts: ReadonlyArray<readonly string[]>, own: ReadonlySet<string>): Named {
  for (const part of parts) {
    // "Hello from Acme, ana silva": a greeting from a place leads the next part as "Hello," does.
    if (greetsFrom(part)) continue;
    let leads = 0;
    while (leads < part.length && isLead(part[leads]!)) leads += 1;
    const named = nameAlone(part.slice(leads), own);
    if (named || leads < part.length) return named;
  }
  return undefined;
}

/**
 * Who a greeting line greets: the words after its first one when that one only greets ("Hello"), else
 * none; in a greeting from somewhere, the words after its "to" ("Hello from the Acme team to ana,").
 */
function greeted(part: readonly string[]): readonly string[] {
  if (!SALUTATION.has(folded(part[0] ?? ''))) return [];
  return isSentFrom(part) ? part.slice(placeEnd(part) + 1) : part.slice(1);
}

/**
 * The name in the place after a greeting's "from" (its place words read as placesRead reads them), in
 * any case: said apart, as the agent meant a place or their side and is told what is kept.
 */
function nameAsPlace(part: readonly string[], own: ReadonlySet<string>): Named {
  if (!isSentFrom(part)) return undefined;
  const place = placesRead(part).slice(2, placeEnd(part));
  const named = nameRun(place, false, own) ?? nameInPlace([place], own);
  // "Greetings from Cape Town Gertrude,": one name after the place greets someone, as after its comma.
  const after = nameAfterPlace(part);
  return named ?? (after !== undefined && CAPITALISED.test(after) && !isNoOne(after) && !isOwn([after], own) ? [after] : undefined);
}
const NAMED_AS_PLACE =
  'a person\'s name (after a greeting\'s "from", two names are read as someone\'s, a place\'s too unless a word such as "San", "Tel" or "Kuala" starts it or it is a country\'s, and one name after a place as who is greeted: "Greetings from the support team," is kept)';

/**
 * A greeting to one given name ("Hello Siobhán,"): in a frame kept for every reply it is one customer's
 * name put before the next customer's reply. Words that greet no one ("Hello Team,", "Dear Customer,")
 * are kept; a sign-off's one given name is the agent's own ("Sam from Support") and is kept too, as is
 * one of `own` (the part after "Hello from Acme," saying who writes: "Sam here." for the user sam).
 */
function oneNameGreeted(who: readonly string[], anyCase: boolean, own: ReadonlySet<string> = new Set()): Named {
  // "Good morning Ana,", "Hello there Ana,", "Welcome back Ana,", "Dear valued customer Ana,": the time of
  // day and such words belong to the greeting (the name after them was kept).
  const at = who.findIndex((word) => !TIME_OF_DAY.has(bare(word)) && !GREETING_FILLER.has(bare(word)));
  const [first, next] = at === -1 ? [] : who.slice(at);
  const isName = (word: string | undefined): word is string =>
    word !== undefined && !isNoOne(word) && (anyCase ? LETTERS : CAPITALISED).test(word) && !isOwn([word], own);
  // "Dear Mr/Ms,", "Dear Mr or Ms,": a title alone greets no one (it was refused as a name); "Dear Mrs Zyxwvut," does.
  if (first !== undefined && TITLE.has(bare(first))) return isName(next) ? [first, next] : undefined;
  return isName(first) ? [first] : undefined;
}

/** A part that only greets: a greeting word, maybe with the time of day ("Hi", "Good morning", "Guten Tag"). */
const greetsOnly = ([first, ...rest]: readonly string[]) =>
  first !== undefined && SALUTATION.has(bare(first)) && rest.every((word) => TIME_OF_DAY.has(bare(word)));

/** Titles offered as a choice, "Mr/Ms", "Mr./Mrs.": read as the first alone, else "/" splits them and "Ms" stands for a name. */
const TITLE_CHOICE = /(?<![\p{L}\p{M}])(mr|mrs|ms|mx|miss|dr)\.?(?:\s*\/\s*(?:mr|mrs|ms|mx|miss|dr)\.?)+(?![\p{L}\p{M}])/giu;

/**
 * A line that names someone ("Hello Mehmet Yılmaz,", "Re: Gertrude Zyxwvut, born …", "Dear Ana Silva and
 * team,"): a support user's page holds no name to compare with (its record is status level), so a name is
 * read by its shape, two or more capitalised words in a part of a line, or in any case where a frame puts
 * a name (nameInPlace: "Thanks ana silva", "Kind regards,\nana silva"; before, a name in lower case there
 * was kept) and right after a greeting word, or one word right after it ("Hello Ana,", "Good morning
 * ana,", "hi, ana"), also after a greeting's "from" (placesRead). One given name elsewhere ("Sam from Support") cannot be told from a word and is kept.
 * A full name made of the signed-in user's name alone is theirs (ownNameWords) and kept; any other full
 * name is refused, the agent's own where the user name does not hold it, as whose it is cannot be told.
 */
export function nameProblem(text: string, user?: string): string | undefined {
  const own = ownNameWords(user);
  for (const line of text.split('\n')) {
    const written = line
      .replace(TITLE_CHOICE, '$1')
      .split(PART_BREAK)
      .map((part) => part.trim().split(/\s+/u).filter(Boolean));
    const parts = written.map(placesRead);
    const asPlace = firstNamed(written, (part) => nameAsPlace(part, own));
    if (asPlace) return refused(NAMED_AS_PLACE, asPlace.join(' '), "reads like a person's name");
    const named = firstNamed(parts, (part) => nameRun(part, false, own)) ?? nameInPlace(parts, own) ?? greetedName(parts, own);
    if (named) return refused("a person's name", named.join(' '));
    const thanked = closingName(parts, own);
    if (thanked) return refused(NAMED_AFTER_CLOSING, thanked.join(' '), "reads like a person's name");
  }
  return undefined;
}

const firstNamed = (parts: ReadonlyArray<readonly string[]>, read: (part: readonly string[]) => Named): Named =>
  parts.map(read).find((named) => named !== undefined);

/** Who the line's greeting greets by name, in any case: after its greeting word ("hello ana,"), or in the part after ("Hi, Ana"). */
function greetedName(parts: ReadonlyArray<readonly string[]>, own: ReadonlySet<string>): Named {
  const who = greeted(parts[0] ?? []);
  const named = nameRun(who, true, own) ?? oneNameGreeted(who, true);
  if (named) return named;
  // "Hi, Ana", "Guten Tag, Ana": a greeting word alone in its part (with the time of day) greets whoever
  // the next part names, if capitalised, or in any case when that one word is all the part holds ("hi,
  // ana"; "hi, hope you are well" is kept). So does a greeting from a place: "Hello from Acme, Gertrude,"
  // (kept, where "Hello from Acme to Gertrude," was refused).
  const next = parts[1] ?? [];
  const first = parts[0] ?? [];
  return greetsOnly(first) || greetsFrom(first) ? oneNameGreeted(next, next.length === 1, own) : undefined;
}

const NAMED_AFTER_CLOSING =
  'a person\'s name (after a closing such as "Thank you," or "Cheers", one word is read as the customer\'s name unless your user name holds it: sign on the line under it, "Kind regards,\nSam", or as "Sam from Support")';
/**
 * The one word a closing thanks or signs with on its line, in any case ("Cheers gertrude", "Thank you,
 * gertrude", "Thanks again xiuying,"; each was kept): a support user's page has no name to compare with,
 * and one given name there reads as the customer's as surely as after "Hello". Not a word that names no
 * one ("Thanks, team", "Cheers everyone") nor the signed-in user's own ("Thank you, Sam" for sam); more
 * words are a sentence or a team ("Thanks again for your patience", "Cheers, the Acme team"), and a name
 * on the line under the closing signs it, as it always did ("Kind regards,\nSam").
 */
function closingName(parts: ReadonlyArray<readonly string[]>, own: ReadonlySet<string>): Named {
  for (const [index, part] of parts.entries()) {
    if (!CLOSING.has(bare(part[0] ?? '')) || bare(part[0]!) === 'you') continue;
    let at = 1;
    while (at < part.length && (CLOSING.has(bare(part[at]!)) || CLOSING_FILLER.has(bare(part[at]!)))) at += 1;
    const rest = at < part.length ? part.slice(at) : (parts[index + 1] ?? []);
    const word = rest.length === 1 ? rest[0]! : '';
    const noOne = isNoOne(word) || CLOSING_FILLER.has(bare(word)) || isLetterAlone(word);
    if (LETTERS.test(word) && !noOne && !isOwn([word], own)) return [word];
  }
  return undefined;
}
