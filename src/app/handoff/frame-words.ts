/*
 * The words the name rule (frame-names.ts) reads as no one's name in a greeting or sign-off: greeting and
 * closing words, who is greeted in general, who the agent works for. Compared folded (any case, one form
 * of each character), without a last ".".
 */

const words = (...lines: string[]) => new Set(lines.join(' ').split(' '));

/**
 * A greeting's first word that only greets: the words after it are who is greeted. In the languages the
 * frame's other words are in: "Guten Tag", "Buenos días", "Bom dia" greet, as "Good morning" does.
 */
export const SALUTATION = words(
  'hello hi hey dear greetings good welcome hallo bonjour hola olá ciao hej hei moin salut merhaba',
  'guten servus bonsoir buenos buenas bom boa buongiorno buonasera goedemorgen goedemiddag goedenavond',
);

/**
 * Common words that name no one in a set phrase or a department ("Have a nice day", "Quick update below",
 * "Account Security", "Financial Crime Prevention", "Available Monday to Friday", "Closed Dec 2026"), which
 * were refused as a name at the start of a line; yet each can be a name or a part of one too ("Billie
 * Holiday", "An Nguyen", "Gertrude A. Zyxwvut"). Written with a capital after a name, they go on with it
 * (frame-names.ts): they end no run of names, and those of an organisation (ORGANISATION) excuse a run of one
 word only ("Acme Payments" is kept, "Re: Gertrude Zyxwvut Payments," was and is not).
 */
const WEAK_WORDS = [
  'have a an update updates below account security payments fraud prevention',
  'financial finance crime identity credit union available weekday weekdays open closed closure hours holiday back',
];
export const WEAK = words(...WEAK_WORDS);

/**
 * Words that name no one: who is greeted in general ("Hello Team,", "Dear Sir or Madam,"), how a letter
 * closes ("Kind Regards,"), who the agent works for ("The Support Team", "Acme Bank"), and the small words
 * between. Each one ends a run of words, it never excuses one: "Dear Gertrude Zyxwvut and team," still
 * holds "Gertrude Zyxwvut" (before, one such word anywhere let the whole greeting through). A greeting
 * word (SALUTATION) names no one either.
 */
export const NO_ONE = words(
  'sir madam team customer customers client clients all there everyone everybody friend friends user users valued',
  'applicant applicants member members partner partners again welcome holder holders',
  'support colleague colleagues morning afternoon evening day days hello hi hey dear greetings good',
  'kind best warm warmest regards wishes thanks thank you many yours sincerely faithfully truly cheers respectfully',
  'the and or of from at for with to by on in your our my we us re ref fw fwd',
  'service services care desk help helpdesk office department compliance verification onboarding operations',
  'bank ltd limited inc llc gmbh ag plc group company kyc',
  'happy new year merry christmas holidays season weekend nice great wonderful bye goodbye luck night',
  // The same in the letters of other languages: "Sehr geehrte Damen und Herren," "Mit freundlichen Grüßen",
  // and who is greeted, the time of day and the thanks there: "Hallo zusammen,", "Buenos días,", "Bom dia,",
  // "Met vriendelijke groet," (each was refused as a person's name).
  'sehr geehrte geehrter damen herren und liebe lieber mit freundlichen grüßen grüße beste viele',
  'tag morgen abend zusammen allerseits herzliche freundliche gruß grüß danke vielen dank schönen',
  'madame monsieur mesdames messieurs cordialement bien salutations distinguées chère cher',
  'à tous toutes bonne journée merci équipe equipe equipo squadra',
  'señor señora señores estimado estimada estimados saludos atentamente cordiales un cordial saludo',
  'días dias tardes noches todos todas gracias',
  'caro cara gentile distinti saluti cumprimentos atenciosamente prezado prezada',
  'dia tarde noite obrigado obrigada abraço abraços buona giornata grazie tutti',
  'met vriendelijke groet groeten hartelijke allen iedereen',
  'med vänliga hälsningar vänlig hälsning vennlig venlig hilsen mvh tack takk alla alle ystävällisin terveisin kiitos',
  'saygılarımla iyi günler teşekkürler',
  'corp corporation co north south east west central america europe asia africa emea apac',
  // Ordinary words a frame written in lower case holds, which the rule for a name in any case below
  // would otherwise read as one: "talk soon", "hope this helps", "thanks so much", "senior analyst".
  "am is are me this it here i'm you're we're it's that's let's i'll we'll soon safe well later next time so much very lot lots forward advance always please",
  'folks agent agents analyst officer specialist manager representative senior junior',
  ...WEAK_WORDS,
);

/** The words that end an organisation's name, not a person's: "Acme Payments Support", "Open Banking Ltd". */
export const ORGANISATION = words(
  'support team teams ltd limited inc llc gmbh ag plc group company corp corporation co bank services service desk helpdesk',
  'operations onboarding compliance verification care office department security payments prevention',
);

const CLOSING_WORDS = 'kind best warm warmest regards wishes thanks thank you many yours sincerely faithfully truly cheers respectfully';
/** The words a name follows in a frame: a closing ("Thanks", "Kind regards"), a reference ("Re:"), "from", a greeting word. */
export const LEAD = words(CLOSING_WORDS, 're ref fw fwd from');
/** The words that close a letter or thank someone: "Cheers", "Thank you", "Kind regards" ("you" goes on with one, never starts it). */
export const CLOSING = words(CLOSING_WORDS);
/** Words a closing goes on with before whom it thanks ("Thanks again", "Thank you so much"), or that name no one after it ("Cheers mate"). */
export const CLOSING_FILLER = words('again so very much a lot lots once more kindly mate mates guys heaps both');
/** Words a greeting goes on with before whom it greets: "Hello there Gertrude,", "Welcome back Gertrude,", "Dear valued customer Gertrude,". */
export const GREETING_FILLER = words('there again back valued dear customer customers client clients welcome my our');

/**
 * Words a place's name starts with (or ends with: PLACE_END) and a person's seldom does: "San Francisco",
 * "Los Angeles", "St. Gallen", "Cape Town", "Kuala Lumpur", "Tel Aviv", "Abu Dhabi", "Rio de Janeiro",
 * "Buenos Aires", "New York", "Mexico City". No list of the world's cities is at hand offline (Intl names
 * countries only), so a city of two names that starts with none of these is read as a person's name.
 */
export const PLACE = words(
  'san santa são sao los las st saint sainte sankt port fort cape lake city kuala tel abu rio buenos new',
  'addis dar kota phnom santo porto belo palo baton ciudad',
);
export const PLACE_END = words('city');

/** The time of day a greeting word is said with: "Good morning Ana," greets Ana; "Guten Tag," "Bom dia," no one. */
export const TIME_OF_DAY = words('morning afternoon evening day again tag morgen abend días dias tardes noches dia tarde noite');

/**
 * A title: alone, or with another ("Dear Mr/Ms,", "Dear Mr or Ms,"), it greets no one; with a word after
 * it, that word is one person's name ("Dear Mrs Zyxwvut,").
 */
export const TITLE = words('mr mrs ms mx miss dr');

/**
 * The particles of a family name ("Ana de Sousa", "DE LOS SANTOS", "van An", "bin Said"): each is a
 * common word of a frame too ("Saludos de parte del equipo", "Greetings from Los Angeles"), so none is
 * compared alone as the candidate's name (reply-frame.ts detailsOf), whatever its case.
 */
export const NAME_PARTICLES = words(
  'de da do dos das del della dei di du des la le les lo los las van von der den ter ten het zu al el bin ibn bint y e ben ap af',
);
