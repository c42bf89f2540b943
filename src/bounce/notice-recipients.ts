// The addresses a human-readable bounce notice names as failed or delayed. Each mail system lays them
// out its own way: on a line of their own (Exim "  jane@x", Sendmail "<jane@x>", Domino, Exchange
// "jane@x (jane@x)", Office 365 "jane@x<mailto:jane@x>", GroupWise "jane@x (user not found)"), at the
// start of a line the reply follows (qmail "<jane@x>:", Postfix "<jane@x>: host … said: 550 …" or
// "<jane@x> (expanded from <a@x>): …"), quoted before a date (older Exchange "'jane@x' on 11/23/2026"),
// or inside a sentence (Gmail "Your message wasn't delivered to jane@x because …", Office 365 "Your
// message to jane@x couldn't be delivered").
import { stageOf } from './reply-intelligence.js';
import { firstAddress } from './address-scan.js';

// The sentences that name a recipient right after these words (lower case).
const PHRASES = [
  'delivered to ',
  'deliver to ',
  'deliver your message to ',
  'deliver the following message to ',
  'your message to ',
  'message to: ',
  'delivery to ',
  'recipient: ',
  'recipient address: ',
  // Haraka's "Intended Recipients: jane@x".
  'intended recipients: ',
  'intended recipient: ',
  // A label in two languages ("宛先 (Recipient): jane@x").
  '(recipient): ',
  // The same label in the languages of the notices (GMX, WEB.DE, Orange, Telefónica).
  'empf\u00e4nger: ',
  'destinataire : ',
  'destinataire: ',
  'destinatario: ',
  // Japanese, Chinese and Korean notices' labels ("宛先:", "收件人：", "받는 사람:").
  '\u5b9b\u5148: ',
  '\u5b9b\u5148\uff1a',
  '\u6536\u4ef6\u4eba: ',
  '\u6536\u4ef6\u4eba\uff1a',
  '\ubc1b\ub294 \uc0ac\ub78c: ',
  'addressed to ',
  // Trend Micro's "The message you sent to jane@x was not delivered", MDaemon's "mailbox for jane@x has
  // exceeded its quota".
  'you sent to ',
  'mailbox for ',
  // "Your message to jane@x" in the languages of the notices (German, French, Spanish, Italian, Russian
  // "\u043f\u043e\u043b\u0443\u0447\u0430\u0442\u0435\u043b\u044e jane@x": to the recipient).
  'ihre nachricht an ',
  'votre message \u00e0 ',
  'votre message a ',
  'su mensaje a ',
  'il tuo messaggio a ',
  '\u043f\u043e\u043b\u0443\u0447\u0430\u0442\u0435\u043b\u044e ',
  '\u0430\u0434\u0440\u0435\u0441\u0430\u0442\u0443 ',
  '\u043f\u0438\u0441\u044c\u043c\u043e \u0434\u043b\u044f ',
  // Croatian and Serbian "primatelju/primaocu jane@x" (to the recipient), Slovak "adresátovi",
  // Slovenian "prejemniku", Bulgarian "\u0432\u0430\u0448\u0435\u0442\u043e \u043f\u0438\u0441\u043c\u043e \u0434\u043e jane@x" (your letter to; not
  // a help line's "send a letter to support@").
  'primatelju ',
  // The label in Bulgarian ("\u041f\u043e\u043b\u0443\u0447\u0430\u0442\u0435\u043b: jane@x").
  '\u043f\u043e\u043b\u0443\u0447\u0430\u0442\u0435\u043b: ',
  'primaocu ',
  'adres\u00e1tovi ',
  'prejemniku ',
  '\u0432\u0430\u0448\u0435\u0442\u043e \u043f\u0438\u0441\u043c\u043e \u0434\u043e ',
  'undeliverable to the following: ',
  // FirstClass's and Ipswitch IMail's "Unknown user: jane@x", IMail's "User mailbox exceeds allowed
  // size: jane@x".
  'unknown user: ',
  'user unknown: ',
  'mailbox exceeds allowed size: ',
  // "Your message to jane@x" in Malay and Swahili.
  'mesej anda kepada ',
  'ujumbe wako kwa ',
  // A transcript of the session: what was sent (MDaemon "--> RCPT To:<jane@x>", Courier ">>> RCPT TO:<…>").
  'rcpt to:',
  // MDaemon's transcript names the envelope before the session ("*  To: jane@x").
  '*  to: ',
];
// Words of a line about the sender's own address.
const ABOUT_SENDER = /sender|\bfrom\b|mail from|return.?path|envelope/i;
// How far after the words the address may start.
const PHRASE_WINDOW = 330;
// Sentences that name the recipient before what they say of it: a reply quoted with the address first
// (Sendmail's "550 jane@x... User unknown", "<<< 550 5.1.1 <jane@x>... User unknown", perhaps after the
// host that gave it: "mx.x.example: 550 5.1.1 <jane@x>... User unknown"), and "The address
// jane@x no longer exists".
const NAMING_SENTENCES = [
  /^\s*(?:<<<\s*)?(?:(?:host )?[a-z0-9.-]{1,253}(?: \[(?:ipv6:)?[0-9a-f.:]{2,45}\])?:\s*)?[45]\d\d[ -](?:[45]\.\d{1,3}\.\d{1,3}\s+)?<?([^\s<>@]+@[^\s<>]+?)>?(?:\.\.\.|:)/i,
  // Sendmail's "<jane@x>... User unknown" after a reply code anywhere in the line (after a label:
  // "Détails techniques : mx.x.example: 550 5.1.1 <jane@x>... User unknown"); the three dots are its own.
  /(?:^|\s)[45]\d\d[ -](?:[45]\.\d{1,3}\.\d{1,3}\s+)?<([^\s<>@]{1,64}@[^\s<>]{1,255})>\.\.\./,
  /\bthe (?:e-?mail )?address\s+<?([^\s<>@]+@[^\s<>]+?)>?\s+(?:no longer exists|does not exist|doesn't exist|is (?:no longer|not) (?:valid|in use|active|available))/i,
];

/**
 * The SMTP command each entry's reply answered, where its own lines say (reply-intelligence.ts
 * stageOf): Exim's "after RCPT TO:", Postfix's "(in reply to MAIL FROM command)".
 */
export function entryStages(entries: NoticeRecipients['entries']): Map<string, string> {
  const stages = new Map<string, string>();
  for (const entry of entries) {
    const stage = stageOf(entry.lines.join('\n'));
    if (stage !== undefined) stages.set(entry.address, stage);
  }
  return stages;
}

export interface NoticeRecipients {
  /** Lower case, in the order found. */
  recipients: string[];
  /**
   * What the notice says of the first recipient beside it: the rest of its line (GroupWise's "(user
   * not found)"), or the indented line under it.
   */
  remainder: string | undefined;
  /**
   * Each recipient named at the start of a line, with what follows it: the rest of its line and the
   * indented lines under it, up to the next recipient or a blank line (Exim lists each failed address
   * with its own reply under it; Postfix gives each its own paragraph).
   */
  entries: { address: string; lines: string[] }[];
}

/** The recipients named in `lines` (each at most 998 characters): each line is looked at a bounded number of times. */
export function noticeRecipients(lines: string[]): NoticeRecipients {
  const found = new Set<string>();
  const entries: NoticeRecipients['entries'] = [];
  let remainder: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const r = lineRecipient(lines[i]!);
    if (!r) continue;
    // What the notice says of the first recipient: the rest of its line, or the indented line under it
    // (Exim's "  jane@x" then "    retry timeout exceeded").
    if (found.size === 0) remainder = r.rest !== '' ? r.rest : indentedNext(lines, i);
    if (!found.has(r.address)) entries.push({ address: r.address, lines: entryLines(lines, i, r.rest) });
    found.add(r.address);
  }
  if (found.size === 0) {
    for (const line of lines) {
      const address = phraseRecipient(line);
      if (!address) continue;
      // A reply quoted with its address (Sendmail's "550 5.1.1 <jane@x>... User unknown") is that
      // address's own entry: a notice quoting two gives each its own reply.
      if (!found.has(address) && sentenceRecipient(line) === address)
        entries.push({ address, lines: [line] });
      found.add(address);
    }
  }
  return { recipients: [...found], remainder, entries };
}

