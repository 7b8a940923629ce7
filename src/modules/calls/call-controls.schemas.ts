import { Type, type Static } from 'typebox';

/** The longest whisper: a few sentences of guidance, not a new prompt (the model reads it every turn). */
export const MAX_WHISPER_CHARS = 1000;
/** Whispers one call may receive: each one is read before every turn of our agent. */
export const MAX_WHISPERS_PER_CALL = 20;

export const TransferBody = Type.Object({
  phone_number: Type.String({
    pattern: '^\\+[1-9][0-9]{6,14}$', maxLength: 16,
    description: 'where the call goes: a person\'s number in E.164 (+ and the country code), e.g. +12125550123',
  }),
}, { additionalProperties: false });
export type TransferBody = Static<typeof TransferBody>;

export const WhisperBody = Type.Object({
  message: Type.String({
    minLength: 1, maxLength: MAX_WHISPER_CHARS,
    description: `guidance for the AI, given to it as a system message for the rest of the call (at most ${MAX_WHISPER_CHARS} characters; blank text is refused)`,
  }),
}, { additionalProperties: false });
export type WhisperBody = Static<typeof WhisperBody>;
