import { Type, type Static } from 'typebox';

/** HH:MM or HH:MM:SS; 24:00 ends a window at midnight. */
const Clock = (description: string) => Type.String({ pattern: '^(([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d)?|24:00(:00)?)$', description });

/** The account's quiet hours and frequency caps as the API reads and writes them. */
export const Settings = Type.Object({
  quiet_hours_from: Clock('start of the account\'s calling window in each contact\'s local time (default 08:00)'),
  quiet_hours_to: Clock('end of the window, exclusive; 24:00 = midnight (default 21:00)'),
  max_calls_per_day: Type.Integer({ minimum: 1, maximum: 1000, description: 'outbound calls to one number per rolling 24 hours across all of the account\'s campaigns (default 3)' }),
  max_calls_per_week: Type.Integer({ minimum: 1, maximum: 1000, description: 'outbound calls to one number per rolling 7 days across all campaigns (default 7); at least max_calls_per_day' }),
  max_texts_per_day: Type.Integer({ minimum: 1, maximum: 1000, description: 'outbound texts (SMS, WhatsApp) to one number per rolling 24 hours across all campaigns (default 2); AI answers to the person\'s own texts are not counted' }),
  max_texts_per_week: Type.Integer({ minimum: 1, maximum: 1000, description: 'outbound texts to one number per rolling 7 days across all campaigns (default 5); at least max_texts_per_day' }),
});
export type Settings = Static<typeof Settings>;

/** The update: the text caps may be left out (a client written before texts existed), and keep their value. */
export const SettingsUpdate = Type.Object({
  quiet_hours_from: Settings.properties.quiet_hours_from,
  quiet_hours_to: Settings.properties.quiet_hours_to,
  max_calls_per_day: Settings.properties.max_calls_per_day,
  max_calls_per_week: Settings.properties.max_calls_per_week,
  max_texts_per_day: Type.Optional(Settings.properties.max_texts_per_day),
  max_texts_per_week: Type.Optional(Settings.properties.max_texts_per_week),
});
export type SettingsUpdate = Static<typeof SettingsUpdate>;
