import { Type, type Static } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../../http/schemas.ts';
import { DEFAULT_CONSENT_PROMPT, DEFAULT_DISCLOSURE, RECORDING_RULES } from './recording-rule.ts';

export const RECORDING_DOC =
  'Recording consent: how a campaign\'s calls are recorded. always: from the start. after_disclosure: the agent\'s first words say the call is recorded ' +
  `(disclosure, default "${DEFAULT_DISCLOSURE}"), and recording starts then. after_consent: the agent first asks (consent_prompt, default "${DEFAULT_CONSENT_PROMPT}"); ` +
  'recording starts only when the person says yes or presses 1, else the call goes on unrecorded. auto (the default): after_disclosure when the contact\'s number ' +
  'is in a US state whose law needs every party\'s consent (CA, CT, DE, FL, IL, MD, MA, MI, MT, NV, NH, PA, WA, by area code) or in a country that requires telling ' +
  'the person (the EU and EEA, GB, CH, CA, AU), else always; not legal advice: choose the rule your counsel gives. Our agent on Twilio starts the recording itself ' +
  '(Twilio\'s call Recordings API) at the disclosure or the consent; Vapi is given the assistant\'s compliancePlan.recordingConsentPlan (stay-on-line with the ' +
  'disclosure, verbal with the consent prompt) and reports the consent; Retell speaks the disclosure as its begin message and, having no way to start a recording ' +
  'mid-call, is not recorded under after_consent (data_storage_setting basic_attributes_only for the call). Each call keeps what applied in call_data.recording ' +
  '{ rule, chosen_by (campaign or jurisdiction), jurisdiction (US-CA, FR…), consent (true, false, or null when not asked or not answered), disclosure, consent_prompt }.';

const Words = (what: string) => Nullable(Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }), { description: `${what}; null: the default` });

export const CampaignRecording = Type.Object({
  campaign_id: Type.Integer(),
  rule: StringEnum(RECORDING_RULES, { description: 'auto, always, after_disclosure or after_consent' }),
  disclosure: Words('what the agent says first under after_disclosure (and auto where it applies)'),
  consent_prompt: Words('the question the agent asks first under after_consent'),
  updated_at: Nullable(DateTime, { description: 'when the campaign\'s privacy settings were last saved; null: never' }),
});
export type CampaignRecording = Static<typeof CampaignRecording>;

export const CampaignRecordingUpdate = Type.Object({
  rule: StringEnum(RECORDING_RULES, { description: 'auto, always, after_disclosure or after_consent' }),
  disclosure: Type.Optional(Words('what the agent says first under after_disclosure')),
  consent_prompt: Type.Optional(Words('the question the agent asks first under after_consent')),
}, { additionalProperties: false });
export type CampaignRecordingUpdate = Static<typeof CampaignRecordingUpdate>;
