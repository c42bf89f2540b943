// Automatic replies (vacation notices, autoresponders) that come back to the return path: not bounces.

export interface HeaderLookup {
  /** The unfolded value of the first header with this (lower-case) name. */
  (name: string): string | undefined;
}

// Exchange and the webmail services word the subject in the recipient's language ("Automatische
// Antwort:", "Réponse automatique :", "Respuesta automática:", "自動応答:", "自动回复:", "자동 회신:").
const AUTO_SUBJECT =
  /^\s*(?:auto(?:matic)?[ -]?(?:reply|response|antwort)|automatische antwort|automatisch antwoord|r\u00e9ponse automatique|respuesta autom\u00e1tica|risposta automatica|resposta autom\u00e1tica|automatisk(?:t)? svar|autosvar|automaattinen vastaus|odpowied\u017a automatyczna|automatick\u00e1 odpov\u011b\u010f|\u0430\u0432\u0442\u043e\u043e\u0442\u0432\u0435\u0442|\u0430\u0432\u0442\u043e\u043c\u0430\u0442\u0438\u0447\u0435\u0441\u043a\u0438\u0439 \u043e\u0442\u0432\u0435\u0442|\u81ea\u52d5(?:\u5fdc\u7b54|\u8fd4\u4fe1|\u56de\u590d|\u56de\u8986)|\u81ea\u52a8(?:\u56de\u590d|\u7b54\u590d|\u56de\u8986|\u5e94\u7b54)|\uc790\ub3d9 ?(?:\uc751\ub2f5|\ud68c\uc2e0)|\u05ea\u05e9\u05d5\u05d1\u05d4 \u05d0\u05d5\u05d8\u05d5\u05de\u05d8\u05d9\u05ea|\u05de\u05e2\u05e0\u05d4 \u05d0\u05d5\u05d8\u05d5\u05de\u05d8\u05d9|\u0631\u062f \u062a\u0644\u0642\u0627\u0626\u064a|\u03b1\u03c5\u03c4\u03cc\u03bc\u03b1\u03c4\u03b7 \u03b1\u03c0\u03ac\u03bd\u03c4\u03b7\u03c3\u03b7|\u0e15\u0e2d\u0e1a\u0e01\u0e25\u0e31\u0e1a\u0e2d\u0e31\u0e15\u0e42\u0e19\u0e21\u0e31\u0e15\u0e34|tr\u1ea3 l\u1eddi t\u1ef1 \u0111\u1ed9ng|automatikus v\u00e1lasz|automatick\u00e1 odpove\u010f|r\u0103spuns automat|\u0430\u0432\u0442\u043e\u043c\u0430\u0442\u0438\u0447\u043d\u0430 \u0432\u0456\u0434\u043f\u043e\u0432\u0456\u0434\u044c|\u0430\u0432\u0442\u043e\u043c\u0430\u0442\u0438\u0447\u0435\u043d \u043e\u0442\u0433\u043e\u0432\u043e\u0440|afwezigheidsbericht|autoodpowied\u017a|lomavastaaja|automaattinen vastaus|fr\u00e5nvaromeddelande|frav\u00e6rsbesked|frav\u00e6rsmelding|automatski odgovor|samodejni odgovor|automaatne vastus|autom\u0101tisk\u0101 atbilde|automatinis atsakymas|balasan otomatis|otomatik yan\u0131t|out of (?:the )?office|abwesen\p{L}{0,20}|absence|absent du bureau|fuera de la oficina|fuori (?:sede|ufficio)|afwezig|vacation|away from (?:the )?office|on leave|outomatiese antwoord|ateb awtomatig|\u0430\u0432\u0442\u043e\u043c\u0430\u0442\u0438\u0447\u043d\u0430 \u0432\u0456\u0434\u043f\u043e\u0432\u0456\u0434\u044c|autom\u0101tisk\u0101 atbilde|p[e\u00eb]rgjigje automatike|\u0938\u094d\u0935\u091a\u093e\u0932\u093f\u0924 \u0909\u0924\u094d\u0924\u0930|awtomatikong tugon|jibu la kiotomatiki|sj\u00e1lfvirkt svar|\u0430\u0432\u0442\u043e\u043c\u0430\u0442\u0441\u043a\u0438 \u043e\u0434\u0433\u043e\u0432\u043e\u0440|\u067e\u0627\u0633\u062e \u062e\u0648\u062f\u06a9\u0627\u0631|balasan automatik|erantzun automatikoa)(?![\p{L}\p{N}])/iu;

/** Why a message is an automatic reply, or undefined when it is not recognisably one. */
export function autoReplyReason(header: HeaderLookup, subject: string): string | undefined {
  return automaticMark(header, subject, true);
}

/**
 * Whether the message says it answers another automatically, with a mark only a responder writes (a
 * person's out-of-office, say): not `Auto-Submitted: auto-generated` nor Precedence bulk or junk,
 * which mail systems put on their bounces as well.
 */
export function answersAutomatically(header: HeaderLookup, subject: string): boolean {
  return automaticMark(header, subject, false) !== undefined;
}

/**
 * A mark only a responder writes, never a mail system on its notices: X-Autoreply, X-Autorespond,
 * Precedence: auto_reply, a subject that says so. (Postfix and Exim mark every notice Auto-Submitted:
 * auto-replied, and many Precedence: bulk.)
 */
export function responderMark(header: HeaderLookup, subject: string): string | undefined {
  if (header('x-autoreply') !== undefined) return 'X-Autoreply';
  if (header('x-autorespond') !== undefined) return 'X-Autorespond';
  if (header('precedence')?.trim().toLowerCase() === 'auto_reply') return 'Precedence: auto_reply';
  if (AUTO_SUBJECT.test(subject)) return `subject "${subject.slice(0, 80)}"`;
  return undefined;
}

/**
 * The first mark of an automatic message; `sharedWithBounces`: also the marks mail systems put on their
 * bounces too (parse-report.ts asks with them only once the message is no bounce or complaint).
 */
function automaticMark(
  header: HeaderLookup,
  subject: string,
  sharedWithBounces: boolean,
): string | undefined {
  // RFC 3834 §5: anything but "no" marks an automatic message; `auto-replied` an answer to another.
  const auto = header('auto-submitted')?.trim().toLowerCase();
  if (auto && auto !== 'no' && (sharedWithBounces || auto.startsWith('auto-replied')))
    return `Auto-Submitted: ${auto}`;
  if (header('x-autoreply') !== undefined) return 'X-Autoreply';
  if (header('x-autorespond') !== undefined) return 'X-Autorespond';
  // auto_reply, and the bulk or junk that vacation(1) and many autoresponders put on their replies (RFC
  // 3834 §3.1.8 names them).
  const precedence = header('precedence')?.trim().toLowerCase();
  if (precedence === 'auto_reply' || (sharedWithBounces && (precedence === 'bulk' || precedence === 'junk')))
    return `Precedence: ${precedence}`;
  if (AUTO_SUBJECT.test(subject)) return `subject "${subject.slice(0, 80)}"`;
  return undefined;
}
