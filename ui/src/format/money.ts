/**
 * Amounts of money as a person reads them: with the account's currency, its usual decimals, and up
 * to two more where the amount has them (a call costs $0.075; a month costs $24.50). The same amount
 * reads the same on every page: the usage of a campaign, the calls list, a call, analytics.
 * A display setting only: amounts are shown as the API answers them, never converted.
 */

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, locale: string | undefined): Intl.NumberFormat {
  const key = `${locale ?? ''}|${currency}`;
  let f = formatters.get(key);
  if (!f) {
    // The currency's own minor unit (USD 2, JPY 0, KWD 3), as Intl knows it.
    const minor = new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    f = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: minor, maximumFractionDigits: minor + 2 });
    formatters.set(key, f);
  }
  return f;
}

/** "$0.075", "€24.50", "¥120"; '' for no amount. */
export function formatMoney(amount: number | null | undefined, currency: string, locale?: string): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return '';
  return formatter(currency, locale).format(amount);
}

/** The currency's symbol as the reader's locale writes it ("$", "€", "CHF"), for a field's label. */
export function currencySymbol(currency: string, locale?: string): string {
  return formatter(currency, locale).formatToParts(0).find((p) => p.type === 'currency')?.value ?? currency;
}
