/** Money is stored as integer cents and shown as dollars. */
export function centsToDollars(cents: number): number {
  return cents / 100;
}

export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

const wholeDollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
const dollarsAndCents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** 120 → '$120', 89.5 → '$89.50'. */
export function formatDollars(dollars: number): string {
  return (Number.isInteger(dollars) ? wholeDollars : dollarsAndCents).format(dollars);
}
