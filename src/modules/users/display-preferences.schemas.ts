import { Type, type Static } from 'typebox';
import { Nullable, StringEnum } from '../../http/schemas.ts';
import { CURRENCIES } from '../../shared/currencies.ts';

/** How the dashboard shows the account's times and money (a display setting: nothing stored is converted). */
export const DisplayPreferences = Type.Object({
  display_timezone: Nullable(Type.String({ maxLength: 64 }), {
    description: 'IANA zone the dashboard shows times and buckets analytics in (e.g. Europe/Berlin); null = each viewer\'s own zone (the browser\'s). Default null.',
  }),
  display_currency: StringEnum(CURRENCIES, {
    description: 'ISO 4217 code of the currency call costs are shown in (they are stored as the voice vendor bills them, without conversion). Default USD.',
  }),
});
export type DisplayPreferences = Static<typeof DisplayPreferences>;
