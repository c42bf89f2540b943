// The rules of reply intelligence (reply-intelligence.ts), as data: what a failure's enhanced status
// code (RFC 3463) and words mean. Modelled on KumoMTA's bounce classifier: every pattern is compiled
// once, the first rule that matches wins, so the most specific come first. Each rule carries the real
// wordings it was written from (`examples`); test/unit/reply-intelligence.test.ts runs every example through
// both entry points (an SMTP reply in the session, the same reply quoted by a report) and checks that
// it comes out with the rule's category and the example's code. The table is the test.
//
// Every pattern runs on text cut to MAX_NOTICE_TEXT (text-limits.ts) and has no nested quantifier, so
// it costs time linear in that text.
import type { BounceCategory } from './categories.js';

export interface RuleExample {
  /** An SMTP reply as a server sends it, basic code first: `550 5.1.1 <jane@x>: User unknown`. */
  reply: string;
  /** The enhanced code the verdict must carry. */
  enhanced: string;
}

export interface ReplyRule {
  /** A short name, for tests and for the reader of a verdict's trace. */
  name: string;
  category: BounceCategory;
  /**
   * The enhanced codes the rule is about, tested on the code the server (or the report) gave,
   * `class.subject.detail`, or on '' when it gave none. Absent: any code. GENERIC below is "none, or
   * one that says no more than its subject" (x.y.0): the words decide then.
   */
  codes?: RegExp;
  /** Words the reply must hold. Absent: the code is enough. */
  words?: RegExp;
  /** Words that keep the rule from matching (they say something more specific, for a later rule). */
  unless?: RegExp;
  /** Basic reply codes (RFC 5321 §4.2) the rule is about; absent: any. */
  replies?: readonly number[];
  /** Only a transient failure (a 4xx in the session, a delay in a report). */
  transientOnly?: boolean;
  /**
   * The subject.detail the rule stands for (`1.1`), given as the verdict's code with the failure's class
   * when the server's own code says less (none, or x.0.0).
   */
  detail?: string;
  /**
   * The code quoted in the words is not the verdict's (another server's answer quoted inside the
   * reply): the verdict carries `detail` with the failure's class.
   */
  ownCode?: true;
  /** A greylisting deferral (the verdict's `greylisted`): try again after the greylist's delay. */
  greylisted?: true;
  examples: readonly RuleExample[];
}

/**
 * No code, one that names only its subject (x.y.0, e.g. 5.0.0, 5.1.0, 4.7.0), or one of subject 0,
 * "other or undefined" (RFC 3463 §3.1: Exchange's 5.0.350 "remote server returned an error -> 550
 * 5.1.1 …"): the words decide.
 */
const GENERIC = /^(?:[245]\.(?:\d{1,3}\.0|0\.\d{1,3}))?$/;
/** GENERIC or a network code (x.4.y): Exchange says 5.4.14 for a loop, 5.4.300 for an expiry. */
const GENERIC_OR_NETWORK = /^(?:[245]\.(?:\d{1,3}\.0|0\.\d{1,3}|4\.\d{1,3}))?$/;
/** GENERIC or a policy code (x.7.y): words that name the sender, not the recipient. */
const GENERIC_OR_POLICY = /^(?:[245]\.(?:\d{1,3}\.0|0\.\d{1,3}|7\.\d{1,3}))?$/;

// Words shared by several rules.
// The sender, in the languages the unknown-recipient words know: "la dirección del remitente no
// existe" is about our address.
// The sender's own address, as a noun, in the languages the unknown-recipient words know ("la
// dirección del remitente", "adresse de l'émetteur", "adresse de retour"): one list, so that every rule
// reading the sender knows the same words.
const SENDER_NOUNS = String.raw`[e\u00e9]metteur|adresse de retour|direcci[o\u00f3]n de retorno|endere[c\u00e7]o de retorno|indirizzo di ritorno|remitente|exp[e\u00e9]diteur|remetente|mittente|g\u00f6nderen|\u9001\u4fe1\u8005|\u5dee\u51fa\u4eba|\u53d1\u4ef6\u4eba|\u5bc4\u4ef6\u4eba|ng\u01b0\u1eddi g\u1eedi|\u03b1\u03c0\u03bf\u03c3\u03c4\u03bf\u03bb\u03ad\u03b1|\u05d4\u05e9\u05d5\u05dc\u05d7|\u0627\u0644\u0645\u0631\u0633\u0644|\u043e\u0442\u043f\u0440\u0430\u0432\u0438\u0442\u0435\u043b|nadawc|odes\u00edlatel|afzender|avs\u00e4ndar|afsender|avsender|l\u00e4hett\u00e4j\u00e4|odosielate\u013e|po\u0161iljatelj|po\u0161ilja(?:la)?c|po\u0161iljao(?:c|ca)\b|siunt\u0117j|\u043f\u043e\u0434\u0430\u0442\u0435\u043b|\u043f\u043e\u0448\u0438\u0459\u0430(?:\u043b\u0430\u0446|\u043e\u0446)|retouradres|returadress|adres zwrotny|adres powrotny|mail from-adress|\ubc1c\uc2e0\uc790|\ubcf4\ub0b8 \uc0ac\ub78c`;
const SENDER_WORDS = new RegExp(String.raw`\b(?:sender|absender)\b|${SENDER_NOUNS}`, 'i');
// Mimecast words its greylisting "451 Internal resource temporarily unavailable" (its SMTP error codes
// page: the sending server is greylisted, retry in one minute to 12 hours).
const GREYLIST_WORDS = /gr[ae]y-?list|postgrey|internal resource (?:is )?temporarily unavailable/i;
const RATE_WORDS =
  /rate.?limit|too many (?:connections|concurrent|messages|mails?|emails|recipients|sessions|deliveries|simultaneous)|throttl|slow down|receiving mail (?:at a rate|too quickly)|too fast|sending rate|temporarily deferred due to|unexpected volume|unusual rate|connection limit|exceeded (?:the )?(?:rate|message limit|sending limit|connection)|(?:daily|hourly) (?:[\w-]{1,20} ){0,2}(?:quota|limit) exceeded|server busy|\[TSS0[0-8]\]|frequency limit|(?:too many|number of|max(?:imum)?(?: number of)?) (?:messages?|mails?|emails?) (?:per|on|in) (?:a |the |this |one )?(?:connection|session)|(?:mails?|messages?|emails?) sent (?:by|on|in|over) (?:the |this )?(?:current )?(?:connection|session) exceeds?|\bMI:(?:DMC|SFQ)\b|\bRP:QRC\b/i;
