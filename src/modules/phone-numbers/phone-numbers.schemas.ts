import { Type, type Static } from 'typebox';
import { Id, Limit, Nullable, Skip } from '../../http/schemas.ts';

const CountryCode = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 country, e.g. DE (stored upper-case)' });

const ProviderNumberId = Nullable(
  Type.String({ minLength: 1, maxLength: 200, description: 'The voice vendor\'s id of this number (Vapi\'s phoneNumberId), so calls from it go out from the right number; null = none. Omitted on update = unchanged.' }),
);

export const PhoneNumber = Type.Object({
  id: Type.Integer(),
  phone_number: Type.String({ description: 'E.164, e.g. +4930123456' }),
  campaign_id: Type.Optional(Nullable(Type.Integer())),
  campaign_title: Type.Optional(Nullable(Type.String())),
  country_code: Type.Optional(Nullable(Type.String())),
  owner_id: Type.Optional(Nullable(Type.Integer())),
  provider_number_id: Type.Optional(Nullable(Type.String({ description: 'An addition to the interface\'s PhoneNumber: the voice vendor\'s id of this number (Vapi\'s phoneNumberId), used when calls go out from it; null = none' }))),
});
export type PhoneNumber = Static<typeof PhoneNumber>;

export const PhoneNumberCreate = Type.Object(
  {
    phone_number: Type.String({ minLength: 1, maxLength: 40, description: 'Normalised to E.164; a number without + is read in DEFAULT_COUNTRY. Not a phone number: 422.' }),
    country_code: Type.Optional(Nullable({ ...CountryCode, description: 'ISO alpha-2; omitted or null = the country of the number' })),
    campaign_id: Type.Optional(Nullable({ ...Id, description: 'Campaign that uses this number as caller id; null = unassigned. Unknown campaign: 404; another account\'s: 403.' })),
    provider_number_id: Type.Optional(ProviderNumberId),
  },
  { additionalProperties: false },
);
export type PhoneNumberCreate = Static<typeof PhoneNumberCreate>;

export const PhoneNumberUpdate = Type.Object(
  {
    phone_number: Type.Optional(PhoneNumberCreate.properties.phone_number),
    country_code: Type.Optional(Nullable({ ...CountryCode, description: 'ISO alpha-2; null = the country of the number. Omitted = unchanged, unless phone_number changes (then derived again).' })),
    campaign_id: Type.Optional(Nullable({ ...Id, description: 'null unassigns the number; omitted = unchanged' })),
    provider_number_id: Type.Optional(ProviderNumberId),
  },
  { additionalProperties: false, description: 'Every field optional; omitted = unchanged.' },
);
export type PhoneNumberUpdate = Static<typeof PhoneNumberUpdate>;

export const PhoneNumberListQuery = Type.Object({
  skip: Skip,
  limit: Limit(100),
  campaign_id: Type.Optional({ ...Id, description: 'only numbers assigned to this campaign (a campaign you cannot see matches nothing)' }),
});
export type PhoneNumberListQuery = Static<typeof PhoneNumberListQuery>;

export const PhoneNumberList = Type.Object({ data: Type.Array(PhoneNumber), count: Type.Integer({ description: 'total number of matches, not the page size' }) });
