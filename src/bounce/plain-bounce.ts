// Bounces that are not RFC 3464 reports: the human-readable notices of qmail, Exim, Postfix and
// Sendmail without DSNs, Exchange and Office 365, Gmail, Yahoo and AOL, Domino, GroupWise, Courier,
// MDaemon, and list managers (Mailman, LISTSERV) refusing a post. This module recognises the FORMAT:
// whether a message is such a notice, whether it reports a failure or a delay, which addresses it
// names, and which line quotes the remote server. What the quoted words mean is classifyReport's.
//
// Best effort: the message is already identified by its VERP address, so all this has to find is
// whether it failed or is delayed, the recipient, and the server's reply.
import { angleAddress } from './address-scan.js';
import { firstAddress } from './address-scan.js';
import { answersAutomatically, responderMark, type HeaderLookup } from './auto-reply.js';
import { entryDiagnostic, noticeDiagnostic } from './notice-diagnostic.js';
import { entryStages, noticeRecipients } from './notice-recipients.js';
import { stageOf } from './reply-intelligence.js';
import { cap, cappedLines, MAX_TEXT } from './text-limits.js';

export interface PlainBounce {
  hint: 'failed' | 'delayed';
  recipients: string[];
  /** The line quoting the remote server's reply (with its continuation lines), if one was found. */
  diagnostic: string | undefined;
  /**
   * A notice listing several recipients each with its own reply (Exim, Postfix): each one's, where it
   * differs from `diagnostic` (which is the first reply in the notice, whoever it is about).
   */
  diagnostics: Map<string, string>;
  /** The SMTP command each listed recipient's reply answered, where its own lines say (entryStages). */
  stages: Map<string, string>;
  /**
   * The command the reply answered, for a notice about at most one recipient whose own lines do not say,
   * wherever the notice says so.
   */
  stage: string | undefined;
  /** The human-readable part, without the returned original message. */
  text: string;
}

// Who sends notices: mail systems, and the list managers that refuse or hold a post.
const SENDER =
  /mailer-?daemon|postmaster|mail ?delivery|delivery ?subsystem|mdaemon|delivery-status|mail administrator|mail router|listserv|mailman|majordomo|sympa|[-+]owner@|owner-|-bounces?@|-request@|groupwise|lotus notes|domino/i;
// A list's administrative address ("elena-admin@", FML's "elena-ctl@"), believed as a list manager's
// when the message carries a list's own headers (FML's X-ML-Name and X-MLServer, RFC 2919's List-Id).
const LIST_ADMIN = /^[^@\s<>]+-(?:admin|ctl)@/i;
const LIST_HEADERS = ['x-ml-name', 'x-mlserver', 'list-id', 'x-mailing-list', 'mailing-list'];
// An envelope sender that is a bounce handler's ("bounces@", "bounce-notify@", "bounce+tag@").
const BOUNCE_SENDER = /^bounces?[-+._@]/i;
// Subjects of notices: their own words come first, the returned message's subject after them (which
// may say anything: "Undeliverable: Your flight is delayed"), so these are anchored at the start, after
// at most a bracketed tag ("[Naver Mail] …", "[Postmaster] …").
// OpenSMTPD's say "Delivery status notification: error" (or ": delay"; ": success" and ": relay" are
// no failure). Exchange words its notices in the sender's language ("Unzustellbar:", "Non remis :"…); Japanese,
// Chinese and Korean mail systems say "配信失敗", "メール送信エラー", "退信", "반송".
const FAILED_SUBJECT =
  /^\s*(?:\[[^\]\n]{1,40}\]\s*)?(mancato recapito|undeliver|undelivered|not delivered|mail delivery failed|delivery (status notification \(failure\)|status notification: (?:error|failure|failed)|failure|failed|has failed|notification)|returned mail|failure notice|non.?delivery|delivery failure|message status.{0,3}undeliverable|permanent delivery failure|rejected|your message .{0,80}(rejected|not delivered)|mail system error|could not deliver|returned to sender|ndn:|unzustellbar|nicht zustellbar|non remis|non recapitabile|no se puede entregar|onbestelbaar|fout bij (?:het )?afleveren|niet afgeleverd|olevererbart|kan ikke leveres|n\u00e3o (\u00e9 poss\u00edvel )?entreg|(?:\u30e1\u30fc\u30eb\u304c?)?\u914d[\u4fe1\u9001](\u5931\u6557|\u30a8\u30e9\u30fc|\u4e0d\u80fd|\u3067\u304d\u307e\u305b\u3093\u3067\u3057\u305f)|\u9001\u4fe1\u5931\u6557|(?:\u30e1\u30fc\u30eb)?\u9001\u4fe1\u30a8\u30e9\u30fc|\u5b9b\u5148\u4e0d\u660e|(?:\u30e1\u30fc\u30eb\u3092)?\u304a\u5c4a\u3051\u3067\u304d\u307e\u305b\u3093|\u672a\u914d\u9054|\u9000\u4fe1|\u9000\u56de|\u7cfb\u7d71\u9000\u4fe1|\u7cfb\u7edf\u9000\u4fe1|\u6295\u9012\u5931\u8d25|\u50b3\u905e\u5931\u6557|\u767c\u9001\u5931\u6557|\ubc18\uc1a1|\uc804\uc1a1 \uc2e4\ud328|\ubc1c\uc1a1 \uc2e4\ud328|\u043d\u0435 \u0434\u043e\u0441\u0442\u0430\u0432\u043b\u0435\u043d\u043e|\u043d\u0435\u0434\u043e\u0441\u0442\u0430\u0432\u043b\u0435\u043d\u043d\u043e\u0435|\u043f\u0438\u0441\u044c\u043c\u043e \u043d\u0435 \u0434\u043e\u0441\u0442\u0430\u0432\u043b\u0435\u043d\u043e|\u043e\u0448\u0438\u0431\u043a\u0430 \u0434\u043e\u0441\u0442\u0430\u0432\u043a\u0438|niedostarczon|niedostarczaln|nie mo\u017cna dostarczy\u0107|nedoru\u010diteln|nelze doru\u010dit|mensagem n\u00e3o entregue|n\u00e3o entregue|teslim edilemey|ei voitu toimittaa|k\u00e9zbes\u00edthetetlen|\u65e0\u6cd5\u6295\u9012|\u7121\u6cd5\u50b3\u905e|\ubc30\ub2ec \ubabb\ud568|\ubc30\ub2ec \uc2e4\ud328|\u05dc\u05d0 \u05e0\u05de\u05e1\u05e8|\u05e9\u05dc\u05d9\u05d7\u05d4 \u05e0\u05db\u05e9\u05dc\u05d4|\u0641\u0634\u0644 (?:\u062a\u0633\u0644\u064a\u0645|\u0625\u0631\u0633\u0627\u0644)|\u062a\u0639\u0630\u0631 \u062a\u0633\u0644\u064a\u0645|\u0e2a\u0e48\u0e07(?:\u0e2d\u0e35\u0e40\u0e21\u0e25|\u0e02\u0e49\u0e2d\u0e04\u0e27\u0e32\u0e21)?\u0e44\u0e21\u0e48\u0e2a\u0e33\u0e40\u0e23\u0e47\u0e08|\u03bc\u03b7 \u03c0\u03b1\u03c1\u03ac\u03b4\u03bf\u03c3\u03b7|\u03b1\u03c0\u03bf\u03c4\u03c5\u03c7\u03af\u03b1 \u03c0\u03b1\u03c1\u03ac\u03b4\u03bf\u03c3\u03b7\u03c2|kh\u00f4ng (?:th\u1ec3 )?g\u1eedi \u0111\u01b0\u1ee3c)/i;
