/**
 * English opt-out phrasings, matched on normalised clauses (lower case, no punctuation,
 * contractions joined: "dont", "im", "youre"). Each pattern names the request, not a
 * keyword: "stop" or "remove" alone are far more often about something else on a call.
 */
import type { PhraseSet } from './opt-out-detector.ts';

/** Who or what is not to be called: "me", "this number", "my cell". */
const OBJECT =
  '(?:me|us|him|her|it|this (?:number|phone|line|house|household|cell)|my (?:number|phone|cell|cell phone|cellphone|line|house|landline|mobile))\\b';
const CALLING = '(?:calling|ringing|phoning|contacting|dialing|dialling|calls|robocalls|robo calls|phone calls)\\b';
const CALL = '(?:call|ring|phone|contact|dial|calling|ringing|phoning|contacting)\\b';
const AGAIN = '(?:again|anymore|any more|no more|ever again|ever|back|at all|here)';
const DNC = '(?:do not call|dont call|donot call|do not contact|dnc|no call|no calls|do not ring)';
const LIST_OWNER = '(?:your|the|ur|youre|this|that|whatever|any|all|our|yalls|ya|their)';
const LIST = '(?:list|lists|database|system|records|roster|register|registry|files|rolodex)';
const LIST_OBJECT =
  '(?:me|us|him|her|(?:my|our|this|his|her) (?:\\w+ )?(?:name|number|info|information|details|data|business|company|household|line|phone|contact))';

