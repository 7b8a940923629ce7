import { REDACTION_CATEGORIES, type RedactionCategory } from '../redaction/redaction.types.ts';

/**
 * What an account or campaign redacts, and where, before anything is stored or sent (issue 27).
 * Places: `transcript` (a call's transcript as stored, its live turns, our agent's saved
 * conversation), `call_data` (the vendor's post-call analysis and the operators' whispers kept in
 * call_data), `payload` (the payload a webhook sends, which extraction builds, its stored copy and
 * the receiver's answer). Logs are not a place: they are the process's, not an account's, and
 * every line is redacted (logger.ts).
 */
export const REDACTION_PLACES = ['transcript', 'call_data', 'payload'] as const;
export type RedactionPlace = (typeof REDACTION_PLACES)[number];

export interface RedactionPolicy {
  categories: RedactionCategory[];
  places: RedactionPlace[];
}

/**
 * The built-in rule of an account that chose nothing: payment cards, bank accounts and national
 * ids, everywhere. Nobody's CRM needs a card number read out on a call (PCI DSS forbids keeping
 * one), while e-mails, phones, addresses and birth dates are often the very fields a campaign's
 * webhook extracts, so they are the account's choice.
 */
export const DEFAULT_REDACTION: Readonly<RedactionPolicy> = Object.freeze({
  categories: ['card', 'iban', 'ssn'] as RedactionCategory[],
  places: [...REDACTION_PLACES],
});

const inOrder = <T extends string>(all: readonly T[], chosen: readonly string[]): T[] => all.filter((x) => chosen.includes(x));

/** A stored choice (null: not chosen) over its fallback, in the canonical order, unknown names dropped. */
export function policyOf(
  own: { redact_categories: string[] | null; redact_places: string[] | null } | null | undefined,
  fallback: Readonly<RedactionPolicy>,
): RedactionPolicy {
  return {
    categories: own?.redact_categories ? inOrder(REDACTION_CATEGORIES, own.redact_categories) : [...fallback.categories],
    places: own?.redact_places ? inOrder(REDACTION_PLACES, own.redact_places) : [...fallback.places],
  };
}