const DELAYED_SUBJECT =
  /^\s*(?:\[[^\]\n]{1,40}\]\s*)?(delivery (status notification \(delay\)|status notification: (?:delay|delayed|warning)|delayed|delay)|zustellung verz\u00f6gert|verz\u00f6gerte zustellung|remise diff\u00e9r\u00e9e|delayed mail|warning:\s*(message\s+\S+\s+delayed|could not send message|temporary delivery failure|delay|delayed)|temporary delivery failure|your message to .{0,80} awaits moderator approval|(?:\u30e1\u30fc\u30eb\u306e?)?\u914d[\u4fe1\u9001]\u9045\u5ef6|\u5ef6\u8fdf(?:\u6295\u9012|\u53d1\u9001|\u9001\u8fbe)|\u5ef6\u9072(?:\u6295\u905e|\u50b3\u905e|\u767c\u9001)|\uc804\uc1a1 \uc9c0\uc5f0|\ubc1c\uc1a1 \uc9c0\uc5f0|warnung:\s*(?:ihre )?nachricht|nachricht (?:ist )?(?:seit [^\n]{1,30} )?(?:unterwegs|verz\u00f6gert)|avertissement\s*:\s*(?:votre )?message|message retard\u00e9|non ancora (?:recapitat|consegnat)|ritardo (?:nella|di) consegna|retraso en la entrega|aviso de retraso|entrega (?:atrasada|adiada)|atraso na entrega|vertraagd|op\u00f3\u017anienie|\u0437\u0430\u0434\u0435\u0440\u0436\u043a\u0430 \u0434\u043e\u0441\u0442\u0430\u0432\u043a\u0438)/i;
// What only a mail system's notice says, whoever it claims to be from.
const NOTICE_WORDS =
  /this is the qmail-send program|\bqmail-send\b|wasn't able to deliver|was not able to deliver|delivery has failed to these recipients|permanent fatal errors|transient non-fatal errors|did not reach some or all of the intended recipients|could not be delivered to one or more|couldn't be delivered to|has not yet been delivered to one or more|was undeliverable to the following|created automatically by mail delivery software|this is the mail system at host|delivery to the following recipients? (failed|has been delayed)|this is a delivery status notification|an error has occurred while attempting to deliver a message|a message is delayed for more than|the following recipients? cannot be reached|your message wasn't delivered to|delivery is delayed to these recipients/i;
