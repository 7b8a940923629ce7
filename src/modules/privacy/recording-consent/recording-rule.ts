import type { CallRecording, RecordingRule } from '../../../voice/call-recording.ts';
import { jurisdictionOf } from './jurisdiction.ts';

/**
 * How a campaign's calls are recorded (issue 27):
 * - `always`: from the start, as before;
 * - `after_disclosure`: the agent's first words say the call is recorded, and recording starts then;
 * - `after_consent`: the agent asks first; recording starts only when the person says yes or
 *   presses 1, else the call goes on unrecorded;
 * - `auto` (the default): `after_disclosure` where every party must consent or be told (the
 *   contact's US state, or country), else `always`.
 */
export type { CallRecording, RecordingRule };

export const RECORDING_RULES = ['auto', 'always', 'after_disclosure', 'after_consent'] as const;
export type RecordingSetting = (typeof RECORDING_RULES)[number];

/**
 * US states whose wiretap laws need every party's consent to record a call (California Penal
 * Code 632 and the like); a disclosure that the call is recorded, with the person staying on
 * the line, is the accepted practice there. Not legal advice: a campaign can choose its rule.
 */
export const ALL_PARTY_US_STATES: ReadonlySet<string> = new Set(['CA', 'CT', 'DE', 'FL', 'IL', 'MD', 'MA', 'MI', 'MT', 'NV', 'NH', 'PA', 'WA']);

/**
 * Countries whose law requires telling the person a call is recorded: the EU and EEA (GDPR's
 * duty to inform), the United Kingdom and Switzerland, Canada (PIPEDA) and Australia (several
 * all-party states).
 */
export const DISCLOSURE_COUNTRIES: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO',
  'SK', 'SI', 'ES', 'SE', 'IS', 'LI', 'NO', 'GB', 'CH', 'CA', 'AU',
]);

export const DEFAULT_DISCLOSURE = 'This call is recorded.';
export const DEFAULT_CONSENT_PROMPT = 'Before we go on: may we record this call? Say yes or press 1 to agree; otherwise we continue without recording.';

export function recordingFor(setting: { rule: RecordingSetting; disclosure: string | null; consentPrompt: string | null }, phone: string): CallRecording {
  const { country, region } = jurisdictionOf(phone);
  const jurisdiction = region ?? country;
  let rule: RecordingRule;
  if (setting.rule !== 'auto') rule = setting.rule;
  else {
    const state = region?.slice(3);
    rule = (state && ALL_PARTY_US_STATES.has(state)) || (country !== null && DISCLOSURE_COUNTRIES.has(country)) ? 'after_disclosure' : 'always';
  }
  return {
    rule, chosen_by: setting.rule === 'auto' ? 'jurisdiction' : 'campaign', jurisdiction, consent: null,
    disclosure: rule === 'after_disclosure' ? setting.disclosure ?? DEFAULT_DISCLOSURE : null,
    consent_prompt: rule === 'after_consent' ? setting.consentPrompt ?? DEFAULT_CONSENT_PROMPT : null,
  };
}

// Yes in the languages our agent speaks; a "no" anywhere in the answer wins.
const YES = /\b(yes|yeah|yep|sure|ok|okay|fine|agree|of course|s[ií]|claro|vale|oui|d'accord|ja|klar)\b/i;
const NO = /\b(no|nope|don'?t|do not|non|nein|not)\b/i;

/** The person's answer to the consent question: yes (or 1 pressed), else no. */
export function consentGiven(answer: { said?: string; pressed?: string }): boolean {
  if (answer.pressed !== undefined) return answer.pressed === '1';
  const said = answer.said ?? '';
  return YES.test(said) && !NO.test(said);
}
