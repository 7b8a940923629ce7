/**
 * German opt-out phrasings, matched on normalised text (no umlauts: "horen", "loschen").
 * German puts the infinitive after a comma ("Hören Sie auf, mich anzurufen"), so these
 * mostly match on the whole turn, which the detector also tries.
 */
import type { PhraseSet } from './opt-out-detector.ts';

export const german: PhraseSet = {
  patterns: [
    {
      re: /\bhor\w* (?:sie |du |ihr )?(?:(?:bitte|endlich|jetzt|doch) )*auf (?:mich |uns )?(?:(?:hier|standig|dauernd|immer) )*(?:anzurufen|zu kontaktieren|zu belastigen|mit (?:den|ihren|diesen|euren) anrufen)\b/,
    },
    { re: /\b(?:rufen sie|ruf|ruft)(?: \w+){0,3}? (?:nie wieder|nie mehr|nicht mehr|niemals|nimmermehr) an\b/ },
    {
      re: /\b(?:streich|losch|nehm|entfern|trag)\w* (?:sie )?(?:mich|uns|meine nummer|meine daten|meine telefonnummer)(?: bitte)? (?:aus|von) (?:ihrer|der|ihrem|eurer|dieser|ihren) (?:liste|kartei|datenbank|verteiler|anrufliste|telefonliste)\b/,
    },
    { re: /\blosch\w* (?:sie )?(?:bitte )?(?:meine|unsere) (?:nummer|daten|telefonnummer)\b/ },
    { re: /\b(?:keine|keinerlei) (?:weiteren |weitere )?(?:anrufe|werbeanrufe)(?: mehr)?\b/ },
    { re: /\bunterlass\w* (?:sie )?(?:bitte )?(?:weitere |jegliche |diese |ihre |die )?anrufe\b/ },
    { re: /\b(?:nicht mehr|nie wieder|nie mehr) (?:angerufen|kontaktiert) (?:werden|wird)\b/ },
  ],
  negatedBefore: /\b(?:nicht|kein|keine)\s*$/,
  limitedAfter: /^(?:vor|nach|bis|wahrend|zwischen|heute|morgen|abends|morgens)\b/,
  allowedTail: /^/,
  optOutQuestion:
    /\b(?:nicht mehr an(?:rufen|zurufen)|(?:aus|von) (?:unserer|der) liste (?:streichen|nehmen|entfernen)|keine anrufe mehr)\b/,
  affirmative: /^(?:ja|genau|gerne|bitte|richtig|jawohl|klar|na klar|auf jeden fall)\b/,
  reversal: /^(?:nein|moment|doch nicht)\b/,
  callBackQuestion: /\b(?:zuruckrufen|wieder anrufen|melde mich)\b/,
  neverAnswer: /^(?:nein )?(?:nie|niemals|nie wieder)\b/,
};