// Words of a notice, believed when the sender is a mail system or the null sender: in the languages
// notices are written in (Japanese, Chinese and Korean templates too), and the transcript phrases a
// notice in any language quotes (Postfix's "(in reply to RCPT TO command)", Exim's "SMTP error from
// remote mail server", qmail's "Remote host said:").
const BODY =
  /could not be delivered|couldn't be delivered|delivery has failed|unable to deliver|permanent error|was not delivered|wasn't delivered|message not delivered|not yet been delivered|delivery to the following recipient|the following address(es)? failed|undeliverable|address not found|not allowed to post|not authorized to send|was rejected for the following|held for moderation|awaits moderator approval|is being held until|delivery (failure|failed|problem)|(was|has been|were) (rejected|blocked|refused|quarantined|returned)|konnte nicht zugestellt|nicht zugestellt werden|n'a pas pu \u00eatre (remis|distribu)|no se (pudo|ha podido) entregar|non \u00e8 stato possibile (recapitare|consegnare)|non \u00e8 stato (recapitato|consegnato)|\uc804\ub2ec\ub418\uc9c0 \ubabb\ud588|(?:kon|kan) niet worden (?:bezorgd|afgeleverd)|niet (?:kon|kan) worden (?:bezorgd|afgeleverd)|permanente fout|\u043d\u0435 \u0443\u0434\u0430\u043b\u043e\u0441\u044c \u0434\u043e\u0441\u0442\u0430\u0432\u0438\u0442\u044c|\u043d\u0435 \u043c\u043e\u0436\u0435\u0442 \u0431\u044b\u0442\u044c \u0434\u043e\u0441\u0442\u0430\u0432\u043b\u0435\u043d\u043e|\u043d\u0435 \u0431\u044b\u043b\u043e \u0434\u043e\u0441\u0442\u0430\u0432\u043b\u0435\u043d\u043e|\u043d\u0435 \u0434\u043e\u0441\u0442\u0430\u0432\u043b\u0435\u043d\u043e|nie mog\u0142a zosta\u0107 dostarczona|nie mo\u017ce zosta\u0107 dostarczona|nie zosta\u0142a dostarczona|nelze doru\u010dit|nebylo mo\u017en\u00e9 doru\u010dit|nemohla by[t\u0165] doru\u010den|nebolo mo\u017en\u00e9 doru\u010di[t\u0165]|nije bilo mogu\u0107e isporu\u010diti|nije (?:mogla|mogao|moglo) biti isporu\u010den|nepavyko pristatyti|\u043d\u0438\u0458\u0435 (?:\u043c\u043e\u0433\u043b\u0430|\u043c\u043e\u0433\u0430\u043e|\u043c\u043e\u0433\u043b\u043e) \u0431\u0438\u0442\u0438 \u0438\u0441\u043f\u043e\u0440\u0443\u0447\u0435\u043d|\u043d\u0438\u0458\u0435 \u0438\u0441\u043f\u043e\u0440\u0443\u0447\u0435\u043d|\u043d\u0438\u0458\u0435 \u0431\u0438\u043b\u043e \u043c\u043e\u0433\u0443\u045b\u0435 \u0438\u0441\u043f\u043e\u0440\u0443\u0447\u0438\u0442\u0438|nebola doru\u010den|nepodarilo sa doru\u010di[t\u0165]|ni bilo mogo\u010de dostaviti|ni bilo dostavljeno|nije isporu\u010den|nije mogu\u0107e isporu\u010diti|nepristatyt|n\u00e3o p\u00f4de ser entregue|n\u00e3o foi poss\u00edvel entregar|n\u00e3o foi entregue|teslim edilemedi|nem siker\u00fclt k\u00e9zbes\u00edteni|ei voitu toimittaa|kunde inte levereras|kunne ikke leveres|\ubc30\ub2ec\ud558\uc9c0 \ubabb\ud588|\uc804\ub2ec\ud558\uc9c0 \ubabb\ud588|\u914d[\u4fe1\u9001](\u306b\u5931\u6557|\u3067\u304d\u307e\u305b\u3093)|\u9001\u4fe1\u3067\u304d\u307e\u305b\u3093|\u5c4a\u3051\u3089\u308c\u307e\u305b\u3093|\u304a?\u5c4a\u3051\u3067\u304d\u307e\u305b\u3093|\u5c4a\u304d\u307e\u305b\u3093\u3067\u3057\u305f|\u9001\u4fe1\u306b\u5931\u6557|\u5b9b\u5148\u4e0d\u660e|\u7121\u6cd5(\u5c07\u90f5\u4ef6)?(\u50b3\u905e|\u9001\u9054|\u6295\u905e)|\u65e0\u6cd5(\u5c06\u90ae\u4ef6)?(\u6295\u9012|\u9001\u8fbe|\u4f20\u9012)|\uc804\ub2ec\ud560 \uc218 \uc5c6|\uc804\ub2ec\ub418\uc9c0 \uc54a|\u05dc\u05d0 \u05e0\u05d9\u05ea\u05df \u05d4\u05d9\u05d4 \u05dc\u05de\u05e1\u05d5\u05e8|\u05dc\u05d0 \u05e0\u05de\u05e1\u05e8\u05d4|\u062a\u0639\u0630\u0651?\u0631 \u062a\u0633\u0644\u064a\u0645|\u0641\u0634\u0644 \u062a\u0633\u0644\u064a\u0645|\u0644\u0645 \u064a\u062a\u0645 \u062a\u0633\u0644\u064a\u0645|\u0e44\u0e21\u0e48\u0e2a\u0e32\u0e21\u0e32\u0e23\u0e16\u0e2a\u0e48\u0e07|\u03b4\u03b5\u03bd (?:\u03ae\u03c4\u03b1\u03bd \u03b4\u03c5\u03bd\u03b1\u03c4\u03cc \u03bd\u03b1 \u03c0\u03b1\u03c1\u03b1\u03b4\u03bf\u03b8\u03b5\u03af|\u03c0\u03b1\u03c1\u03b1\u03b4\u03cc\u03b8\u03b7\u03ba\u03b5)|kh\u00f4ng th\u1ec3 g\u1eedi t\u1edbi|kh\u00f4ng th\u1ec3 (?:chuy\u1ec3n|g\u1eedi)|\u043d\u0435 \u0432\u0434\u0430\u043b\u043e\u0441\u044f \u0434\u043e\u0441\u0442\u0430\u0432\u0438\u0442\u0438|\u043d\u0435 \u043c\u043e\u0436\u0435 \u0431\u0443\u0442\u0438 \u0434\u043e\u0441\u0442\u0430\u0432\u043b\u0435\u043d|\u043d\u0435 \u0431\u0443\u043b\u043e \u0434\u043e\u0441\u0442\u0430\u0432\u043b\u0435\u043d|nevar\u0113ja (?:tikt )?pieg\u0101d\u0101t|neizdev\u0101s pieg\u0101d\u0101t|netika pieg\u0101d\u0101t|nav iesp\u0113jams pieg\u0101d\u0101t|pieg\u0101de neizdev\u0101s|nuk mund t[e\u00eb] (?:dor[e\u00eb]zohej|dor[e\u00eb]zohet|d[e\u00eb]rgohej)|nuk u dor[e\u00eb]zua|\u0935\u093f\u0924\u0930\u093f\u0924 \u0928\u0939\u0940\u0902 (?:\u0915\u093f\u092f\u093e \u091c\u093e \u0938\u0915\u093e|\u0939\u094b \u0938\u0915\u093e|\u0915\u093f\u092f\u093e \u0917\u092f\u093e)|\u0921\u093f\u0932\u0940\u0935\u0930 \u0928\u0939\u0940\u0902 (?:\u0915\u093f\u092f\u093e \u091c\u093e \u0938\u0915\u093e|\u0939\u094b \u0938\u0915\u093e)|\u0928\u0939\u0940\u0902 \u092a\u0939\u0941[\u0902\u0901]\u091a\u093e\u092f\u093e \u091c\u093e \u0938\u0915\u093e|hindi (?:ma|na)ihatid|hindi (?:ma|na)ipadala|ha[iu]kuweza kuwasilishwa|ha[iu]kuwasilishwa|ha[iu]kuweza kufikishwa|ha[iu]kufikishwa|non se (?:puido|pode) entregar|non foi posible entregar|non foi entregad|fallou a entrega|nid oedd modd (?:danfon|anfon|cyflwyno)|ni fu modd (?:danfon|anfon|cyflwyno)|methwyd (?:\u00e2 )?(?:danfon|anfon|cyflwyno)|methu (?:\u00e2 )?(?:danfon|anfon|cyflwyno)|kon nie [^.\n]{0,60}afgelewer word nie|nie afgelewer kon word nie|is nie afgelewer nie|ekki (?:var )?h\u00e6gt a\u00f0 afhenda|(?:t\u00f3kst ekki|ekki t\u00f3kst) a\u00f0 (?:afhenda|senda)|var ekki afhent|\u043d\u0435 \u043c\u043e\u0436\u0435\u0448\u0435 \u0434\u0430 \u0431\u0438\u0434\u0435 \u0434\u043e\u0441\u0442\u0430\u0432\u0435\u043d|\u043d\u0435 \u043c\u043e\u0436\u0435 \u0434\u0430 \u0431\u0438\u0434\u0435 \u0434\u043e\u0441\u0442\u0430\u0432\u0435\u043d|\u043d\u0435 \u0431\u0435\u0448\u0435 \u0434\u043e\u0441\u0442\u0430\u0432\u0435\u043d|\u043d\u0435 \u043c\u043e\u0436\u0435 \u0434\u0430 \u0441\u0435 \u0434\u043e\u0441\u0442\u0430\u0432\u0438|\u062a\u062d\u0648[\u06cc\u064a]\u0644 \u062f\u0627\u062f\u0647 \u0646\u0634\u062f|\u0642\u0627\u0628\u0644 \u062a\u062d\u0648[\u06cc\u064a]\u0644 \u0646\u0628\u0648\u062f|\u0642\u0627\u0628\u0644 \u062a\u062d\u0648[\u06cc\u064a]\u0644 \u0646[\u06cc\u064a]\u0633\u062a|tidak dapat di(?:hantar|sampaikan)|gagal dihantar|tidak berjaya dihantar|ezin izan da (?:entregatu|bidali)|ez da entregatu|\(in reply to (rcpt to|mail from|end of data|data) command\)|smtp error from remote mail server|remote host said:/i;
