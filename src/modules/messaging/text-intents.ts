import { detectOptOut } from '../compliance/opt-out/opt-out-detector.ts';

/**
 * What an inbound text asks for, read offline and deterministically (an LLM could refine it; it
 * is not needed for these): the carriers' opt-out and opt-in keywords as the whole message, a
 * request to be called (back), interest, else nothing in particular (a question, a remark).
 *
 * Keywords follow the carriers' and Twilio's lists (Twilio Advanced Opt-Out: STOP, STOPALL,
 * UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT; START, UNSTOP, YES; HELP, INFO) and their
 * usual equivalents in French, Spanish, German, Italian and Portuguese. A keyword counts only as
 * the whole message ("stop" opts out; "don't stop" does not), trimmed, any case, accents and
 * trailing punctuation ignored.
 */
export type TextIntent =
  | { kind: 'opt_out' }
  | { kind: 'opt_in' }
  /** START's "YES": an opt-in only after a STOP by text, else interest (decided with the suppression at hand). */
  | { kind: 'yes' }
  | { kind: 'help' }
  | { kind: 'call_me'; when: 'now' | 'tomorrow' }
  | { kind: 'interested' }
  | { kind: 'other' };

const OPT_OUT = new Set([
  'stop', 'stopall', 'stop all', 'unsubscribe', 'cancel', 'end', 'quit', 'revoke', 'optout', 'opt out', 'opt-out',
  // French
  'arret', 'arreter', 'desabonner', 'desinscrire', 'desabonnement', 'desinscription',
  // Spanish
  'baja', 'alto', 'parar', 'cancelar', 'detener', 'darme de baja', 'darse de baja',
  // German
  'stopp', 'abmelden', 'abbestellen', 'austragen', 'ende',
  // Italian
  'annulla', 'cancella', 'disiscrivi', 'disiscrivimi', 'basta',
  // Portuguese
  'sair', 'cancelar inscricao', 'descadastrar', 'pare',
]);
const OPT_IN = new Set(['start', 'unstop', 'restart', 'subscribe', 'demarrer', 'alta', 'iniciar', 'inizia', 'comecar']);
const YES = new Set(['yes', 'y', 'ok', 'okay', 'sure', 'oui', 'si', 'ja', 'sim', 'claro', 'd\'accord', 'daccord', 'va bene', 'certo']);
const HELP = new Set(['help', 'info', 'aide', 'ayuda', 'hilfe', 'aiuto', 'ajuda']);

/** "call me", "call me back", "please ring me", "llámame", "rappelez-moi", "ruf mich an", "chiamami", "me ligue"… */
const CALL_ME = /\b(?:call|ring|phone) (?:me|us)\b|\bcall (?:me )?back\b|\bgive me a call\b|\bllam(?:a|e|en)me\b|\bllamad?me\b|\bme (?:puede|puedes|pueden) llamar\b|\b(?:r?appel(?:ez|le|er)|telephon(?:ez|e))[- ]moi\b|\bme (?:r?appeler|rappeler)\b|\bruf(?:en sie)? mich\b|\brufen sie mich\b|\b(?:ri)?chiamami\b|\bmi (?:puo|puoi) (?:ri)?chiamare\b|\bme lig(?:ue|a)\b|\blig(?:ue|a)[- ]me\b|\bme telefone\b/;
const TOMORROW = /\b(?:tomorrow|manana|demain|morgen|domani|amanha)\b/;
const INTERESTED = /\b(?:interested|interest(?:ing)?|tell me more|sounds good|i(?:'| a)m in|sign me up|let'?s do it|interesad[oa]|me interesa|interesse|interessiert|interessato|interessata|interessad[oa]|ca m'interesse|mi interessa)\b/;
/** Asking in words not to be texted: said at the start, so "don't stop texting me" is not one. */
const NO_MORE_TEXTS = /^(?:please )?(?:stop|quit) (?:texting|messaging|sending (?:me )?(?:texts|messages))\b|^(?:please )?(?:don'?t|do not|never) (?:text|message) me\b|^(?:please )?remove me from (?:your|the|this) list\b/;
const NOT_INTERESTED = /\b(?:not|no|nicht|pas|non|nao) (?:really )?interest/;

/** Lower case, accents and trailing punctuation gone, spaces collapsed. */
export function normaliseText(body: string): string {
  return body.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[’`]/g, '\'').replace(/\s+/g, ' ').trim().replace(/^[\s.!¡¿?,;:]+|[\s.!?,;:]+$/g, '');
}

export function textIntent(body: string, optOutType?: 'STOP' | 'START' | 'HELP' | null): TextIntent {
  // The vendor's own reading of its keywords comes first (Twilio's Advanced Opt-Out may have custom ones).
  if (optOutType === 'STOP') return { kind: 'opt_out' };
  if (optOutType === 'START') return { kind: 'opt_in' };
  if (optOutType === 'HELP') return { kind: 'help' };
  const text = normaliseText(body);
  if (OPT_OUT.has(text)) return { kind: 'opt_out' };
  if (OPT_IN.has(text)) return { kind: 'opt_in' };
  if (YES.has(text)) return { kind: 'yes' };
  if (HELP.has(text)) return { kind: 'help' };
  // "Please stop calling me", "ne m'appelez plus": the calls' own opt-out phrasings (negations and time limits understood).
  if (NO_MORE_TEXTS.test(text) || detectOptOut([{ role: 'user', text: body }]).optOut) return { kind: 'opt_out' };
  if (CALL_ME.test(text)) return { kind: 'call_me', when: TOMORROW.test(text) ? 'tomorrow' : 'now' };
  if (INTERESTED.test(text) && !NOT_INTERESTED.test(text)) return { kind: 'interested' };
  return { kind: 'other' };
}
