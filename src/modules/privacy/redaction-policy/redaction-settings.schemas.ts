import { Type, type Static } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../../http/schemas.ts';
import { REDACTION_CATEGORIES } from '../redaction/redaction.types.ts';
import { REDACTION_PLACES } from './redaction-policy.ts';

/** The redaction settings as GET/PUT /api/v1/privacy/redaction and /api/v1/campaigns/{id}/redaction read and write them. */

export const REDACTION_DOC =
  'Redaction: before a call\'s data is stored or sent, the values of the chosen categories are replaced whole by a typed marker ' +
  '([CARD], [IBAN], [SSN], [EMAIL], [PHONE], [ADDRESS], [DOB], [NAME]); the original is never written. Categories: card (payment card numbers, Luhn and issuer ' +
  'checked), iban (bank accounts by their checksum), ssn (national ids: US SSN, Spanish DNI/NIE, French NIR), email, phone (numbers other than the contact\'s own), ' +
  'address (street addresses and postal codes), dob (dates of birth), name (after a self-introduction; opt-in, weak). Places: transcript (the call\'s transcript, ' +
  'its live turns, our agent\'s saved conversation), call_data (the vendor\'s post-call analysis, the operators\' whispers), payload (the payload a webhook sends, ' +
  'built by extraction, its stored copy and the receiver\'s answer). Extraction reads the transcript as stored: a category redacted there cannot reach a payload. ' +
  'Default: card, iban and ssn in every place (nobody\'s CRM needs a card number read out on a call). Log lines are always redacted of every category but name. ' +
  'A change applies to data written from then on (within 5 seconds in other processes); what is stored stays as it was. Detection is offline, by rules and ' +
  'checksums (docs/privacy.md has the measured precision and recall).';

const Categories = Type.Array(StringEnum(REDACTION_CATEGORIES), {
  uniqueItems: true, maxItems: REDACTION_CATEGORIES.length, description: `what is redacted, of ${REDACTION_CATEGORIES.join(', ')}`,
});
const Places = Type.Array(StringEnum(REDACTION_PLACES), {
  uniqueItems: true, maxItems: REDACTION_PLACES.length, description: `where, of ${REDACTION_PLACES.join(', ')}`,
});

export const RedactionSettings = Type.Object({
  categories: Categories,
  places: Places,
  updated_at: Nullable(DateTime, { description: 'when the account\'s privacy settings were last saved; null: never' }),
});
export type RedactionSettings = Static<typeof RedactionSettings>;

export const RedactionSettingsUpdate = Type.Object({ categories: Categories, places: Places }, { additionalProperties: false });
export type RedactionSettingsUpdate = Static<typeof RedactionSettingsUpdate>;

export const CampaignRedaction = Type.Object({
  campaign_id: Type.Integer(),
  categories: Nullable(Categories, { description: 'the campaign\'s own categories; null: the account\'s' }),
  places: Nullable(Places, { description: 'the campaign\'s own places; null: the account\'s' }),
  effective: Type.Object({ categories: Categories, places: Places }, { description: 'what applies to the campaign\'s calls' }),
  updated_at: Nullable(DateTime, { description: 'when the campaign\'s privacy settings were last saved; null: never' }),
});
export type CampaignRedaction = Static<typeof CampaignRedaction>;

export const CampaignRedactionUpdate = Type.Object({
  categories: Nullable(Categories, { description: 'the campaign\'s own categories (it may redact more or less than the account); null: the account\'s' }),
  places: Nullable(Places, { description: 'the campaign\'s own places; null: the account\'s' }),
}, { additionalProperties: false });
export type CampaignRedactionUpdate = Static<typeof CampaignRedactionUpdate>;
