/**
 * A link as mail and chat hand it over: `<…>` around it (a plain-text mail's link) dropped, and the
 * sentence's punctuation after it (`….` `…,` `…)`): a link ending in one was looked up with it, as an id
 * with a full stop. Anything that is not a link is returned as it is.
 */
export function bareLink(text: string): string {
  let link = text.trim();
  if (link.startsWith('<') && link.endsWith('>')) link = link.slice(1, -1).trim();
  if (!/^(https?:\/\/|\/candidates\/|\/e\/)/i.test(link)) return text.trim();
  return link.replace(/[.,;:!?)\]}'"\u2019\u201d]+$/, '');
}