// An entry's lines at most (Exim: "(generated from …)", the host, "SMTP error from …", the reply).
const MAX_ENTRY_LINES = 8;

/**
 * The rest of recipient line `i`, then the indented lines under it up to the next recipient or blank
 * line; after qmail's "<jane@x>:" alone on its line, the lines up to the blank one, indented or not.
 */
function entryLines(lines: string[], i: number, rest: string): string[] {
  const out = rest === '' ? [] : [rest];
  const paragraph = rest === '' && lines[i]!.trimEnd().endsWith(':');
  for (let j = i + 1; j < lines.length && j <= i + MAX_ENTRY_LINES; j++) {
    const line = lines[j]!;
    if (line.trim() === '' || (!paragraph && !/^\s/.test(line)) || lineRecipient(line)) break;
    out.push(line);
  }
  return out;
}

/**
 * A line that starts with an address (perhaps in `<>` or quotes) followed by nothing, `:`, `(`, `,`,
 * `<mailto:`, `...`, `on`, or a date after its word in another language (`am 02.12.2026`).
 */
export function lineRecipient(line: string): { address: string; rest: string } | undefined {
  let t = line.trimStart();
  const opener = t[0];
  const closer = opener === '<' ? '>' : opener === "'" || opener === '"' ? opener : undefined;
  if (closer) t = t.slice(1);
  const address = firstAddress(t);
  if (!address || !t.startsWith(address) || notARecipient(address)) return undefined;
  let rest = t.slice(address.length);
  if (closer) {
    if (rest[0] !== closer) return undefined;
    rest = rest.slice(1);
  }
  rest = rest.trim();
  const follows =
    rest === '' ||
    rest[0] === ':' ||
    rest[0] === '(' ||
    // Zoho's "jane@x, ERROR CODE :550 - …".
    rest[0] === ',' ||
    rest.startsWith('<mailto:') ||
    rest.startsWith('...') ||
    /^on\s/i.test(rest) ||
    // The same in the languages Exchange and Kerio write it in, before a date: German "am 02.12.2026",
    // French "le 02/12/2026", Spanish "el", Italian "il", Dutch "op", Portuguese "em", Scandinavian "den".
    /^(?:am|le|el|il|op|em|den)\s+\d/i.test(rest);
  if (!follows) return undefined;
  return { address: address.toLowerCase(), rest: rest.replace(/^:\s*/, '') };
}