export const english: PhraseSet = {
  patterns: [
    // stop / quit / cease calling (me), enough with the calls
    {
      re: new RegExp(
        `\\b(?:stop|quit|cease|discontinue|refrain from)(?: it)?(?: with)?(?: the| these| your| all(?: the| these| your)?)? ${CALLING}(?: ${OBJECT})?`,
      ),
      strictTail: true,
    },
    { re: new RegExp(`\\benough (?:with |of )?(?:the |these |your |all (?:the |these )?)?${CALLING}\\b`) },
    { re: /\bstop (?:harassing|pestering) (?:me|us)\b/ },
    { re: /\bstop (?:call|calls) (?:me|us)\b/ },
    { re: /\b(?:need|want) (?:these|the|your|all these|all the) (?:phone )?calls to (?:end|stop)\b/ },
    { re: /\b(?:put a stop to|put an end to|end|make) (?:these|the|your|all (?:these|the|your)) (?:phone )?calls(?: stop)?\b/ },
    { re: /\blast time (?:you|yall|you guys|you people) (?:call|ring|contact|phone)\b/ },
    { re: /\bdont (?:want|wanna) (?:to )?hear from (?:you|your company|yall)(?: people| guys)? (?:again|anymore|any more|ever again)\b/ },
    { re: /\bleave (?:this|my|our) (?:number|phone|line) alone\b/ },
    { re: /\b(?:asking|telling|begging) you not to (?:call|contact|ring|phone)\b/ },
    { re: /\bno (?:further|more) (?:contact|calls)\b/ },
    { re: /^no (?:phone )?calls(?: (?:ever|at all|please|period))*$/ },
    { re: /\bstop (?:bothering|hassling) (?:me|us) with (?:the |these |your |all (?:the |these |your )?)?(?:phone )?calls\b/ },
    // don't (ever) call me (again), never call here again, don't bother calling back
    {
      re: new RegExp(`\\b(?:dont|do not|never)(?: you)?(?: ever)?(?: (?:need to|have to|got to|gotta))?(?: be)? ${CALL}(?: ${OBJECT})?(?: ${AGAIN})*`),
      strictTail: true,
    },
    { re: new RegExp(`\\bdont bother (?:calling|ringing|to call)(?: ${OBJECT})?(?: ${AGAIN})*`), strictTail: true },
    { re: new RegExp(`\\b(?:not|didnt|did not|wouldnt|would not) (?:${CALL}|be calling) (?:${OBJECT} )?(?:again|anymore|any more|ever again)\\b`) },
    { re: /\bcall (?:me|us|here|back) never\b/ },
    { re: /\b(?:number|line|phone) is not to be (?:called|contacted|dialed|dialled)\b/ },
    // take me off your list, remove my number from your database, get off this list
    {
      re: new RegExp(
        `\\b(?:take|get|remove|delete|drop|scratch|scrub|cross|strike|erase|pull|wipe)(?: ${LIST_OBJECT})? (?:off|of|from|out of|out)(?: of)?(?: ${LIST_OWNER})?(?: \\w+){0,3}? ${LIST}\\b`,
      ),
    },
    { re: new RegExp(`\\bbe (?:removed from|taken off|taken out of|deleted from|struck from|crossed off)(?: of)?(?: ${LIST_OWNER})?(?: \\w+){0,3}? ${LIST}\\b`) },
    { re: /\b(?:take|get) (?:me|us|my number|this number|my name) off$/ },
    { re: new RegExp(`\\b(?:want|need|like) (?:me |us |my number |my name )?off(?: of)?(?: ${LIST_OWNER})?(?: \\w+){0,2}? ${LIST}\\b`) },
    { re: /\bremove (?:me|us)$/ },
    { re: /\b(?:remove|delete|erase|scratch|wipe) (?:my|our) (?:number|name|info|information|details|data|phone number|contact info)\b/ },
    { re: /\b(?:my|our) (?:number|name|info|details|phone number) (?:removed|deleted|taken off)\b/ },
    // do-not-call lists: put me on it, I'm registered on it
    {
      re: new RegExp(
        `\\b(?:put|add|place|mark|register|list|keep|stick|sign)(?: me| us| my number| this number| my name| our number| this phone| it)?(?: down| up)? (?:on|to|in|as|onto|into|for)(?: the| your| ur| a| our| yalls)?(?: national| federal| internal| company)? ${DNC}\\b`,
      ),
    },
    {
      re: new RegExp(
        `\\b(?:im|i am|were|we are|(?:number|phone|line|cell|house|household) is|thats|that is|its|it is|i registered|we registered|registered|listed|signed up)(?: \\w+){0,3}? (?:on|in|with|for)(?: the| a| your)?(?: national| federal| state)? ${DNC}\\b`,
      ),
      rejectInside: /\b(?:not|never|arent|isnt|wasnt)\b(?! call)/,
    },
    // I don't want (any more of) these calls / you calling me / to be contacted again
    {
      re: /\b(?:dont|do not|no longer|never) (?:want|wanna|wish|need|care)(?: to)?(?: (?:get|receive|have|be getting))?(?: any| a| another| one more)?(?: more| further| other)?(?: of)?(?: these| your| the| any| those| such)? (?:phone |sales |marketing |robo )?(?:calls?|robocalls?)\b/,
    },
    {
      re: /\b(?:dont|do not|no longer) (?:want|wanna|wish)(?: to)? (?:you|ya|you guys|yall|y all|anyone|anybody|your company)(?: to)? (?:calling|call|contacting|contact|ringing|ring|phoning)\b/,
    },
    { re: /\b(?:dont|do not|no longer) (?:want|wanna|wish) (?:to )?be (?:called|contacted|bothered|phoned|rung)\b/ },
    { re: /\bno more (?:phone )?(?:calls|calling|robocalls)\b/ },
    // opt out, unsubscribe, lose my number
    { re: /\bopt (?:me|us|this number|my number) out\b/ },
    { re: /\b(?:want|like|wish|need|going|gonna) to opt out\b/ },
    { re: /\bopt out of (?:(?:these|your|the|all|future|any) )*(?:phone )?(?:calls|calling|call list|list)\b/ },
    {
      re: /\bunsubscribe (?:me|us|this number|my number)\b(?! from (?:the |your |all )?(?:newsletter|emails?|mailing|texts?|sms|magazine|promo))/,
    },
    { re: /^unsubscribe(?: me| us)?(?: please)?$/ },
    { re: /\bunsubscribe (?:me |us )?from (?:(?:these|your|the|all|future|any) )*(?:phone )?(?:calls|calling|call list)\b/ },
    // "put me on it" after naming a do-not-call list in the same turn
    {
      re: /\b(?:put|add|sign) (?:me|us|this number|my number) (?:on|to|up for) (?:it|that|that list|one)\b/,
      turnMustMatch: new RegExp(`\\b${DNC} (?:list|registry|register)\\b`),
    },
    { re: /\b(?:lose|forget|burn|shred)(?: you(?: ever)? had)? (?:my|this|our) (?:number|phone number)\b/ },
    // A bare "please stop" counts only when the turn is about the calls themselves.
    {
      re: /^(?:(?:please|just|so|ok|okay|now) )*stop(?: (?:it|now|already|please))*$/,
      turnMustMatch: /\b(?:keep|keeps|kept) (?:calling|ringing|phoning)\b|\b(?:these|your|the) calls\b|\bcalling me\b/,
    },
  ],
  negatedBefore:
    /\b(?:dont|do not|didnt|did not|doesnt|does not|not|never|wont|will not|wouldnt|no need to|shouldnt|cant|cannot)(?: (?:asking|saying|telling|tell|ask|say|gonna|going|want|wanting|wanna|need|mean|meaning|trying|like|to|you|u|ya|yall|them|for|it|that|really|even|just|actually|have|has|i|im|am|is|please))*\s*$/,
  limitedAfter:
    /^(?:(?:me|us|here|this number|again|back|on this number) )*(?:before|after|until|till|til|during|between|at night|so early|so late|this late|this early|on (?:weekends|weekdays|sundays|saturdays|the weekend)|in the (?:morning|evening|afternoon|mornings|evenings)|at work|at dinner|at (?:this|that) time|when|while|unless|for (?:a|the next|now|today)|today|tonight|tomorrow|this week|on my (?:work|office))\b/,
  allowedTail:
    /^(?:again|anymore|any|ever|every|at all|please|pls|plz|ok|okay|thanks|thank|thx|bye|goodbye|now|already|seriously|on|here|with|so|like|ya|you|man|dude|mate|pal|buddy|alright|or|and|i|its|it|this|because|cause|cuz|for|about|from|no|either|whatsoever|honestly|ever|period|damn|dammit|guys|thats|im|ill|we|got|in|how|stop|to)\b/,
  optOutQuestion:
    /\b(?:stop (?:calling|contacting|ringing)|(?:remove|take|delete) (?:you|your (?:number|name|details))|taken off|be removed|(?:calls?|contacts?|rings?) you (?:again|anymore|any more)|(?:do not call|dnc|no call) list|(?:didnt|did not|not|never) (?:to )?(?:call|contact) you|(?:add|put|place) (?:you|your number|this number) (?:to|on) (?:our|the|your) (?:do not call|dnc|no call)|opt out|stop receiving|no longer (?:receive|be called|be contacted))\b/,
  affirmative:
    /^(?:yes|yeah|yep|yup|ya|yah|sure|please|absolutely|definitely|correct|right|thats right|that is right|exactly|go ahead|do it|mm hmm|mhm|uh huh|ok|okay|i do|i would|affirmative|of course|by all means|that would be great|thatd be great)\b/,
  reversal: /^(?:no|nope|nah|wait|actually|keep|never mind|nevermind|hold on)\b/,
  callBackQuestion:
    /\b(?:call (?:you )?(?:back|again)|reach you|try (?:you )?again|good time to call|when (?:can|should|could) (?:i|we) call)\b/,
  neverAnswer: /^(?:oh |no |well )?(?:how about |what about )?never\b/,
};
