/**
 * Spanish opt-out phrasings (Spain and Latin America), matched on normalised clauses
 * (lower case, no accents: "deje de llamarme", "no me llame mas"). "Marcar" is the
 * Mexican "to call"; the Lista Robinson and REPEP are the national do-not-call registers.
 */
import type { PhraseSet } from './opt-out-detector.ts';

/** To call / contact / bother, in any person; "yam" is a common ASR spelling of "llam". */
const CALL = '(?:llam|yam|marc|marq|telefone|contact|molest)\\w*';
const PRONOUN = '(?:me |nos |le |les |te )';

export const spanish: PhraseSet = {
  patterns: [
    { re: new RegExp(`\\b(?:deje|dejen|deja|dejad|dejes|pare|paren|parad)(?: ya| usted| ustedes| por favor)? de ${CALL}`) },
    { re: new RegExp(`\\bno ${PRONOUN}?vuelv\\w* a ${CALL}`) },
    { re: new RegExp(`\\bno ${PRONOUN}?(?:sigan|siga|esten|este) ${CALL}`) },
    {
      re: new RegExp(
        `\\bno ${PRONOUN}?${CALL}(?: (?:a este (?:numero|telefono)|aqui|por favor|nunca))? (?:mas|nunca mas|jamas)\\b(?! tarde)`,
      ),
    },
    { re: new RegExp(`\\bya no ${PRONOUN}?(?:vuelv\\w* a |esten |este |sigan |siga |anden |ande )?${CALL}`) },
    { re: new RegExp(`\\b(?:nunca|jamas)(?: mas)? ${PRONOUN}?(?:vuelv\\w* a )?${CALL}`) },
    { re: new RegExp(`\\bno (?:quiero|queremos|deseo|deseamos) que ${PRONOUN}?(?:vuelv\\w* a |sigan |sigas )?${CALL}`) },
    { re: /\bno (?:quiero|queremos|deseo|deseamos) (?:recibir |tener )?(?:(?:mas|ninguna|otra|estas|sus) )*llamadas\b/ },
    { re: new RegExp(`\\bbasta(?: ya)? de (?:llamadas|${CALL})`) },
    // take me off the list / delete my number / unsubscribe me from these calls
    {
      re: /\b(?:borr|quit|sac|saq|elimin|retir|apart)\w*(?:me|nos)\b(?: \w+){0,2}? (?:de|del) (?:su |la |sus |esta |vuestra |esa |tu )?(?:lista|listas|listado|base de datos|registro|fichero|sistema|agenda)\b/,
    },
    { re: /\b(?:me|nos) (?:borr|quit|sac|saq|elimin|retir)\w* (?:de|del) (?:su |la |sus |esta |vuestra |esa |tu )?(?:lista|listas|listado|base de datos|registro|fichero|sistema|agenda)\b/ },
    { re: /\b(?:borr|elimin|quit|sac|saq|retir)\w* (?:mi|mis|nuestro|nuestros|este) (?:numero|telefono|datos|nombre)\b/ },
    { re: /\bde baja de (?:estas |las |sus |todas las |la |su )?(?:llamadas|lista|listas)\b/ },
    { re: /\b(?:pierd|olvid)\w* (?:mi|este|nuestro) (?:numero|telefono)\b/ },
    {
      re: /\b(?:estoy|estamos|esta|apunt\w*|inscrit\w*|registrad\w*|pong\w*|anot\w*|agreg\w*|inclu\w*|meta\w*|met\w*)(?: \w+){0,4}? (?:lista robinson|repep|(?:lista|registro) de no (?:llamar|llamadas|molestar))\b/,
      rejectInside: /\bno (?:estoy|estamos|esta)\b/,
    },
  ],
  negatedBefore:
    /\b(?:no|nunca|tampoco)(?: (?:le|les|te|me|lo|la|estoy|estamos|pidiendo|diciendo|digo|pido|quiero|queremos|que|se|he))*\s*$/,
  limitedAfter:
    /^(?:antes|despues|hasta|durante|por la (?:manana|tarde|noche)|a partir|entre|hoy|manana|esta semana|en horario)\b/,
  allowedTail: /^/,
  optOutQuestion:
    /\b(?:dejemos de llamar\w*|dejar de (?:llamar\w*|recibir)|no (?:le|la|lo|te|les) (?:volvamos|vuelva\w*) a llamar|(?:le|la|lo|te|les) (?:quitemos|saquemos|eliminemos|borremos|demos de baja|retiremos)|(?:quite|saque|elimine|borre|retire)\w* de (?:nuestra|la) lista|darle de baja)\b/,
  affirmative:
    /^(?:si|claro|por supuesto|eso es|exacto|exactamente|correcto|por favor|dale|vale|de acuerdo|efectivamente|asi es|sip|aja)\b/,
  reversal: /^(?:no|espere|mejor no|sigan|siga)\b/,
  callBackQuestion: /\b(?:volver a llamar|vuelva a llamar|llamarle|le llamo|llamemos|le viene bien que le llamemos)\b/,
  neverAnswer: /^(?:no )?(?:nunca|jamas)\b/,
};