function indentedNext(lines: string[], i: number): string | undefined {
  const next = lines[i + 1];
  if (next === undefined || !/^\s/.test(next) || next.trim() === '' || lineRecipient(next)) return undefined;
  return next.trim();
}

function phraseRecipient(line: string): string | undefined {
  return sentenceRecipient(line) ?? labelledRecipient(line);
}

/**
 * The address a naming sentence starts with; none from a line about the sender's address ("<<< 550
 * 5.7.1 <noreply@x>... From address not allowed").
 */
function sentenceRecipient(line: string): string | undefined {
  if (ABOUT_SENDER.test(line)) return undefined;
  for (const sentence of NAMING_SENTENCES) {
    const address = sentence.exec(line.slice(0, PHRASE_WINDOW))?.[1];
    if (address && firstAddress(address) === address && !notARecipient(address)) return address.toLowerCase();
  }
  return undefined;
}

/** The address right after one of PHRASES. */
function labelledRecipient(line: string): string | undefined {
  const lower = line.toLowerCase();
  for (const phrase of PHRASES) {
    const at = lower.indexOf(phrase);
    if (at < 0) continue;
    let t = line.slice(at + phrase.length, at + phrase.length + PHRASE_WINDOW).trimStart();
    // CommuniGate's "deliver to '<jane@x>'", MailEnable's "Recipient: [SMTP:jane@x]".
    for (let k = 0; k < 2 && /^[<'"[]/.test(t); k++) t = t.slice(1);
    if (/^smtp:/i.test(t)) t = t.slice(5);
    const address = firstAddress(t);
    if (address && t.startsWith(address) && !notARecipient(address)) return address.toLowerCase();
  }
  return undefined;
}

/**
 * Our own VERP address, our Message-ID (`<uuid@host>`, which a notice quotes, and an HTML notice's
 * text may start a line with), and the mail system's own addresses, which notices name too.
 */
function notARecipient(address: string): boolean {
  const local = address.slice(0, address.indexOf('@')).toLowerCase();
  return (
    /^b\+[0-9a-f]{48}$/.test(local) ||
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(local) ||
    local === 'mailer-daemon' ||
    local === 'postmaster'
  );
}
