/**
 * French opt-out phrasings, matched on normalised clauses: no accents, and elided
 * pronouns split off ("m'appeler" -> "m appeler"; ASR often drops the apostrophe, so
 * "mappeler" / "mapeler" are accepted too). Bloctel is the national do-not-call register.
 */
import type { PhraseSet } from './opt-out-detector.ts';

const CALL = '(?:app?el\\w*|rapp?el\\w*|contact\\w*|derang\\w*|harcel\\w*|telephon\\w*|demarch\\w*|sollicit\\w*)';
const PRONOUN = '(?:m ?|me |nous |l |la |le )';

export const french: PhraseSet = {
  patterns: [
    { re: new RegExp(`\\b(?:arret\\w*|cess\\w*|stopp\\w*)(?: donc| tout de suite| maintenant| svp)? (?:de |d )?${PRONOUN}?${CALL}`) },
    { re: /\b(?:arret\w*|cess\w*|stop|assez|marre)(?: \w+)? (?:vos|les|ces|tous ces|de|d|des|aux|a vos|avec vos|avec les|avec ces) appels\b/ },
    {
      re: new RegExp(
        `\\b(?:ne |n )?${PRONOUN}?(?:app?el|rapp?el|contact|derang|telephon)\\w* (?:plus|jamais)\\b(?! tard| tot| souvent| vite)`,
      ),
      strictTail: true,
    },
    { re: /\bne (?:veux|voulons|souhaite|souhaitons|desire|desirons)? ?plus (?:jamais )?(?:etre )?(?:app?ele|rapp?ele|contacte|derange|demarche|sollicite)/ },
    { re: new RegExp(`\\bne plus (?:jamais )?(?:etre )?(?:me |nous |m ?)?${CALL}`) },
    {
      re: /\bne (?:veux|voulons|souhaite|souhaitons|desire) (?:plus|pas|aucun)(?: \w+){0,3}? (?:appels|etre (?:rapp?ele|app?ele|contacte))\b/,
    },
    { re: /\b(?:plus|assez) (?:d|de) appels\b/ },
    // spoken French drops the "ne": "je veux plus que vous m'appeliez"
    { re: new RegExp(`\\b(?:ne |n )?(?:veux|voulons|souhaite|souhaitons) (?:plus|pas) (?:que vous |qu on |que tu |etre )?${PRONOUN}?(?:app?el|rapp?el|contact|derang|telephon)\\w*`) },
    { re: new RegExp(`\\bderniere fois que (?:vous|tu|on) ${PRONOUN}?(?:app?el|rapp?el|contact|derang|telephon)\\w*`) },
    { re: /\bliste (?:d |de )?(?:opposition|bloctel|exclusion)\b/ },
    // take me off your list / delete my number / forget my number
    {
      re: /\b(?:retir|enlev|ray|supprim|eff?ac|sort|ot|radi)\w* (?:moi|nous|mon numero|mon nom|mes coordonnees|ce numero|mes donnees)(?: \w+){0,2}? (?:de|du|des|d) (?:votre |la |vos |ce |cette |le |vot |tous |de )?(?:liste|listes|fichier|fichiers|base|repertoire|annuaire)\b/,
    },
    { re: /\b(?:supprim|eff?ac|oubli|jet)\w* (?:mon|mes|ce|notre) (?:numero|coordonnees|donnees|nom)\b/ },
    { re: /\bdesinscri\w*(?: moi| nous)?\b(?! moi| nous)(?! (?:de|du|des) (?:la |les )?(?:newsletter|mails?|emails?|courriels?|sms))/ },
    { re: /\b(?:inscrit\w*|suis|sommes|est|sur|a|au|enregistre\w*)(?: \w+){0,2}? bloctel\b/, rejectInside: /\b(?:pas|jamais|plus)\b/ },
    { re: /\bliste(?: \w+){0,4}? (?:a )?ne (?:pas|plus) (?:app?eler|contacter|demarcher)\b/ },
  ],
  negatedBefore:
    /\b(?:ne|n)(?: (?:vous|te|lui|leur|pas|demande|dis|dit|demandons|veux|voulais|je|jamais|suis|sommes|est|etes))*(?: pas)?(?: d| de)?\s*$/,
  limitedAfter:
    /^(?:avant|apres|jusqu|pendant|entre|le (?:matin|soir|week end)|ce soir|aujourd hui|demain|cette semaine|au travail)\b/,
  // "Ne m'appelez plus madame Dupont" is about the name, not the calls.
  allowedTail: /^(?!(?:madame|monsieur|mademoiselle|mme|mlle|docteur|comme ca|ainsi|par)\b)/,
  optOutQuestion:
    /\b(?:(?:cession|arretion|arrete|cesse)\w* de vous (?:app|rapp|contact)\w*|vous retir\w* de|retir\w* de (?:notre|la|nos) liste|ne (?:souhaitez|voulez) plus etre|ne plus (?:vous|etre) (?:app|rapp|contact)\w*)/,
  affirmative:
    /^(?:oui|ouais|volontiers|c est ca|exactement|tout a fait|absolument|d accord|s il vous plait|avec plaisir|bien sur|effectivement|voila)\b/,
  reversal: /^(?:non|attendez|en fait|gardez)\b/,
  callBackQuestion: /\b(?:rapp?el\w*|quand (?:puis je|peut on) vous (?:app|joindre))\b/,
  neverAnswer: /^(?:non )?(?:plus jamais|jamais)\b/,
};