const UNKNOWN_RECIPIENT_WORDS =
  /user unknown|unknown user|no such (?:user|mailbox|recipient|address|account)|does not exist|doesn'?t exist|doesn'?t have an? [\w.-]{1,64} account|recipient not found|recip(?:ient)?notfound|invalid (?:recipient|mailbox|address|user)|unknown (?:recipient|mailbox|address|local part)|mailbox (?:not found|unavailable|does not exist)|no mailbox|address rejected|address (?:couldn'?t|could not) be found|not (?:a )?valid (?:user|mailbox|recipient|address)|user not found|recipient (?:unknown|invalid|rejected)|address (?:is )?invalid|no such person|not our customer|(?:user|mailbox|account|recipient|address) (?:is )?not exists?\b|unknown or illegal alias|address unknown|no forwarding address|not a registered (?:gateway )?user|no (?:such|valid) recipients?|not listed in (?:the )?(?:domino directory|public name (?:&|and) address book)|nicht im domino-verzeichnis|the email account that you tried to reach does not exist|no longer (?:active|valid|available)|address (?:is )?(?:inactive|not in use)|addressee unknown|benutzer unbekannt|(?:\u6536\u4ef6\u4eba|\u90ae\u7bb1|\u90f5\u7bb1|\u5730\u5740|\u7528\u6237|\u7528\u6236|\u5e10\u53f7|\u8d26\u53f7|\u5e33\u865f)[^.;:\n\uff0c\u3002]{0,20}\u4e0d\u5b58\u5728|(?:\uc8fc\uc18c|\uacc4\uc815|\uc0ac\uc6a9\uc790|\uc544\uc774\ub514)[^.;:\n]{0,20}\uc874\uc7ac\ud558\uc9c0 \uc54a|(?:empf\u00e4nger|postfach|benutzer|mailbox|konto)[^.;:\n]{0,40}\b(?:existiert nicht|nicht existent)|unbekannte[rn]? (?:benutzer|empf\u00e4nger)|empf\u00e4nger (?:ist )?unbekannt|utilisateur inconnu|destinataire inconnu|adresse inconnue|usuario desconocido|destinatario desconocido|utente sconosciuto|destinatario sconosciuto|gebruiker onbekend|onbekende (?:gebruiker|ontvanger)|\u043d\u0435\u0442 \u0442\u0430\u043a\u043e\u0433\u043e \u043f\u043e\u043b\u044c\u0437\u043e\u0432\u0430\u0442\u0435\u043b\u044f|\u043f\u043e\u043b\u044c\u0437\u043e\u0432\u0430\u0442\u0435\u043b\u044c \u043d\u0435 \u043d\u0430\u0439\u0434\u0435\u043d|(?:destinatario|direcci\u00f3n|usuario|buz\u00f3n|cuenta)[^.;:\n]{0,40}\bno existe|(?:adresse|destinataire|utilisateur|bo\u00eete|compte)[^.;:\n]{0,40}n'existe pas|\b(?:adresse(?: (?:e-?mail|mail|courriel|de messagerie|[e\u00e9]lectronique))?|destinataire|utilisateur|bo[i\u00ee]te(?: (?:aux lettres|mail|e-?mail))?|compte)(?: (?:du|de la) destinataire)? inexistante?\b|aucune bo[i\u00ee]te aux lettres ne correspond|\b(?:direcci[o\u00f3]n(?: de (?:correo|e-?mail))?(?: electr[o\u00f3]nica)?|usuario|destinatario|buz[o\u00f3]n(?: de correo)?|cuenta(?: de correo)?|casilla(?: de correo)?)(?: del destinatario)? inexistente\b|\b(?:indirizzo(?: (?:e-?mail|di posta(?: elettronica)?))?|utente|destinatario|casella(?: (?:di posta|e-?mail))?|account)(?: del destinatario)? (?:\u00e8 |risulta )?inesistente\b|\b(?:endere[c\u00e7]o(?: (?:de e-?mail|eletr[o\u00f4]nico|de correio eletr[o\u00f4]nico))?|usu[a\u00e1]rio|destinat[a\u00e1]rio|caixa (?:postal|de correio)|conta(?: de e-?mail)?)(?: do destinat[a\u00e1]rio)? inexistente\b|(?:indirizzo|destinatario|utente|casella|account)[^.;:\n]{0,40}\bnon esiste|(?:destinat\u00e1rio|endere\u00e7o|usu\u00e1rio|caixa postal|conta)[^.;:\n]{0,40}\bn\u00e3o existe|(?:al\u0131c\u0131|adres|kullan\u0131c\u0131|posta kutusu)[^.;:\n]{0,40}(?:bulunamad\u0131|mevcut de\u011fil)|(?:\u03b4\u03b9\u03b5\u03cd\u03b8\u03c5\u03bd\u03c3\u03b7|\u03c0\u03b1\u03c1\u03b1\u03bb\u03ae\u03c0\u03c4|\u03bb\u03bf\u03b3\u03b1\u03c1\u03b9\u03b1\u03c3\u03bc|\u03c7\u03c1\u03ae\u03c3\u03c4)[^.;:\n]{0,40}\u03b4\u03b5\u03bd \u03c5\u03c0\u03ac\u03c1\u03c7\u03b5\u03b9|(?:\u05db\u05ea\u05d5\u05d1\u05ea|\u05e0\u05de\u05e2\u05df|\u05de\u05e9\u05ea\u05de\u05e9)[^.;:\n]{0,40}(?:\u05d0\u05d9\u05e0\u05d4 \u05e7\u05d9\u05d9\u05de\u05ea|\u05d0\u05d9\u05e0\u05d5 \u05e7\u05d9\u05d9\u05dd|\u05dc\u05d0 \u05e7\u05d9\u05d9\u05de\u05ea|\u05dc\u05d0 \u05e7\u05d9\u05d9\u05dd)|(?:\u0639\u0646\u0648\u0627\u0646|\u0627\u0644\u0645\u0633\u062a\u0644\u0645|\u0627\u0644\u0645\u0633\u062a\u062e\u062f\u0645|\u0627\u0644\u062d\u0633\u0627\u0628)[^.;:\n]{0,60}\u063a\u064a\u0631 \u0645\u0648\u062c\u0648\u062f|\u0e44\u0e21\u0e48\u0e1e\u0e1a\u0e1c\u0e39\u0e49\u0e23\u0e31\u0e1a|\u0e44\u0e21\u0e48\u0e21\u0e35\u0e1a\u0e31\u0e0d\u0e0a\u0e35|(?:\u30a2\u30c9\u30ec\u30b9|\u5b9b\u5148|\u30e6\u30fc\u30b6|\u30a2\u30ab\u30a6\u30f3\u30c8)[^\u3002.;:\n]{0,20}\u5b58\u5728\u3057\u307e\u305b\u3093|(?:\u0111\u1ecba ch\u1ec9|ng\u01b0\u1eddi nh\u1eadn|h\u1ed9p th\u01b0|t\u00e0i kho\u1ea3n)[^.;:\n]{0,40}kh\u00f4ng t\u1ed3n t\u1ea1i|(?:postkass|modtager|bruger|mottaker|bruker|brevl\u00e5d|mottagar|anv\u00e4ndar|(?<![\w-])(?:e-?post|e-?mail)?adress|konto)[\w\u00e4\u00f6\u00e5\u00e6\u00f8]{0,6}(?: <(?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^<>\s]{1,254}>| \((?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^()\s]{1,254}\)| (?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^\s@<>()]{1,64}@[^\s@<>()]{1,255})? (?:findes ikke|finnes ikke|finns inte|existerar inte)|(?:gebruiker|ontvanger|mailbox|postbus|(?<![\w-])(?:e-?mail)?adres)[\w\u00e4\u00f6\u00e5\u00e6\u00f8]{0,6}(?: <(?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^<>\s]{1,254}>| \((?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^()\s]{1,254}\)| (?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^\s@<>()]{1,64}@[^\s@<>()]{1,255})? bestaat niet|geen (?:mailbox|postbus|gebruiker) met die naam|(?:u\u017cytkownik|adres odbiorcy|adres e-mail|skrzynk|odbiorc|konto adresata|adresat)[\w\u00e4\u00f6\u00e5\u00e6\u00f8]{0,6}(?: <(?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^<>\s]{1,254}>| \((?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^()\s]{1,254}\)| (?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^\s@<>()]{1,64}@[^\s@<>()]{1,255})? nie istnieje|(?:u\u017eivatel|adresa p\u0159\u00edjemce|e-mailov\u00e1 adresa|schr\u00e1nk|p\u0159\u00edjemc)[\w\u00e4\u00f6\u00e5\u00e6\u00f8]{0,6}(?: <(?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^<>\s]{1,254}>| \((?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^()\s]{1,254}\)| (?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^\s@<>()]{1,64}@[^\s@<>()]{1,255})? neexistuje|(?:vastaanottaja|k\u00e4ytt\u00e4j\u00e4|postilaatikko|s\u00e4hk\u00f6postiosoite)[\w\u00e4\u00f6\u00e5\u00e6\u00f8]{0,6}(?: <(?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^<>\s]{1,254}>| \((?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^()\s]{1,254}\)| (?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^\s@<>()]{1,64}@[^\s@<>()]{1,255})? (?:ei ole olemassa|ei l\u00f6ydy)|(?<![\w-])(?:naslov prejemnika|prejemnik|uporabnik|nabiralnik|po\u0161tni predal)(?: <(?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^<>\s]{1,254}>| \((?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^()\s]{1,254}\)| (?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^\s@<>()]{1,64}@[^\s@<>()]{1,255})? ne obstaja\b|(?<![\w-])(?:adresa (?:primatelja|primaoca|e-po\u0161te)|primatelj|primalac|korisnik(?: s tom adresom)?|po\u0161tanski sandu\u010di\u0107)(?: <(?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^<>\s]{1,254}>| \((?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^()\s]{1,254}\)| (?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^\s@<>()]{1,64}@[^\s@<>()]{1,255})? ne postoji\b|(?<![\w-])(?:adresa pr\u00edjemcu|pr\u00edjemca|adres\u00e1t|pou\u017e\u00edvate\u013e|schr\u00e1nka pr\u00edjemcu)(?: <(?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^<>\s]{1,254}>| \((?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^()\s]{1,254}\)| (?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^\s@<>()]{1,64}@[^\s@<>()]{1,255})? neexistuje\b|(?<![\w-])(?:gav\u0117jo adresas|gav\u0117jas|vartotojas|pa\u0161to d\u0117\u017eut\u0117)(?: <(?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^<>\s]{1,254}>| \((?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^()\s]{1,254}\)| (?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^\s@<>()]{1,64}@[^\s@<>()]{1,255})? neegzistuoja\b|(?<![\u0400-\u04ff-])(?:\u0430\u0434\u0440\u0435\u0441\u0430 \u043f\u0440\u0438\u043c\u0430\u043e\u0446\u0430|\u043f\u0440\u0438\u043c\u0430\u043b\u0430\u0446|\u043a\u043e\u0440\u0438\u0441\u043d\u0438\u043a|\u043f\u043e\u0448\u0442\u0430\u043d\u0441\u043a\u043e \u0441\u0430\u043d\u0434\u0443\u0447\u0435)(?: <(?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^<>\s]{1,254}>| \((?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^()\s]{1,254}\)| (?![^\s\w@<>()]{0,2}b\+[0-9a-f]{48}@)[^\s@<>()]{1,64}@[^\s@<>()]{1,255})? \u043d\u0435 \u043f\u043e\u0441\u0442\u043e\u0458\u0438(?![\u0400-\u04ff])/i;
const UNKNOWN_DOMAIN_WORDS =
  /host or domain name not found|couldn'?t find any host|no such domain|domain (?:name )?(?:not found|does not exist)|host (?:not found|unknown)|unknown (?:host|domain)|nxdomain|non-?existent domain|name service error|unrouteable (?:address|(?:mail )?domain)|domain (?:has no|without) (?:mx|mail)|null mx|no mx (?:record|host|found for domain)|invalid domain name|couldn'?t find a mail exchanger|no mail servers? (?:appears? to|seems? to|to) exists?|dns domain [^\s;:]{1,253} does not exist|domainnonexistent|point to non-?existent hosts?|dom(?:ain|\u00e4ne)[^.;:\n]{0,40}\bexistiert nicht/i;
const MAILBOX_FULL_WORDS =
  /mailbox (?:is )?full|over ?quota|quota ?(?:exceeded|full)|exceeded (?:his|her|their|the|its) (?:storage|quota)|insufficient (?:system )?storage|exceeded storage|out of storage|inbox is full|storage (?:space )?(?:exceeded|full)|mailbox size limit|mailbox (?:has )?exceeded (?:its |the )?(?:size|storage|quota) limit|(?:mailbox|storage) size exceeded|quota (?:usage |limit )?(?:exceeded|reached)|postfach[^.;\n]{0,40}\bvoll\b|postfach-?kontingent[^.;\n]{0,40}\u00fcberschritten|postfach[^.;\n]{0,40}\b(?:kontingent|speicherplatz|speichergrenze|quota)\b[^.;\n]{0,30}\u00fcberschritten|\b(?:kontingent|speicherplatz|quota)\b[^.;\n]{0,30}\bpostfach[^.;\n]{0,40}\u00fcberschritten|(?:brevl\u00e5d|postl\u00e5d|postkass|inkorg)[\w\u00e5\u00e4\u00f6]{0,4} (?:\u00e4r|er) (?:full|fuld)\b|postilaatikko on t\u00e4ynn\u00e4|bo\u00eete[^.;\n]{0,40}\bpleine|buz\u00f3n[^.;\n]{0,40}\blleno|casella[^.;\n]{0,40}\bpiena|\u044f\u0449\u0438\u043a (?:\u043f\u0435\u0440\u0435\u043f\u043e\u043b\u043d\u0435\u043d|\u0437\u0430\u043f\u043e\u043b\u043d\u0435\u043d)|caixa (?:postal|de correio)[^.;\n]{0,40}\bcheia|posta kutusu[^.;\n]{0,20}\bdolu|skrzynka[^.;\n]{0,40}\b(?:pe\u0142na|przepe\u0142niona)|(?:mailbox|postvak)[^.;\n]{0,20}\bis vol\b|schr\u00e1nka[^.;\n]{0,20}\bje pln\u00e1|(?:sandu\u010di\u0107|pretinac)[^.;\n]{0,20}\bje pun\b|sandu\u010de[^.;\n]{0,20}\bje puno\b|d\u0117\u017eut\u0117[^.;\n]{0,20}\bperpildyta|predal[^.;\n]{0,20}\bje poln\b|kotak surat[^.;\n]{0,20}\bpenuh|h\u1ed9p th\u01b0[^.;\n]{0,40}\u0111\u00e3 \u0111\u1ea7y|\u03b3\u03c1\u03b1\u03bc\u03bc\u03b1\u03c4\u03bf\u03ba\u03b9\u03b2\u03ce\u03c4\u03b9\u03bf[^.;\n]{0,20}\u03b3\u03b5\u03bc\u03ac\u03c4\u03bf|\u05ea\u05d9\u05d1\u05ea \u05d4\u05d3\u05d5\u05d0\u05e8[^.;\n]{0,20}\u05de\u05dc\u05d0\u05d4|\u0635\u0646\u062f\u0648\u0642 \u0627\u0644\u0628\u0631\u064a\u062f[^.;\n]{0,20}\u0645\u0645\u062a\u0644\u0626|\u0e01\u0e25\u0e48\u0e2d\u0e07\u0e08\u0e14\u0e2b\u0e21\u0e32\u0e22[^.;\n]{0,20}\u0e40\u0e15\u0e47\u0e21|\u5bb9\u91cf[^\u3002.;\n]{0,10}(?:\u4e00\u676f|\u3044\u3063\u3071\u3044|\u30aa\u30fc\u30d0\u30fc|\u8d85\u904e)|(?:\u90ae\u7bb1|\u90f5\u7bb1|\u4fe1\u7bb1)[^\u3002.;\n]{0,10}(?:\u5df2\u6ee1|\u5df2\u6eff|\u7a7a\u95f4\u4e0d\u8db3|\u7a7a\u9593\u4e0d\u8db3)|\uc0ac\uc11c\ud568[^.;\n]{0,20}\uac00\ub4dd \ucc28|mailbox exceeds (?:the |its )?(?:allowed|maximum) (?:size|quota|storage)|\u0441\u043a\u0440\u0438\u043d\u044c\u043a[\u0430\u0438][^.;\n]{0,30}(?:\u043f\u0435\u0440\u0435\u043f\u043e\u0432\u043d\u0435\u043d|\u0437\u0430\u043f\u043e\u0432\u043d\u0435\u043d)|pastkast\u012bte[^.;\n]{0,20} ir pilna|kutia postare[^.;\n]{0,30} [e\u00eb]sht[e\u00eb] plot|\u092e\u0947\u0932\u092c\u0949\u0915\u094d\u0938[^\u0964.;\n]{0,30}(?:\u092d\u0930\u093e \u0939\u0941\u0906|\u092d\u0930 \u0917\u092f\u093e)|puno na ang (?:mailbox|inbox)|(?:mailbox|inbox)[^.;\n]{0,20} ay puno|sanduku la barua[^.;\n]{0,20} limejaa|caixa(?: de correo)?[^.;\n]{0,30} (?:est[a\u00e1] )?chea\b|blwch post[^.;\n]{0,30} yn llawn|posbus[^.;\n]{0,20} is vol\b|p\u00f3sth\u00f3lf[^.;\n]{0,30} (?:er )?fullt|\u0441\u0430\u043d\u0434\u0430\u0447\u0435[^.;\n]{0,30}(?:\u0435 )?\u043f\u043e\u043b\u043d\u043e|\u0635\u0646\u062f\u0648\u0642 (?:\u067e\u0633\u062a[\u06cc\u064a]|\u0646\u0627\u0645\u0647)[^.;\n]{0,30}\u067e\u0631 (?:\u0627\u0633\u062a|\u0634\u062f\u0647)|peti (?:mel|surat)[^.;\n]{0,30} (?:telah |sudah )?penuh|postontzi[a-z]{0,3}[^.;\n]{0,20} beteta/i;
const DISABLED_WORDS =
  /(?:mailbox|account|user|address)(?: (?:of|for) (?:this|the) (?:recipient|user|address))? (?:is |has been )?(?:temporarily )?(?:disabled|deactivated|suspended|inactive|locked|frozen|closed|expired|terminated|deleted|discontinued)|disabled ?user|(?:disabled|inactive|suspended|deactivated) (?:user|account|mailbox)|mailbox (?:is )?not (?:active|enabled)/i;
const TOO_LARGE_WORDS =
  /(?:message|mail|size) (?:is )?too (?:big|large)|size (?:limit|exceeds)|exceeds (?:the )?(?:maximum )?(?:allowed )?(?:message )?size|message size|too large|maximum (?:message )?size/i;
const CONTENT_WORDS =
  /(?<![\w/-])spam(?!haus|cop)|virus|malware|infected|phish|content (?:rejected|filter|policy|restrictions?|denied|refused)|message content|unsolicited|bulk (?:mail|e-?mail)|uribl|surbl|attachment|suspicious|quarantin|banned (?:content|attachment|file)|- banned:|scam|fraud|\bDT:SPM\b|\bgtube\b/i;
// A relay refused ("Relaying denied", "Unable to relay"): the phrases, never the bare word, which names
// hosts (relay.example.net) in the notices around a reply.
const POLICY_WORDS =
  /block(?:ed| ?list|ing)|black ?list|(?<!not )listed (?:at|in|on|by)|spamhaus|spamcop|barracuda|sorbs|dnsbl|\brbl\b|reputation|polic(?:y|ies)|not allowed|not authori[sz]ed|not permitted|denied|refused|prohibit|dmarc|\bspf\b|dkim|reverse dns|dns (?:reverso|inverso|inverse)|r[e\u00e9]solution inverse|\bptr\b|rdns|(?:unable|not permitted|not allowed) to relay|relay(?:ing)? (?:access|denied|not permitted|prohibited|refused|disallowed)|(?:do|does|will) not relay|open relay|authenticat|spoof|non-?members?|members only|not (?:from )?a (?:list )?(?:member|subscriber)|(?:no|n'?t have|not have) (?:the )?permission|moderat|forbidden|banned|not a gateway|rcpthosts|\u53d7\u4fe1\u62d2\u5426|\u62d2\u5426\u3055\u308c|\u62d2\u6536|\u62d2\u7edd\u63a5\u6536|\u62d2\u7d55\u63a5\u6536|\uc218\uc2e0 \uac70\ubd80/i;
// A check of our MAIL FROM domain or its DNS (iCloud's "[HM08] … unresolvable RFC.5321 from domain",
// IONOS's "invalid DNS MX or A/AAAA resource record"): the sender's configuration, not a rate.
const SENDER_DOMAIN_CHECK =
  /unresolvable (?:rfc\.?5321 |mail )?(?:from|sender|envelope) domain|(?:rfc\.?5321|envelope)[ .-]?from domain|invalid dns (?:mx|a|aaaa|ptr)\b[^.;\n]{0,30}\brecord/i;

// Our own address said not to exist, noun and adjective side by side ("Adresse de l'émetteur
// inexistante", "Dirección de retorno inexistente"): closer than the recipient's words, which would
// read "émetteur … inexistante" as the mailbox's.
const SENDER_INEXISTENT = new RegExp(
  String.raw`(?:${SENDER_NOUNS}) (?:inexistante?|inexistente|inesistente)\b`,
  'i',
);

// Our own address named and refused in so many words, the noun phrase right before its predicate
// ("Absenderadresse abgelehnt", "la dirección del remitente no existe"): close enough to stand over a
// 5.1.1, where the looser words above would also catch "reported to the return path" in a reply about
// the recipient.
const SENDER_ADDRESS_REFUSED =
  /(?:absender(?:adresse)?|(?:la )?direcci[o\u00f3]n del remitente|adresse (?:de l['\u2019])?exp[e\u00e9]diteur|endere[c\u00e7]o do remetente|indirizzo del mittente)(?: [^\s.;:]{1,30})? (?:abgelehnt|existiert nicht|unbekannt|ung\u00fcltig|no existe|n'existe pas|n\u00e3o existe|non esiste|rechazad[ao]|rejet[e\u00e9]e?|desconocid[ao]|inconnue?)\b/i;

// Words that refuse our own address (MAIL FROM, the return path), in the languages the recipient's
// words know: "Sender address rejected", "la dirección del remitente no existe".
const SENDER_REJECTED_WORDS = new RegExp(
  String.raw`sender (?:address|domain|verify|verification|rejected|denied|not allowed|unknown)|envelope.from|mail from (?:address|rejected|denied)|return.path(?!:)|from address|verification failed for|absender(?:adresse)?[^.;:\n]{0,40}\b(?:existiert nicht|unbekannt|abgelehnt|ung\u00fcltig)|(?:${SENDER_NOUNS}|\bmail from\b|verzend(?:t|er)\b)[^.;:\n]{0,40}(?:no existe|n'existe pas|n\u00e3o existe|non esiste|bulunamad\u0131|\u5b58\u5728\u3057\u307e\u305b\u3093|\u4e0d\u5b58\u5728|kh\u00f4ng t\u1ed3n t\u1ea1i|\u03b4\u03b5\u03bd \u03c5\u03c0\u03ac\u03c1\u03c7\u03b5\u03b9|\u063a\u064a\u0631 \u0645\u0648\u062c\u0648\u062f|findes ikke|finnes ikke|finns inte|existerar inte|bestaat niet|nie istnieje|neexistuje|ei ole olemassa|unknown|inconnu|desconocido|sconosciuto|rejected|rejet\u00e9|rechazad|rifiutat)`,
  'i',
);

// Sender authentication and blocklists: a refusal of the sender, even in words that also say "spam".
const AUTH_WORDS = /authenticat|dmarc|\bspf\b|dkim|\bptr\b|reverse dns|rdns|cannot find your hostname/i;
// Authentication said to have failed, not merely named (a help URL's "spf-dkim", "authenticated senders
// get higher limits"): Gmail's 4.7.27 "rate limited because SPF authentication didn't pass".
const FAILED_AUTH =
  /\b(?:spf|dkim|dmarc)(?: authentication| check)? (?:did ?n[o']?t pass|does ?n[o']?t pass|failed|fails)\b|\bauthentication (?:did ?n[o']?t pass|failed|fails)\b/i;
// T-Online ends a refusal of the sending IP with "(BL)" (its blocklist), or names the desk that lifts
// such blocks (tosa@rx.t-online.de) without it; AOL names its blocks with codes of its own ("RTR:BL",
// "RLY:B1", "CON:B1", "DYN:T1", "HVU:B1").
const BLOCK_WORDS =
  /\(BL\)|\b(?:RTR:B[BL]|RLY:B[123L]|CON:B1|DYN:T1|HVU:B1)\b|tosa@rx\.t-online\.|block(?:ed| ?list|ing)|black ?list|(?<!not )listed (?:at|in|on|by)|spamhaus|spamcop|dnsbl|\brbl\b|reputation/i;
// "Reputation" names the sending address only next to a word for the address or the host ("IP
// reputation", "the reputation of the sending IP address", "the sending MTA's poor reputation"): alone
// it may be the sending domain's or the content's, which belong to one tenant. The gap is bounded and
// the pattern has no nested quantifier, so it runs in linear time over capped peer text.
const ADDRESS_REPUTATION =
  /\b(?:ip|ips|ipv[46]|address(?:es)?|host(?:name)?|mta)\b[^;\n]{0,40}reputation|reputation[^;\n]{0,40}\b(?:ip|ips|ipv[46]|address(?:es)?|host(?:name)?|mta)\b/i;
// Spam counted against the sending address, not found in this message (Free's "421 4.7.0 Too many
// spams from your IP"): the address's standing, like its reputation.
const ADDRESS_SPAM =
  /too many spams?\b(?: messages)? from (?:your|this|the sending|the connecting) (?:ip|ipv[46]|host|server|network|mta)\b/i;
// A refusal of the sending address itself (its IP on a blocklist, its reputation, complaints about its
// mail), not of the recipient or of one message (ARCHITECTURE.md, "Destination blocks"): blocklist
// operators and their zones, the words receivers put around them, and the providers' own codes for a
// block of the connecting IP (Microsoft S3140/S3150 and SC-/OU-/DY-00x, Yahoo and AOL TSS04/TSS09/TS01,
// AOL's older RTR:BL, CON:B1, DYN:T1, Comcast BL0000xx, Proofpoint's ipcheck).
export const SENDER_BLOCK_WORDS = new RegExp(
  `spamhaus|spamcop|barracuda|sorbs|uceprotect|\\bpsbl\\b|abuseat|invaluement|\\b[cxsp]bl\\b|dnsbl|\\brbl\\b|block ?list|black ?list(?:ed)?|blocked using|(?<!not )listed (?:at|in|on|by)|\\(BL\\)|tosa@rx\\.t-online\\.|${ADDRESS_REPUTATION.source}|${ADDRESS_SPAM.source}|unusual rate of unsolicited|(?:user|too many|high) complaints?|\\bTSS?0\\d\\b|\\(S31[45]0\\)|\\b(?:SC|OU|DY)-00\\d\\b|\\b(?:RTR:B[LB]|RLY:B[123L]|CON:B1|DYN:T1|HVU:B1)\\b|\\bBL0000\\d\\d\\b|banned sending ip|ipcheck\\.proofpoint|cloudmark|sender intelligence|(?:your|sending|the|this) ip(?: address)?\\b[^.;]{0,60}\\b(?:blocked|banned|blacklisted|listed|rejected|deferred|rate limited)`,
  'i',
);
// Words that say the block is about one recipient (a personal blocked-senders list), about the
// message's authentication (SPF, DKIM, DMARC, PTR: the sender's configuration, which a pause would
// not mend), or about one tenant's own name or content (the sending or From domain, its reputation, a
// domain blocklist such as Spamhaus's DBL naming the sender address, the content's reputation): not the
// sending address's standing, so no destination is paused for everyone on that address.
const TENANT_WORDS =
  /sending domain|from domain|sender'?s? domain|domain'?s? reputation|reputation of (?:the |your |this )?domain|content reputation|reputation of (?:the |this )?(?:content|message)|\bdbl\b|sender address \[[^\]\n]{0,320}\] blocked using/i;
export const NOT_SENDER_BLOCK_WORDS = new RegExp(
  `blocked senders?|recipient'?s? (?:has )?(?:blocked|block ?list|black ?list)|blocked by (?:the )?recipient|personal (?:block|black) ?list|${AUTH_WORDS.source}|${TENANT_WORDS.source}`,
  'i',
);
// Spam reported by the receiver's users about the sender ("users here have reported spam from this
// address"): the standing of the sender, not this message's content.
const SENDER_REPORTED_SPAM =
  /reported spam (?:from|sent by) (?:this|your|the) (?:address|sender|domain)|spam (?:complaints|reports) (?:about|against) (?:this|your|the) (?:address|sender|domain)/i;
// Blocklists of sending addresses, by name: a refusal naming one refuses the address, whatever its
// zone or its text says of spam ("blocked using spam.dnsbl.sorbs.net; Currently Sending Spam").
// Not the lists of domains and links (Spamhaus's DBL, URIBL, SURBL), which name the content.
const ADDRESS_BLOCKLISTS =
  /\bsorbs\b|spamcop|uceprotect|barracudacentral|\bpsbl\b|\b(?:zen|sbl|xbl|pbl|sbl-xbl)\.spamhaus|\bdnsbl\b/i;
// The content rules' exceptions: authentication, a blocklist of addresses, and a reputation or spam
// count that is the sending address's or the sender's.
const AUTH_OR_ADDRESS_WORDS = new RegExp(
  `${AUTH_WORDS.source}|${ADDRESS_BLOCKLISTS.source}|${ADDRESS_REPUTATION.source}|${ADDRESS_SPAM.source}|${SENDER_REPORTED_SPAM.source}`,
  'i',
);
// Office 365's "banned sending IP" codes (5.7.606–5.7.649) and its rate limits "due to IP reputation"
// (4.7.650, 4.7.651): the code alone names the sending address.
export const SENDER_BLOCK_CODES = /^[45]\.7\.(?:60[6-9]|6[1-4]\d|65[01])$/;
const NETWORK_WORDS =
  /network error|connection (?:refused|timed out|reset|closed|dropped)|timed out|timeout|lost connection|no route|network is unreachable|unable to connect|could not connect|(?:can'?t|cannot) connect|no mxs? .{0,60}could be reached|conversation with .{1,100} timed out|tls (?:handshake|negotiation) failed|host unreachable|host not found, try again/i;
// The receiving server's own storage (not a mailbox's: "mailbox has insufficient storage" is full).
const SERVER_STORAGE_WORDS =
  /insufficient (?:disk space|system storage)|out of (?:disk|memory)|disk full|no space left on device/i;
const SYSTEM_WORDS =
  /local configuration error|configuration error|mail loop|loops back to myself|too many hops|routing loop|internal (?:server )?error|system (?:error|failure)|temporary (?:local )?(?:problem|failure)|service (?:not available|unavailable)|resources? (?:temporarily )?unavailable|out of (?:disk|memory)|disk full|syntax error|protocol error|not implemented|try again later|temporary lookup failure/i;
// Not qmail's "Giving up on 192.0.2.25.", which closes every permanent failure at that host.
const EXPIRED_WORDS =
  /retry timeout exceeded|in the queue too long|too long in (?:the )?queue|retry time not reached for any host after a long failure period|message (?:has )?expired|delivery (?:time )?expired|expired in queue|giving up(?! on \[?\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})|given up|have been failing for a long time|maximum (?:delivery|retry) (?:time|attempts)|(?:cannot|could not|couldn'?t) (?:send|deliver|be delivered)(?: the)?(?: message)? for (?:the past |more than )?\d{1,3} (?:days?|hours?)|will be deleted from (?:the )?queue/i;

export const REPLY_RULES: readonly ReplyRule[] = [
  // --- Words that say more than any code: greylisting, rate limits, vendors' overloaded codes. ---
  {
    name: 'greylisted',
    category: 'policy_rejected',
    words: GREYLIST_WORDS,
    transientOnly: true,
    greylisted: true,
    examples: [
      { reply: '450 4.7.1 Greylisted, please try again later', enhanced: '4.7.1' },
      {
        reply:
          '450 4.2.0 <jane@x.example>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/x.example.html',
        enhanced: '4.2.0',
      },
      { reply: '451 4.7.1 Greylisting in action, please come back later', enhanced: '4.7.1' },
      { reply: '451 Temporarily rejected: greylist in effect', enhanced: '4.0.0' },
      {
        reply:
          '451 Internal resource temporarily unavailable - https://community.mimecast.com/docs/DOC-1369#451 [mQ1x]',
        enhanced: '4.0.0',
      },
    ],
  },
  {
    name: 'too many hops',
    category: 'system_error',
    words: /too many hops|hop count exceeded|mail loop|loops back to myself|routing loop/i,
    codes: GENERIC_OR_NETWORK,
    detail: '4.6',
    examples: [
      { reply: '554 Too many hops', enhanced: '5.4.6' },
      { reply: '554 mail for x.example loops back to myself', enhanced: '5.4.6' },
      { reply: '554 5.4.14 Hop count exceeded - possible mail loop ATTR34', enhanced: '5.4.14' },
    ],
  },
  {
    name: 'rate limited',
    category: 'rate_limited',
    words: RATE_WORDS,
    // "Temporarily deferred due to" a check of our MAIL FROM domain is no rate (iCloud's HM08), nor is a
    // limit put on mail that failed authentication (Gmail's 4.7.27 "rate limited because SPF
    // authentication didn't pass"): what the sender must mend is its authentication.
    unless: new RegExp(`${SENDER_DOMAIN_CHECK.source}|${FAILED_AUTH.source}`, 'i'),
    // A rate limit never says anything about the address: never over a code that names the mailbox.
    codes: /^(?![245]\.(?:1\.[1-9]|2\.2))/,
    detail: '7.0',
    examples: [
      { reply: '451 4.7.28 Rate limited due to IP reputation', enhanced: '4.7.28' },
      { reply: '452 4.5.3 Too many recipients', enhanced: '4.5.3' },
      { reply: '450 4.2.0 Throttled, slow down', enhanced: '4.2.0' },
      {
        reply:
          '421 4.7.0 [TSS04] Messages from 198.51.100.7 temporarily deferred due to unexpected volume or user complaints',
        enhanced: '4.7.0',
      },
      { reply: '451 Too many connections from your IP', enhanced: '4.7.0' },
      {
        reply:
          '450 4.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages from being delivered.',
        enhanced: '4.2.1',
      },
      { reply: '550 5.4.5 Daily sending quota exceeded', enhanced: '5.4.5' },
      {
        reply: '451 4.7.500 Server busy. Please try again later from [198.51.100.7]. (S77719)',
        enhanced: '4.7.500',
      },
      { reply: '451 Ip frequency limited.', enhanced: '4.7.0' },
      {
        reply:
          '450 MI:CEL 198.51.100.7 Connection frequency limited. http://mail.163.example/help/help_spam_16.htm?ip=198.51.100.7',
        enhanced: '4.7.0',
      },
      // NetEase: too many messages on one connection (MI:DMC), with or without its words.
      {
        reply:
          '451 MI:DMC 126 mx14,QsCowAD3 Mail sent by the current connection exceeds the limit, please reduce the number of messages per connection',
        enhanced: '4.7.0',
      },
      {
        reply: '451 MI:DMC 163 mx3,XsCowAB1 http://mail.163.example/help/help_spam_16.htm',
        enhanced: '4.7.0',
      },
    ],
  },
  {
    name: 'rate limited (4.7.28, Office 365 4.7.5xx)',
    category: 'rate_limited',
    codes: /^4\.7\.(?:28|5\d\d)$/,
    examples: [
      { reply: '421 4.7.28 Our system has detected an unusual volume from your IP', enhanced: '4.7.28' },
    ],
  },
  {
    name: 'service closing (421)',
    category: 'rate_limited',
    replies: [421],
    // A 421 with a code of its own (4.4.1 no answer, 4.3.2 shutting down) is what that code says;
    // one that names the sender's authentication or a blocklist is a policy refusal (Gmail's
    // "421-4.7.0 This message does not have authentication information").
    codes: /^(?:4\.\d{1,3}\.0|4\.7\.\d{1,3})?$/,
    unless: new RegExp(
      `${AUTH_WORDS.source}|${BLOCK_WORDS.source}|${SENDER_DOMAIN_CHECK.source}|spam(?!haus|cop)|virus|unsolicited|due to (?:local )?polic(?:y|ies)|policy (?:restrictions?|violation|reasons)|\\breputation\\b|permanently deferred`,
      'i',
    ),
    examples: [
      { reply: '421 Service not available', enhanced: '4.4.2' },
      { reply: '421 4.7.0 Try again later, closing connection.', enhanced: '4.7.0' },
    ],
  },
  {
    name: 'greylisted (try again later)',
    category: 'policy_rejected',
    words:
      /(?:please )?try again (?:later|in \d{1,5} ?(?:seconds|secs?|minutes|mins?))|come back later|temporarily rejected|not yet authorized to deliver|deferred for \d{1,5} ?(?:seconds|minutes)/i,
    replies: [450, 451],
    codes: /^(?:4\.\d{1,3}\.0|4\.7\.1)?$/,
    // Not a reply that names a trouble of the server's own (NetEase's "451 4.3.0 Temporary system
    // failure, please try again later"): its system, not a greylist. OpenBSD spamd greylists with
    // "451 Temporary failure, please try again later", so that alone is still one.
    unless:
      /system (?:error|failure)|internal (?:server )?error|resources? (?:temporarily )?unavailable|out of (?:disk|memory)|disk full|lookup failure/i,
    transientOnly: true,
    greylisted: true,
    examples: [
      { reply: '451 4.7.1 Please try again later', enhanced: '4.7.1' },
      { reply: '451 Deferred: try again in 300 seconds', enhanced: '4.0.0' },
      { reply: '450 4.2.0 Temporarily rejected, come back later', enhanced: '4.2.0' },
    ],
  },
  {
    name: 'sender verification failed',
    category: 'policy_rejected',
    // Exim's sender-verification callout quotes what our return path's server answered ("550-Response:
    // 550 5.1.1 No such user"): that code is about our address, never the recipient's, so the verdict
    // carries the policy code (ownCode).
    words:
      /sender (?:address )?verif(?:y|ication) (?:failed|callout)|verification failed for|could not complete sender verify|sender address (?:could not be|was not|cannot be) verified|v[e\u00e9]rification de l['\u2019]adresse (?:de retour|d['\u2019]exp[e\u00e9]diteur|de l['\u2019](?:exp[e\u00e9]diteur|[e\u00e9]metteur))/i,
    detail: '7.1',
    ownCode: true,
    examples: [
      {
        reply:
          '550-Verification failed for <b+x@send.acme.example> 550-Called: 198.51.100.30 550-Sent: RCPT TO:<b+x@send.acme.example> 550-Response: 550 5.1.1 No such user 550 Sender verify failed',
        enhanced: '5.7.1',
      },
      { reply: '550 Sender verify failed', enhanced: '5.7.1' },
    ],
  },
  {
    name: 'relay refused (Office 365 5.4.1)',
    category: 'policy_rejected',
    // "550 5.4.1 Relay Access Denied": the recipient's domain is not set up at Microsoft (not an
    // accepted domain of any tenant), which says nothing of the mailbox.
    codes: /^5\.4\.1$/,
    words: /relay(?:ing)? (?:access )?denied|relaying not permitted|unable to relay/i,
    examples: [
      {
        reply:
          '550 5.4.1 Relay Access Denied ATTR36 [DB5EUR03FT012.eop-EUR03.prod.protection.outlook.example]',
        enhanced: '5.4.1',
      },
    ],
  },
  {
    name: 'Office 365 recipient rejections',
    category: 'unknown_recipient',
    // 5.1.351 (the recipient's server refused it), 5.4.1 Directory-Based Edge Blocking, 5.1.10
    // RESOLVER.ADR.RecipientNotFound (not RFC 7505's null MX): the recipient does not exist in the
    // tenant (Microsoft's NDR documentation).
    codes: /^5\.(?:1\.351|1\.10|4\.1)$/,
    words:
      /recipient address rejected|access denied|recip(?:ient)?notfound|recipient not found|user unknown|unknown user|does not exist/i,
    examples: [
      {
        reply:
          '550 5.1.351 Remote server returned 550 5.1.1 <jane@x.example>: Recipient address rejected: User unknown in virtual mailbox table',
        enhanced: '5.1.351',
      },
      {
        reply:
          '550 5.4.1 Recipient address rejected: Access denied. [AM0PR01MB1234.eurprd01.prod.outlook.example]',
        enhanced: '5.4.1',
      },
      {
        reply: '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
        enhanced: '5.1.10',
      },
    ],
  },
  {
    name: 'unknown recipient (x.7.1 with no-such-user words)',
    category: 'unknown_recipient',
    // Some providers (Yandex, several hosting platforms) answer a mailbox that does not exist with
    // 5.7.1, their catch-all for "refused": the words say what the code does not. Only words that name
    // the mailbox and none that name the sender, its content or a block.
    codes: /^5\.7\.1$/,
    words:
      /no such (?:user|mailbox|recipient|account)|unknown (?:user|recipient|mailbox)|\b(?:user|mailbox|recipient|account)\b[^.;:,]{0,40}\b(?:unknown|not found|does not exist|doesn'?t exist)/i,
    unless: new RegExp(
      `${POLICY_WORDS.source}|${CONTENT_WORDS.source}|sender|envelope.from|mail from|return.path`,
      'i',
    ),
    examples: [
      { reply: '550 5.7.1 No such user! 1763899999-abCdEfGhIj-1', enhanced: '5.7.1' },
      { reply: '550 5.7.1 <jane@x.example>: Recipient not found', enhanced: '5.7.1' },
      { reply: '550 5.7.1 Recipient address rejected: user jane does not exist', enhanced: '5.7.1' },
    ],
  },
  {
    name: 'sender rejected',
    category: 'policy_rejected',
    // Postfix's "Sender address rejected: Domain not found" (Exim's "Sender verify failed" is the rule
    // above's): the words of the unknown-recipient and unknown-domain rules, about our own address.
    // "Return path" as words, not a quoted original's `Return-Path:` header line.
    words: new RegExp(`${SENDER_DOMAIN_CHECK.source}|${SENDER_REJECTED_WORDS.source}`, 'i'),
    codes: GENERIC_OR_POLICY,
    detail: '7.1',
    examples: [
      {
        reply: '553 5.1.0 <b+x@send.acme.example>: Sender address rejected: Domain not found',
        enhanced: '5.1.0',
      },
      { reply: '550 Die Absenderadresse existiert nicht', enhanced: '5.7.1' },
    ],
  },
  {
    name: 'sender rejected (x.1.y)',
    category: 'policy_rejected',
    // Postfix answers our own address with the code of the address's trouble ("550 5.1.1 <b+…>:
    // Sender address rejected: undeliverable address"): about our return path, never the recipient, so
    // the verdict carries the policy code (ownCode).
    words: new RegExp(
      `sender address(?: <[^<>\\n]{1,320}>)? (?:rejected|does not exist|doesn'?t exist|not found|unknown|is invalid)|sender domain (?:not found|unknown|rejected)|${SENDER_INEXISTENT.source}|${SENDER_ADDRESS_REFUSED.source}`,
      'i',
    ),
    // Not x.1.7 and x.1.8, which are the sender's own codes (the rule for them, below, keeps them).
    codes: /^[245]\.1\.(?:[0-69]|\d{2,3})$/,
    detail: '7.1',
    ownCode: true,
    examples: [
      {
        reply:
          '550 5.1.1 <b+x@send.acme.example>: Sender address rejected: undeliverable address: host not found',
        enhanced: '5.7.1',
      },
    ],
  },
  {
    name: 'expired',
    category: 'expired',
    words: EXPIRED_WORDS,
    // Exim names the trouble before it gave up ("mailbox is full: retry timeout exceeded"): a full
    // mailbox is what the message met (the rule for its words, later).
    unless: MAILBOX_FULL_WORDS,
    codes: GENERIC_OR_NETWORK,
    detail: '4.7',
    examples: [
      { reply: '550 retry timeout exceeded', enhanced: '5.4.7' },
      {
        reply: "554 I'm not going to try again; this message has been in the queue too long.",
        enhanced: '5.4.7',
      },
      { reply: '550 retry time not reached for any host after a long failure period', enhanced: '5.4.7' },
      { reply: '550 5.4.300 Message expired', enhanced: '5.4.300' },
      {
        reply: "550 all hosts for 'x.example' have been failing for a long time (and retry time not reached)",
        enhanced: '5.4.7',
      },
      { reply: '550 Cannot send message for 5 days', enhanced: '5.4.7' },
      {
        reply: '550 Message could not be delivered for 5 days; will be deleted from queue',
        enhanced: '5.4.7',
      },
    ],
  },
  {
    name: 'unknown domain (words)',
    category: 'unknown_domain',
    // Postfix returns mail for a domain that does not exist as 5.4.4 "Host or domain name not found".
    words: UNKNOWN_DOMAIN_WORDS,
    // Postfix's resolver answered TRY_AGAIN (a DNS server failing, not a name that does not exist):
    // "Name service error for name=x.example type=MX: Host not found, try again".
    unless: /host not found, try again/i,
    // Office 365 says 5.4.310 "DNS domain … does not exist".
    codes: /^(?:[245]\.(?:\d{1,3}\.0|4\.4|4\.310))?$/,
    detail: '1.2',
    examples: [
      {
        reply:
          '550 5.4.4 Host or domain name not found. Name service error for name=x.example type=AAAA: Host not found',
        enhanced: '5.4.4',
      },
      { reply: "550 Sorry, I couldn't find any host named x.example.", enhanced: '5.1.2' },
      {
        reply: '550 Host or domain name not found. Name service error for name=x.example type=MX',
        enhanced: '5.1.2',
      },
      { reply: '550 5.0.0 Domain not found', enhanced: '5.1.2' },
      { reply: '550 Die Domain des Empf\u00e4ngers existiert nicht', enhanced: '5.1.2' },
      { reply: '550 Unrouteable address', enhanced: '5.1.2' },
      { reply: '554 5.4.4 SMTPSEND.DNS.NonExistentDomain; nonexistent domain', enhanced: '5.4.4' },
      { reply: '550 all relevant MX records point to non-existent hosts', enhanced: '5.1.2' },
    ],
  },

  {
    name: 'moved (551 user not local)',
    category: 'unknown_recipient',
    // RFC 5321 §3.4: 551 "User not local; please try <forward-path>": the address has moved. Words
    // that name our own address or a relay are the policy rules'.
    replies: [551],
    words: /not local|(?:has|have) moved|please try|forward-path/i,
    unless: /relay|sender|mail from/i,
    codes: /^(?:5\.(?:\d{1,3}\.0|0\.\d{1,3}))?$/,
    detail: '1.6',
    examples: [
      { reply: '551 User not local; please try <jane@y.example>', enhanced: '5.1.6' },
      { reply: '551 5.1.0 User has moved; please try <jane@y.example>', enhanced: '5.1.0' },
    ],
  },

  // --- What the code says, when it is specific. ---
  {
    // Orange answers a full mailbox with 5.1.1 ("552 5.1.1 <jane@x> Boite du destinataire pleine.
    // Recipient overquota. OFR_417"): the words say more than the code, and a full mailbox is never
    // suppressed.
    name: 'mailbox full (x.1.1 with full words)',
    category: 'mailbox_full',
    codes: /^[245]\.1\.1$/,
    words: MAILBOX_FULL_WORDS,
    detail: '2.2',
    ownCode: true,
    examples: [
      {
        reply: '552 5.1.1 <jane@x.example> Boite du destinataire pleine. Recipient overquota. OFR_417',
        enhanced: '5.2.2',
      },
    ],
  },
  {
    // Yahoo's "552 1 Requested mail action aborted, mailbox not found", which Sendmail reports as 5.2.2
    // (its mapping of 552): the words say the mailbox is not there.
    name: 'unknown recipient (x.2.2 with not-found words)',
    category: 'unknown_recipient',
    codes: /^[245]\.2\.2$/,
    words:
      /mailbox not found|no such (?:user|mailbox)|user unknown|unknown user|does not exist|recipient not found/i,
    unless: MAILBOX_FULL_WORDS,
    detail: '1.1',
    ownCode: true,
    // The reply as the report gives it: Yahoo's words under the Status Sendmail made of 552.
    examples: [{ reply: '552 5.2.2 Requested mail action aborted, mailbox not found', enhanced: '5.1.1' }],
  },
  {
    name: 'bad mailbox (x.1.1, x.1.3, x.1.6)',
    category: 'unknown_recipient',
    codes: /^[245]\.1\.[136]$/,
    examples: [
      {
        reply:
          '550 5.1.1 <jane@x.example>: Recipient address rejected: User unknown in local recipient table',
        enhanced: '5.1.1',
      },
      {
        reply:
          "550-5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos",
        enhanced: '5.1.1',
      },
      { reply: '550 5.1.1 RESOLVER.ADR.RecipNotFound; not found', enhanced: '5.1.1' },
      { reply: '550 Sorry, no mailbox here by that name. (#5.1.1)', enhanced: '5.1.1' },
      { reply: '551 5.1.6 User has moved; please try <jane@y.example>', enhanced: '5.1.6' },
    ],
  },
  {
    name: 'bad domain (x.1.2, null MX x.1.10)',
    category: 'unknown_domain',
    codes: /^[245]\.1\.(?:2|10)$/,
    examples: [
      {
        reply: '550 5.1.2 <jane@x.example>: Recipient address rejected: Domain not found',
        enhanced: '5.1.2',
      },
      { reply: '556 5.1.10 Recipient address has null MX', enhanced: '5.1.10' },
    ],
  },
  {
    name: 'bad sender address (x.1.7, x.1.8)',
    category: 'policy_rejected',
    codes: /^[245]\.1\.[78]$/,
    examples: [{ reply: '553 5.1.8 <b+x@send.acme.example>: Sender address rejected', enhanced: '5.1.8' }],
  },
  {
    name: 'message refused (x.2.1 with block words)',
    category: 'policy_rejected',
    // AOL answered a block with "521 5.2.1 AOL will not accept delivery of this message": the message
    // or its sender refused, not the disabled mailbox RFC 3463 gives x.2.1 to.
    codes: /^[245]\.2\.1$/,
    words:
      /will not accept (?:delivery of )?this message|not accept(?:ing)? (?:mail|messages) from|block(?:ed| ?list)|black ?list|spam|polic(?:y|ies)|reputation/i,
    unless: DISABLED_WORDS,
    examples: [{ reply: '521 5.2.1 :  AOL will not accept delivery of this message.', enhanced: '5.2.1' }],
  },
  {
    name: 'mailbox disabled (x.2.1)',
    category: 'mailbox_disabled',
    codes: /^[245]\.2\.1$/,
    examples: [
      {
        reply:
          '550-5.2.1 The email account that you tried to reach is disabled. For more information, go to https://support.google.example/mail/?p=DisabledUser',
        enhanced: '5.2.1',
      },
      { reply: '450 4.2.1 Mailbox busy', enhanced: '4.2.1' },
    ],
  },
  {
    name: 'mailbox full (x.2.2)',
    category: 'mailbox_full',
    codes: /^[245]\.2\.2$/,
    examples: [
      { reply: '552 5.2.2 Mailbox full: quota exceeded', enhanced: '5.2.2' },
      {
        reply:
          '452-4.2.2 The email account that you tried to reach is over quota. Please direct the recipient to https://support.google.example/mail/?p=OverQuotaTemp',
        enhanced: '4.2.2',
      },
    ],
  },
  {
    name: 'too large (x.2.3, x.3.4)',
    category: 'message_too_large',
    codes: /^[245]\.(?:2\.3|3\.4)$/,
    examples: [
      { reply: '552 5.3.4 Message size exceeds fixed limit', enhanced: '5.3.4' },
      { reply: '552 5.2.3 Message exceeds maximum size for this mailbox', enhanced: '5.2.3' },
    ],
  },
  {
    name: 'expired (x.4.7)',
    category: 'expired',
    codes: /^[245]\.4\.7$/,
    examples: [{ reply: '550 5.4.7 Delivery attempts have ceased', enhanced: '5.4.7' }],
  },
  {
    name: 'loop (x.4.6)',
    category: 'system_error',
    codes: /^[245]\.4\.6$/,
    examples: [{ reply: '554 5.4.6 Hop limit reached', enhanced: '5.4.6' }],
  },
  {
    name: 'content refused (x.7.x with content words)',
    category: 'content_rejected',
    codes: /^[245]\.7\.(?:0|1|\d{3})$/,
    words: CONTENT_WORDS,
    // "Suspicious due to the very low reputation of the sending IP address" is about the address.
    unless: AUTH_OR_ADDRESS_WORDS,
    examples: [
      { reply: '554 5.7.1 Message rejected as spam by content filter', enhanced: '5.7.1' },
      {
        reply:
          '550-5.7.1 [198.51.100.7] Our system has detected that this message is likely unsolicited mail.',
        enhanced: '5.7.1',
      },
      { reply: '554 5.7.1 Message content rejected (attachment type not allowed)', enhanced: '5.7.1' },
      { reply: '550 5.7.1 Virus found in message', enhanced: '5.7.1' },
      { reply: '550 5.7.1 Message rejected due to content restrictions', enhanced: '5.7.1' },
    ],
  },
  {
    name: 'content (x.6.x)',
    category: 'content_rejected',
    codes: /^[245]\.6\.\d{1,3}$/,
    examples: [{ reply: '554 5.6.0 Message content rejected', enhanced: '5.6.0' }],
  },
  {
    name: 'policy (x.7.x)',
    category: 'policy_rejected',
    // Not x.7.0, whose words decide (a rate limit, a refusal of the content).
    codes: /^[245]\.7\.(?:[1-9]|\d{2,3})$/,
    examples: [
      { reply: '554 5.7.1 <jane@x.example>: Relay access denied', enhanced: '5.7.1' },
      {
        reply: '550 5.7.26 This message does not pass authentication checks (SPF and DKIM both do not pass).',
        enhanced: '5.7.26',
      },
      {
        reply: '550 5.7.25 The IP address sending this message does not have a PTR record setup',
        enhanced: '5.7.25',
      },
      { reply: '550 5.7.606 Access denied, banned sending IP [198.51.100.7].', enhanced: '5.7.606' },
      {
        reply: '554 5.7.1 Service unavailable; Client host [198.51.100.7] blocked using zen.spamhaus.org',
        enhanced: '5.7.1',
      },
    ],
  },
  {
    // Sendmail's own "452 4.4.5 Insufficient disk space; try again later": the server's storage, which
    // RFC 3463's "mail system congestion" (x.4.5) would put under network.
    name: 'server storage (x.4.5)',
    category: 'system_error',
    codes: /^[245]\.4\.5$/,
    words: SERVER_STORAGE_WORDS,
    examples: [{ reply: '452 4.4.5 Insufficient disk space; try again later', enhanced: '4.4.5' }],
  },
  {
    name: 'network (x.4.x)',
    category: 'network_error',
    codes: /^[245]\.4\.[1-5]$/,
    examples: [{ reply: '421 4.4.1 Unable to connect to remote host', enhanced: '4.4.1' }],
  },
  {
    name: 'system (x.3.x, x.5.x)',
    category: 'system_error',
    codes: /^[245]\.[35]\.[1-9]\d{0,2}$/,
    examples: [{ reply: '421 4.3.2 Service not available, closing transmission channel', enhanced: '4.3.2' }],
  },

  // --- Words, when the code says no more than its subject (or there is none). ---
  {
    name: 'content refused (words)',
    category: 'content_rejected',
    words: CONTENT_WORDS,
    unless: AUTH_OR_ADDRESS_WORDS,
    codes: GENERIC,
    detail: '7.1',
    examples: [
      { reply: '550 Message rejected: spam detected', enhanced: '5.7.1' },
      { reply: '550 Mail content denied. http://service.mail.qq.example/detail/0/153', enhanced: '5.7.1' },
    ],
  },
  {
    name: 'blocked (words)',
    category: 'policy_rejected',
    // Before the recipient's words: "mailbox unavailable (blocked)" is a refusal of the sender.
    words: BLOCK_WORDS,
    codes: GENERIC,
    detail: '7.1',
    examples: [
      { reply: '550 Requested action not taken: mailbox unavailable (blocked)', enhanced: '5.7.1' },
      {
        reply:
          "554 Your access to this mail system has been rejected due to the sending MTA's poor reputation",
        enhanced: '5.7.1',
      },
      { reply: '550 Client host [198.51.100.7] is listed at bl.example.org', enhanced: '5.7.1' },
      {
        reply:
          "550 SC-001 (BAY004-MC1F23) Unfortunately, messages from 198.51.100.7 weren't sent. Please contact your Internet service provider since part of their network is on our block list.",
        enhanced: '5.7.1',
      },
      {
        reply:
          '554 IP=198.51.100.7 - A problem occurred. (Ask your postmaster for help or to contact tosa@rx.t-online.example to clarify.) (BL)',
        enhanced: '5.7.1',
      },
      {
        reply:
          '554 IP=198.51.100.7 - A problem occurred. (Ask your postmaster for help or to contact tosa@rx.t-online.example to clarify.)',
        enhanced: '5.7.1',
      },
      {
        reply: "550 Email from 198.51.100.7 is currently blocked by Verizon Online's anti-spam system",
        enhanced: '5.7.1',
      },
      {
        reply:
          '421-4.7.0 This message does not have authentication information or fails to pass authentication checks. To best protect our users from spam, the message has been blocked.',
        enhanced: '4.7.0',
      },
    ],
  },
  {
    name: 'unknown recipient (words)',
    category: 'unknown_recipient',
    words: UNKNOWN_RECIPIENT_WORDS,
    // Mail.ru says "invalid mailbox" of every refusal and the reason after it ("… is unavailable:
    // account is disabled"): a disabled mailbox is the later rule's. Words about the sender's address
    // in any language are never the recipient's.
    // Nor a refusal of our IP that says why ("demasiados envíos a destinatario inexistente desde su IP").
    unless: new RegExp(
      `${DISABLED_WORDS.source}|${SENDER_WORDS.source}|\\b(?:desde|from|depuis|dal|do) (?:su|your|votre|tuo|seu) ip\\b`,
      'i',
    ),
    codes: GENERIC,
    detail: '1.1',
    examples: [
      { reply: '550 No such user', enhanced: '5.1.1' },
      {
        reply: '550 5.5.0 Requested action not taken: mailbox unavailable (S2017062302).',
        enhanced: '5.5.0',
      },
      {
        reply: '554 delivery error: dd Not a valid recipient - atlas108.free.mail.yahoo.example',
        enhanced: '5.1.1',
      },
      {
        reply: "554 delivery error: dd This user doesn't have a yahoo.com account (jane@x.example) [0]",
        enhanced: '5.1.1',
      },
      { reply: '550 User jpietersen (jane@x.example) not listed in Domino Directory', enhanced: '5.1.1' },
      { reply: '550 5.1.0 Address rejected.', enhanced: '5.1.0' },
      { reply: '550 MAILBOX NOT FOUND', enhanced: '5.1.1' },
      { reply: '550 Sorry, no mailbox here by that name.', enhanced: '5.1.1' },
      { reply: '550 unknown or illegal alias', enhanced: '5.1.1' },
      { reply: "550 'arathib@vnet.example' is not a registered gateway user", enhanced: '5.1.1' },
      { reply: '550 user has moved with no forwarding address', enhanced: '5.1.1' },
      { reply: '550 Address unknown', enhanced: '5.1.1' },
      { reply: '550 No such person at this address', enhanced: '5.1.1' },
      { reply: '550 <jane@x.example> Not our Customer', enhanced: '5.1.1' },
      { reply: '550 [PERMFAIL] jane@x.example: recipient is not exist', enhanced: '5.1.1' },
      { reply: '550 Address invalid', enhanced: '5.1.1' },
      { reply: '550 5.0.0 <jane@x.example>... Addressee unknown, relay=mx.x.example', enhanced: '5.1.1' },
      {
        reply: '550 5.0.350 Remote server returned an error -> 550 5.1.1 <jane@x.example>: user unknown',
        enhanced: '5.1.1',
      },
      { reply: '550 Benutzer unbekannt', enhanced: '5.1.1' },
      { reply: '550 \u6536\u4ef6\u4eba\u90ae\u7bb1\u5730\u5740\u4e0d\u5b58\u5728', enhanced: '5.1.1' },
      { reply: '550 Die E-Mail-Adresse des Empf\u00e4ngers existiert nicht', enhanced: '5.1.1' },
      { reply: '550 Das Postfach existiert nicht', enhanced: '5.1.1' },
      { reply: '550 Utilisateur inconnu', enhanced: '5.1.1' },
      { reply: '550 Usuario desconocido', enhanced: '5.1.1' },
      {
        reply:
          '550 \u041d\u0435\u0442 \u0442\u0430\u043a\u043e\u0433\u043e \u043f\u043e\u043b\u044c\u0437\u043e\u0432\u0430\u0442\u0435\u043b\u044f',
        enhanced: '5.1.1',
      },
    ],
  },
  {
    name: 'mailbox full (words)',
    category: 'mailbox_full',
    words: MAILBOX_FULL_WORDS,
    codes: GENERIC,
    detail: '2.2',
    examples: [
      { reply: '552 Mailbox quota exceeded', enhanced: '5.2.2' },
      { reply: '452 User is over quota', enhanced: '4.2.2' },
      { reply: '552 Mailbox quota usage exceeded', enhanced: '5.2.2' },
      { reply: '552 Postfach voll', enhanced: '5.2.2' },
      { reply: '552 Mailbox size exceeded', enhanced: '5.2.2' },
      { reply: "552 The user's mailbox has exceeded its size limit", enhanced: '5.2.2' },
      { reply: '552 Bo\u00eete aux lettres pleine', enhanced: '5.2.2' },
      { reply: '552 Das Postfach des Empf\u00e4ngers ist voll', enhanced: '5.2.2' },
      { reply: '552 La bo\u00eete aux lettres du destinataire est pleine', enhanced: '5.2.2' },
    ],
  },
  {
    name: 'mailbox disabled (words)',
    category: 'mailbox_disabled',
    words: DISABLED_WORDS,
    codes: GENERIC,
    detail: '2.1',
    examples: [
      {
        reply:
          '554 30 Sorry, your message to jane@x.example cannot be delivered. This mailbox is disabled (554.30).',
        enhanced: '5.2.1',
      },
      { reply: '550 Account suspended', enhanced: '5.2.1' },
      {
        reply:
          '550 Message was not accepted -- invalid mailbox. Local mailbox jane@x.example is unavailable: account is disabled',
        enhanced: '5.2.1',
      },
      { reply: '550 User account terminated', enhanced: '5.2.1' },
      { reply: '550 The mailbox of this recipient has been disabled', enhanced: '5.2.1' },
      { reply: '550 Mailbox temporarily disabled', enhanced: '5.2.1' },
      {
        reply:
          '554 delivery error: dd Sorry your message to jane@x.example cannot be delivered. This account has been disabled or discontinued [#102]',
        enhanced: '5.2.1',
      },
    ],
  },
  {
    name: 'too large (words)',
    category: 'message_too_large',
    words: TOO_LARGE_WORDS,
    codes: GENERIC,
    detail: '3.4',
    examples: [{ reply: '550 Message size exceeds the limit for this recipient', enhanced: '5.3.4' }],
  },
  {
    // A server that answered with a permanent reply refused the connection's client (GoDaddy's "554 …
    // IB401 198.51.100.7 Connection refused"): a refusal of policy. A connection that could not be made
    // is transient and quotes no 5xx of the server's own ("Deferred: Connection refused by …").
    name: 'refused by the server (5xx "connection refused")',
    category: 'policy_rejected',
    replies: [521, 530, 550, 551, 553, 554, 556],
    words:
      /connection refused|conexi[o\u00f3]n rechazada|connexion refus[e\u00e9]e|connessione rifiutata|conex[a\u00e3]o recusada/i,
    // A relay quoting its own failed connection to a server behind it ("554 5.0.0 transaction failed:
    // dial tcp 10.0.0.5:25: connect: connection refused") is that network's trouble.
    unless:
      /dial tcp|connect(?:ion)? to |connect(?:\(\))?: |errno|econnrefused|upstream|backend|connection refused by/i,
    codes: GENERIC,
    detail: '7.1',
    examples: [
      {
        reply: '554 p3plibsmtp02-09.prod.example bizsmtp IB401 198.51.100.7 Connection refused.',
        enhanced: '5.7.1',
      },
    ],
  },
  {
    name: 'network (words)',
    category: 'network_error',
    words: NETWORK_WORDS,
    codes: GENERIC,
    detail: '4.1',
    examples: [
      { reply: '451 connect to mx.x.example[192.0.2.25]:25: Connection timed out', enhanced: '4.4.1' },
      { reply: '450 Deferred: Connection refused by mx.x.example.', enhanced: '4.4.1' },
      { reply: '451 4.4.0 [internal] No MXs for x.example could be reached', enhanced: '4.4.0' },
    ],
  },
  {
    // A TLS session required and not had (Exim's "a TLS session is required, but the server did not
    // offer TLS support", Postfix's "TLS is required, but was not offered"): the security policy of a
    // server on the way, as x.7.10 and DANE's and MTA-STS's refusals are. A rule of its own, so the
    // words do not count as policy words elsewhere (a footer saying "TLS required" beside a reply).
    name: 'TLS required (words)',
    category: 'policy_rejected',
    words: /tls (?:session )?(?:is )?required|(?:did|does) not offer (?:tls|starttls)|must issue a starttls/i,
    codes: GENERIC,
    detail: '7.10',
    examples: [
      {
        reply: '454 4.7.0 a TLS session is required, but the server did not offer TLS support',
        enhanced: '4.7.0',
      },
      { reply: '530 5.7.0 Must issue a STARTTLS command first', enhanced: '5.7.0' },
      { reply: '550 TLS is required, but was not offered by host mx.x.example', enhanced: '5.7.10' },
    ],
  },
  {
    name: 'policy (words)',
    category: 'policy_rejected',
    words: POLICY_WORDS,
    codes: GENERIC,
    detail: '7.1',
    examples: [
      { reply: '550 Rejected by header based Anti-Spoofing policy', enhanced: '5.7.1' },
      { reply: '550 Posting by non-members to hiking@lists.example is not allowed.', enhanced: '5.7.1' },
      { reply: '550 Administrative prohibition', enhanced: '5.7.1' },
      { reply: "550 You don't have permission to post to this group", enhanced: '5.7.1' },
      { reply: '550 The message is not from a list member', enhanced: '5.7.1' },
      { reply: '550 not local host x.example, not a gateway', enhanced: '5.7.1' },
      { reply: '554 Email rejected due to security policies', enhanced: '5.7.1' },
      { reply: '550 Unable to relay for jane@x.example', enhanced: '5.7.1' },
    ],
  },
  {
    name: 'system (words)',
    category: 'system_error',
    words: SYSTEM_WORDS,
    codes: GENERIC,
    detail: '3.0',
    examples: [
      { reply: '451 4.3.0 Temporary local problem - please try later', enhanced: '4.3.0' },
      { reply: '451 4.3.0 <jane@x.example>: Temporary lookup failure', enhanced: '4.3.0' },
      { reply: '554 5.3.0 Local configuration error', enhanced: '5.3.0' },
    ],
  },
];

/**
 * What a code says alone, by its subject (RFC 3463 §3), for a code no rule above placed: the server's
 * x.y.0 without words any rule knows, or the code a basic reply code implies.
 */
export const SUBJECT_CATEGORY: Readonly<Record<string, BounceCategory>> = {
  '0': 'undetermined',
  '1': 'undetermined',
  '2': 'undetermined',
  '3': 'system_error',
  '4': 'network_error',
  '5': 'system_error',
  '6': 'content_rejected',
  '7': 'policy_rejected',
};

/**
 * What the reporting system said itself (Amazon SES `bounceType/bounceSubType`), when it says more than
 * "General": its category and the subject.detail that stands for it.
 */
export const REPORTED_TYPES: Readonly<Record<string, { category: BounceCategory; detail: string }>> = {
  'permanent/noemail': { category: 'unknown_recipient', detail: '1.1' },
  // SES's suppression lists hold addresses that bounced as invalid before.
  'permanent/suppressed': { category: 'unknown_recipient', detail: '1.1' },
  'permanent/onaccountsuppressionlist': { category: 'unknown_recipient', detail: '1.1' },
  'transient/mailboxfull': { category: 'mailbox_full', detail: '2.2' },
  'transient/messagetoolarge': { category: 'message_too_large', detail: '3.4' },
  'transient/contentrejected': { category: 'content_rejected', detail: '6.0' },
  'transient/attachmentrejected': { category: 'content_rejected', detail: '6.0' },
};
