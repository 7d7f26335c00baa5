/** Money is stored as integer cents and shown as dollars. */
export function centsToDollars(cents: number): number {
  return cents / 100;
}

export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/**
 * 120 → '$120', 89.5 → '$89.50', 1250 → '$1,250': what Intl's en-US dollars write. Written out
 * here because building a currency `Intl.NumberFormat` loads the browser's currency data: on a
 * phone, most of the time the app's first module took to run, on pages that show no price
 * (docs/performance.md).
 */
export function formatDollars(dollars: number): string {
  const cents = Math.round(Math.abs(dollars) * 100);
  const whole = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+$)/g, ',');
  const sign = dollars < 0 && cents > 0 ? '-' : '';
  const fraction = Number.isInteger(dollars) ? '' : `.${(cents % 100).toString().padStart(2, '0')}`;
  return `${sign}$${whole}${fraction}`;
}
