/**
 * How the demo card form shows what is typed: the number grouped as on the card, the expiry as
 * 'MM / YY'. Only the digits count; the spacing is for the eye.
 */

export const digitsOf = (text: string) => text.replace(/\D/g, '');

/** American Express numbers are 15 digits shown 4-6-5; the rest are up to 19 shown in 4s. */
const isAmex = (digits: string) => /^3[47]/.test(digits);

export function formatCardNumber(text: string): string {
  const digits = digitsOf(text);
  if (isAmex(digits)) {
    const amex = digits.slice(0, 15);
    return [amex.slice(0, 4), amex.slice(4, 10), amex.slice(10)].filter(Boolean).join(' ');
  }
  return (
    digits
      .slice(0, 19)
      .match(/.{1,4}/g)
      ?.join(' ') ?? ''
  );
}

/**
 * '1' → '1', '4' → '04' (no month starts with 4), '123' → '12 / 3'; an autofilled '12/2034' or
 * '1/2034' → '12 / 34', '01 / 34'.
 */
export function formatExpiry(text: string): string {
  const full = /^\s*(\d{1,2})\s*\/\s*\d{2}(\d{2})\s*$/.exec(text);
  if (full) return `${(full[1] ?? '').padStart(2, '0')} / ${full[2]}`;
  let digits = digitsOf(text).slice(0, 4);
  if (/^[2-9]/.test(digits)) digits = `0${digits}`.slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/** The expiry's month and two-digit year, or null while it is incomplete. */
export function parseExpiry(text: string): { month: number; year: number } | null {
  const digits = digitsOf(text);
  if (digits.length !== 4) return null;
  return { month: Number(digits.slice(0, 2)), year: Number(digits.slice(2)) };
}

/**
 * Where the caret belongs in the reformatted text: after as many digits as were before it in
 * the text as typed.
 */
export function caretAfterDigits(formatted: string, digitsBefore: number): number {
  if (digitsBefore <= 0) return 0;
  let seen = 0;
  for (let index = 0; index < formatted.length; index += 1) {
    if (/\d/.test(formatted[index] ?? '')) seen += 1;
    if (seen === digitsBefore) return index + 1;
  }
  return formatted.length;
}
