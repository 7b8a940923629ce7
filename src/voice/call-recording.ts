/**
 * How one call is recorded, as the dialer decided it (modules/privacy/recording-consent) and
 * every vendor adapter applies it: `always` from the start; `after_disclosure` once the agent's
 * first words said the call is recorded; `after_consent` only once the person agreed.
 */
export type RecordingRule = 'always' | 'after_disclosure' | 'after_consent';

/** Kept on the call (call_data.recording), so the call says which rule applied and what the person answered. */
export interface CallRecording {
  rule: RecordingRule;
  /** Why: the campaign's choice, or the contact's jurisdiction under `auto`. */
  chosen_by: 'campaign' | 'jurisdiction';
  /** `US-CA`, `FR`; null when the number is not read. */
  jurisdiction: string | null;
  /** after_consent: whether the person agreed (null until they answered, or under another rule). */
  consent: boolean | null;
  /** The words the agent says first under after_disclosure. */
  disclosure: string | null;
  /** The question the agent asks first under after_consent. */
  consent_prompt: string | null;
}