// A reply line a mail system quotes, in any language: a basic reply code of failure followed by an
// enhanced status code (RFC 3463 §2), "550 5.1.1", "550-5.1.1", "#550 5.1.1". Believed, like BODY, only
// from a mail system or the null sender.
const QUOTED_REPLY = /(?:^|[\s:;'"(#[：；（【「])[45][0-5]\d[ -][45]\.\d{1,3}\.\d{1,3}(?![\d.]*\d)/m;
// A reply's subject: "Re:" and its kin in the languages of the notices above.
const REPLY_SUBJECT =
  /^\s*(?:re|aw|sv|vs|antw|r|rif|ref|res|odp|odg|atb|vl|wg|ynt|v\u00e1|\u03b1\u03c0|\u03c3\u03c7\u03b5\u03c4|\u56de\u590d|\u7b54\u590d|\u56de\u8986|\u7b54\u8986)\s*[:\uff1a]/i;
// A delay warning says it will go on trying: phrases a notice of failure does not use.
const DELAY_WORDS =
  /has not yet been delivered|noch nicht zugestellt|still in the queue|(continue|keep) to retry|not been delivered yet|hasn't been delivered yet|still being retried|will (continue|keep) (to )?(try|retry|attempt)|will be retried|delivery will continue to be attempted|this is a warning (message )?only|this is only a temporary failure report|delivery (is|has been) delayed|has been delayed|delivery incomplete|temporary problem delivering|will retry for|transient non-fatal errors|awaits moderator approval|is being held until|held for moderation|\u307e\u3060[^\n\u3002]{0,30}?\u914d[\u4fe1\u9001]\u3055\u308c\u3066\u3044\u307e\u305b\u3093|\u5f15\u304d\u7d9a\u304d(?:\u914d[\u4fe1\u9001]\u3092)?(?:\u8a66\u884c(?:\u3057\u307e\u3059|\u4e2d|\u3055\u308c\u307e\u3059)|\u8a66\u307f(?:\u307e\u3059|\u3089\u308c\u307e\u3059))|\u5c06\u7ee7\u7eed\u5c1d\u8bd5|\u5c07\u7e7c\u7e8c\u5617\u8a66|\u6682\u65f6\u65e0\u6cd5\u6295\u9012|\u66ab\u6642\u7121\u6cd5\u6295\u905e|\uacc4\uc18d \uc2dc\ub3c4\ud560 \uc608\uc815|\uacc4\uc18d \uc2dc\ub3c4\ud569\ub2c8\ub2e4|non (?:e'|\u00e8) (?:stato )?ancora (?:stato )?(?:recapitat|consegnat)|continuer(?:\u00e0|a') a tentare|todav\u00eda no ha sido entregad|todav\u00eda no (?:se )?ha podido (?:ser )?entregar|no se ha podido entregar todav\u00eda|seguir\u00e1 intentando|(?<!no )seguiremos intent\u00e1nd|zatia\u013e nebol[ao]? doru\u010den|e\u0161te nebol[ao]? doru\u010den|\u0161e ni bilo (?:mogo\u010de )?dostav|jo\u0161 (?:uvijek )?nije isporu\u010den|jo\u0161 nije dostavljen|dar nepristatyt|\u0458\u043e\u0448 \u043d\u0438\u0458\u0435 \u0438\u0441\u043f\u043e\u0440\u0443\u0447\u0435\u043d|(?:\u0449\u0435|\u0434\u043e\u0441\u0456|\u043f\u043e\u043a\u0438(?: \u0449\u043e)?) \u043d\u0435 (?:\u0431\u0443\u043b\u043e )?\u0434\u043e\u0441\u0442\u0430\u0432\u043b\u0435\u043d|\u043f\u043e\u043a\u0438(?: \u0449\u043e)? \u043d\u0435 \u0432\u0434\u0430\u043b\u043e\u0441\u044f|\u0441\u043f\u0440\u043e\u0431\u0438 \u0434\u043e\u0441\u0442\u0430\u0432\u043a\u0438 \u0442\u0440\u0438\u0432\u0430\u0442\u0438\u043c\u0443\u0442\u044c|\u043f\u043e\u0432\u0442\u043e\u0440\u044e\u0432\u0430\u0442\u0438\u043c\u0435 \u0441\u043f\u0440\u043e\u0431\u0438|v\u0113l nav (?:ticis |tikusi )?pieg\u0101d\u0101t|pagaid\u0101m (?:neizdev\u0101s|nevar\u0113ja)|m\u0113\u0123in\u0101jumi turpin\u0101sies|m\u0113\u0123in\u0101sim v\u0113lreiz|ende nuk (?:[e\u00eb]sht[e\u00eb] |u )?dor[e\u00eb]zu|nuk [e\u00eb]sht[e\u00eb] dor[e\u00eb]zuar ende|\u0905\u092d\u0940 \u0924\u0915 [^\n\u0964]{0,60}(?:\u0935\u093f\u0924\u0930\u093f\u0924|\u0921\u093f\u0932\u0940\u0935\u0930) \u0928\u0939\u0940\u0902|\u0905\u092d\u0940 \u0924\u0915 [^\n\u0964]{0,40}\u0928\u0939\u0940\u0902 \u092a\u0939\u0941[\u0902\u0901]\u091a|\u0915\u0947\u0935\u0932 \u090f\u0915 \u091a\u0947\u0924\u093e\u0935\u0928\u0940 \u0939\u0948|\u092a\u094d\u0930\u092f\u093e\u0938 \u091c\u093e\u0930\u0940 \u0930\u0916|hindi pa (?:naihahatid|naihatid|naipapadala|naipadala)|bado haija(?:wasilishwa|fikishwa)|(?<!ha)tutaendelea kujaribu|a[i\u00ed]nda non (?:se )?(?:foi |puido |pode )?entreg|heb (?:ei|gael ei) (?:d|dd)anfon eto|(?<!ni fyddwn )yn dal i geisio|(?<!ni )byddwn yn parhau i geisio|nog nie [^.\n]{0,60}afgelewer (?:word |is )?nie|slegs ['\u2019]n waarskuwing|(?:hefur|hafa) ekki enn veri\u00f0 afhent|enn ekki veri\u00f0 afhent|(?:\u0441\u00e8|\u0441\u0435|\u0441\u0450) \u0443\u0448\u0442\u0435 \u043d\u0435 (?:\u0435 |\u0431\u0438\u043b\u0430 |\u0431\u0435\u0448\u0435 )?\u0434\u043e\u0441\u0442\u0430\u0432\u0435\u043d|\u0647\u0646\u0648\u0632 [^.\n]{0,40}\u062a\u062d\u0648[\u06cc\u064a]\u0644 (?:\u062f\u0627\u062f\u0647 )?\u0646\u0634\u062f\u0647|\u0641\u0642\u0637 [\u06cc\u064a][\u06a9\u0643] \u0647\u0634\u062f\u0627\u0631|belum dihantar|masih tidak dapat dihantar|(?<!tidak )akan (?:terus )?(?:cuba|mencuba)|oraindik ez da (?:entregatu|bidali)|versucht die zustellung weiterhin|effectuera de nouvelles tentatives|ainda n\u00e3o foi entregue|continuar\u00e1 tentando|n'a pas encore (?:pu )?\u00eatre (?:remis|distribu)|n'a pas encore \u00e9t\u00e9 (?:remis|distribu)|continuera (?:\u00e0|d')essayer|nog niet (?:bezorgd|afgeleverd)|jeszcze nie (?:zosta\u0142a )?dostarczon|(?:\u0435\u0449\u0451|\u0435\u0449\u0435|\u043f\u043e\u043a\u0430) \u043d\u0435 \u0434\u043e\u0441\u0442\u0430\u0432\u043b\u0435\u043d|\u043f\u043e\u043f\u044b\u0442\u043a\u0438 \u0434\u043e\u0441\u0442\u0430\u0432\u043a\u0438 \u0431\u0443\u0434\u0443\u0442 \u043f\u0440\u043e\u0434\u043e\u043b\u0436\u0435\u043d\u044b|bisher nicht zugestellt|(?<!kein(?:e|en)?\s+)weitere zustellversuche (?:werden )?(?:bis [^.\n]{1,40} )?unternommen/i;
// A no-reply mailbox's standing answer: not a mail system's notice, whatever else it says.
const UNMONITORED =
  /(?:mailbox|(?:e-?mail )?address|inbox) (?:is|are) (?:not|no longer) (?:monitored|read|attended)|(?:an )?unmonitored (?:mailbox|(?:e-?mail )?address|inbox)/i;
// A challenge-response system asking the sender to prove itself (TMDA, Spam Arrest, Mailinblack): it
// borrows a notice's words ("created automatically by mail delivery software", "is being held") but
// the message is waiting, not refused; an automatic reply, or kept as undetermined.
const CHALLENGE =
  /confirm (?:your|that you sent (?:the|this|your)) (?:message|e-?mail|address|identity)|please confirm (?:your|that)|(?:address|sender) (?:has not|hasn'?t) (?:yet )?been (?:verified|confirmed)|challenge.?response|verify that you are (?:a )?(?:human|real person|person)|to release your message|accepts (?:e-?mail|mail|messages) only from (?:known|approved|authori[sz]ed|trusted|verified) senders|(?:ask|request) to be added to (?:the recipient's|their|his|her) (?:address book|approved senders|allow ?list|white ?list)|sender verification request|vous authentifier|authentifiez-vous|(?:confirmer|valider) (?:votre|l'envoi de votre) (?:message|adresse|envoi|identit\u00e9)|best\u00e4tigen sie (?:ihre|bitte)|confirme (?:su|que usted)|confermare (?:il|la tua)/i;
// Where the copy of the original message begins in the various MTAs' notices: the line holding one of
// these. (Found as words, then the line's start looked up: a `^.*(…).*$` pattern would scan each long
// line once per position in it.)
// In other languages, the separator lines of German, French, Spanish, Italian and Dutch notices; and,
// whatever the language, the original's own first header lines (a Return-Path or a Received), which
// no notice's text starts a line with.
const ORIGINAL =
  /this is a copy of the message|below this line is a copy of the message|original message (headers )?follow|original message headers|----- original message -----|message headers follow|the headers of the returned message|^original-recipient|returned message follows|--- the original message was received|unsent message follows|header of the original message|rejected message \(|^-+ ?forwarded message ?-+|(?:kopfzeilen|header) der (?:original)?nachricht|--[ \t]*(?:originalnachricht|urspr\u00fcngliche nachricht|message d'origine|message original|mensaje original|messaggio originale|oorspronkelijk bericht)|en-t\u00eates du message (?:d'origine|original)|^-{3,} ?original message ?-{3,}|^on [^\n]{1,200} wrote:[ \t]*$|^le [^\n]{1,200} a \u00e9crit ?:[ \t]*$|^am [^\n]{1,200} schrieb [^\n]{0,100}:[ \t]*$|^el [^\n]{1,200} escribi\u00f3:[ \t]*$|encabezados del mensaje original|intestazioni del messaggio originale|^return-path:[ \t]*<|^received:[ \t]+(?:from|by)[ \t]/im;
// What `.` does not match and `^` follows in a multiline pattern (ECMA-262 LineTerminator).
const LINE_BREAK = /^[\n\r\u2028\u2029]$/;

/**
 * Whether a mail system, a list manager or a bounce handler sent the message (its From or its envelope
 * sender), or the null sender: who passes notices on, as against a person.
 */
export function sentByMailSystem(header: HeaderLookup, envelopeSender: string): boolean {
  return (
    envelopeSender === '' ||
    SENDER.test(header('from') ?? '') ||
    fromListManager(header, envelopeSender) ||
    SENDER.test(envelopeSender) ||
    BOUNCE_SENDER.test(envelopeSender)
  );
}

/** A list manager's notice by its administrative address and the list's headers (LIST_ADMIN). */
function fromListManager(header: HeaderLookup, envelopeSender: string): boolean {
  if (!LIST_HEADERS.some((name) => header(name) !== undefined)) return false;
  const value = header('from') ?? '';
  const from = angleAddress(value) ?? value.trim();
  return LIST_ADMIN.test(from) || LIST_ADMIN.test(envelopeSender);
}

/**
 * Recognises a plain-text bounce; undefined when the message does not look like one. Reads at most the
 * first MAX_TEXT characters of `text`, and lines of at most 998 (header values come cut to size).
 */
export function parsePlainBounce(
  header: HeaderLookup,
  subject: string,
  fullText: string,
  envelopeSender: string,
): PlainBounce | undefined {
  const text = cap(fullText, MAX_TEXT);
  const failedHeader = header('x-failed-recipients');
  const fromSystem = SENDER.test(header('from') ?? '') || fromListManager(header, envelopeSender);
  // A relay passing a bounce on often sends it from a return path of its own ("bounce-notify@…").
  const fromMailer =
    envelopeSender === '' || fromSystem || SENDER.test(envelopeSender) || BOUNCE_SENDER.test(envelopeSender);
  // A person's automatic reply comes from the null sender too (RFC 3834 §3.3), and may say of itself
  // that the message "could not be delivered" to someone who has left: its words are a notice's only
  // when a mail system wrote it. A notice's own subject ("Undeliverable:") and a quoted SMTP reply with
  // its enhanced code are still believed, unless a responder's own marks say otherwise (below): a
  // person's out-of-office may quote a refusal it met elsewhere.
  const automatic = answersAutomatically(header, subject);
  // A reply ("Re: …") marked bulk or junk, as vacation(1) and many responders mark theirs, from someone
  // who is no mail system: a person's responder ("Jane no longer works here, so your message could not
  // be delivered to her"), though it carries no mark of RFC 3834's own.
  const precedence = header('precedence')?.trim().toLowerCase();
  const bulkReply =
    !fromSystem && (precedence === 'bulk' || precedence === 'junk') && REPLY_SUBJECT.test(subject);
  const wordsBelieved = fromSystem || (envelopeSender === '' && !automatic && !bulkReply);
  // A notice's subject, likewise, but not from a null-sender responder: it may repeat the subject of
  // the message it answers, and a shop's "配送エラー" (a parcel's delivery error) is a notice's words too.
  const subjectBelieved = fromMailer && (fromSystem || envelopeSender !== '' || !automatic);
  // A mail system's own header saying it returns the message: Exim's X-Failed-Recipients, and the
  // mark Exchange and Office 365 put on their non-delivery reports.
  const markedNotice = failedHeader !== undefined || header('x-ms-exchange-message-is-ndr') !== undefined;
  const human = humanPart(text);
  const quotesReply = QUOTED_REPLY.test(human);
  const looksLike =
    markedNotice ||
    // A notice's own sentences, from a mail system or the null sender (a bounce's reverse-path, RFC
    // 5321 §4.5.5): from anyone else (a help desk acknowledging a ticket) they are quoted words.
    (fromMailer && (NOTICE_WORDS.test(human) || quotesReply)) ||
    (subjectBelieved && (FAILED_SUBJECT.test(subject) || DELAYED_SUBJECT.test(subject))) ||
    (wordsBelieved &&
      (BODY.test(subject) || BODY.test(human) || DELAY_WORDS.test(subject) || DELAY_WORDS.test(human)));
  if (!looksLike) return undefined;
  // What only sounds like a notice, unless a mail system's own header says it returns the message:
  // - a responder's own marks (RFC 3834's auto_reply precedence, X-Autoreply, X-Autorespond): an
  //   automatic answer, which may repeat our subject or quote our text ("your parcel couldn't be
  //   delivered to"); and a mailing's one-click unsubscription;
  // - a no-reply mailbox that answers everything with "this mailbox is not monitored", whatever it says
  //   of delivery ("could not be delivered to a person"), when no mail system sent it;
  // - a challenge asking the sender to prove itself.
  // The last two only while they quote no server's refusal: a notice may end with either's words.
  if (!markedNotice) {
    const responder =
      header('x-autoreply') !== undefined ||
      header('x-autorespond') !== undefined ||
      precedence === 'auto_reply' ||
      // A responder's subject ("Automatic reply:", "Out of office") from no mail system: a person's
      // out-of-office may quote a refusal about another address of theirs ("mail to my old address is
      // returned as undeliverable (550 5.1.1 user unknown)"), which is no notice about ours.
      (!fromSystem && responderMark(header, subject) !== undefined);
    // Bulk mail with one-click unsubscription (RFC 8058) from no mail system or list manager: a
    // mailing, which may quote a bounce's words ("552 5.2.2 Mailbox full"). A list host may put the
    // header on its own refusals too.
    const mailing = !fromSystem && header('list-unsubscribe-post') !== undefined;
    const unmonitored = !fromSystem && UNMONITORED.test(human);
    const challenge = CHALLENGE.test(subject) || CHALLENGE.test(human);
    if (responder || mailing || (!quotesReply && (unmonitored || challenge))) return undefined;
  }

  const recipients = new Set<string>();
  for (const a of (failedHeader ?? '').split(',')) {
    const address = firstAddress(a);
    if (address) recipients.add(address.toLowerCase());
  }
  const lines = cappedLines(human);
  const named = noticeRecipients(lines);
  for (const r of named.recipients) recipients.add(r);
  const diagnostic = noticeDiagnostic(lines, named.remainder);
  const diagnostics = new Map<string, string>();
  const stages = entryStages(named.entries);
  // A notice about one recipient: its transcript may stand apart from the recipient's lines (Sendmail's
  // "----- Transcript of session follows -----").
  const stage = recipients.size <= 1 && stages.size === 0 ? stageOf(human) : undefined;
  if (named.entries.length > 1) {
    for (const entry of named.entries) {
      const own = entryDiagnostic(entry.lines);
      if (own !== undefined && own !== diagnostic) diagnostics.set(entry.address, own);
    }
  }
  return {
    hint: delayed(subject, human) ? 'delayed' : 'failed',
    recipients: [...recipients],
    diagnostic,
    diagnostics,
    stages,
    stage,
    text: human,
  };
}

// A permanent reply quoted with its enhanced code ("550 5.1.1"): a notice that quotes one reports a
// failure, whatever its words say of retries ("il n'y aura pas de nouvelles tentatives").
const PERMANENT_REPLY = /(?:^|[\s:;'"(#[：；（【「])5[0-5]\d[ -]5\.\d{1,3}\.\d{1,3}(?![\d.]*\d)/m;

// A notice that says the message left the queue, or that no attempt will follow: delivery has stopped,
// whatever "not yet delivered" it also says.
const GAVE_UP =
  /removed from the (?:mail )?queue|no (?:further|more) (?:delivery )?attempts will be made|will not be (?:retried|attempted again)|aus der warteschlange (?:entfernt|gel\u00f6scht)|\u0432\u0438\u0434\u0430\u043b\u0435\u043d\u043e \u0437 \u0447\u0435\u0440\u0433\u0438|\u0431\u0456\u043b\u044c\u0448\u0435 \u0441\u043f\u0440\u043e\u0431 \u043d\u0435 \u0431\u0443\u0434\u0435|\u0438\u0437\u0431\u0440\u0438\u0448\u0430\u043d[\u0430\u043e]? \u043e\u0434 \u0440\u0435\u0434\u043e\u0442|\u043d\u0435\u043c\u0430 \u0434\u0430 \u0438\u043c\u0430 \u043d\u043e\u0432\u0438 \u043e\u0431\u0438\u0434\u0438|\u0627\u0632 \u0635\u0641 \u062d\u0630\u0641 \u0634\u062f|dikeluarkan dari baris gilir/i;

/** Whether the notice is a delay warning: its Subject says so first, else its text. */
function delayed(subject: string, human: string): boolean {
  if (DELAYED_SUBJECT.test(subject)) return true;
  if (FAILED_SUBJECT.test(subject)) return false;
  return DELAY_WORDS.test(human) && !PERMANENT_REPLY.test(human) && !GAVE_UP.test(human);
}

/** The notice's own text: up to the line where a copy of the original begins. */
export function humanPart(text: string): string {
  const cut = ORIGINAL.exec(text);
  return cut ? text.slice(0, lineStart(text, cut.index)) : text;
}

/** Where the line holding `index` starts. */
function lineStart(text: string, index: number): number {
  let start = index;
  while (start > 0 && !LINE_BREAK.test(text[start - 1]!)) start--;
  return start;
}
