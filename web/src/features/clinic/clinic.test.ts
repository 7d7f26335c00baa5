import type { IsoDate } from '@doctors-portal/contract';
import { describe, expect, it } from 'vitest';
import {
  checkClosure,
  checkRules,
  describeRange,
  reminderAfterNotice,
  rulesToValues,
} from './clinic';

const rules = {
  horizonDays: 180,
  minNoticeMinutes: 0,
  maxUnpaidBookings: 5,
  cancellationNoticeHours: 0,
  reminderLeadHours: 24,
};

const today = '2031-12-01' as IsoDate;

describe("the clinic screen's forms", () => {
  it('checks a closure as the server does, with a message per field', () => {
    expect(
      checkClosure({ from: '2031-12-24', to: '2031-12-26', label: ' Christmas ' }, today),
    ).toEqual({
      ok: true,
      closure: { from: '2031-12-24', to: '2031-12-26', label: 'Christmas' },
    });
    expect(
      checkClosure({ from: '2031-12-26', to: '2031-12-24', label: 'Backwards' }, today),
    ).toEqual({
      ok: false,
      problems: { to: 'The end date must not be before the start date.' },
    });
    expect(checkClosure({ from: '', to: '', label: '  ' }, today)).toEqual({
      ok: false,
      problems: {
        from: 'Pick a date.',
        to: 'Pick a date.',
        label: 'Give the closure a label, such as the holiday’s name.',
      },
    });
  });

  it('refuses a closure that ended before today, and takes one that ends today', () => {
    expect(checkClosure({ from: '2031-11-20', to: '2031-11-30', label: 'Past' }, today)).toEqual({
      ok: false,
      problems: { to: 'Those days are already over: a closure must end today or later.' },
    });
    expect(checkClosure({ from: '2031-11-30', to: today, label: 'Today' }, today).ok).toBe(true);
  });

  it('writes a closure as one date or a range', () => {
    expect(describeRange('2031-12-25', '2031-12-25')).toBe('Dec 25, 2031');
    expect(describeRange('2031-12-24', '2031-12-26')).toBe('Dec 24, 2031 – Dec 26, 2031');
  });

  it('reads the rules as whole numbers within their limits', () => {
    expect(checkRules(rulesToValues(rules))).toEqual({ ok: true, rules });
    const wrong = checkRules({
      ...rulesToValues(rules),
      horizonDays: '0',
      minNoticeMinutes: '',
      maxUnpaidBookings: '1.5',
    });
    expect(wrong).toEqual({
      ok: false,
      problems: {
        horizonDays: 'Enter a whole number of days from 1 to 36500.',
        minNoticeMinutes: 'Enter minimum notice as a whole number.',
        maxUnpaidBookings: 'Enter a whole number of bookings from 1 to 10000.',
      },
    });
  });

  it('says when reminders would reach patients after online cancellation has closed', () => {
    const typed = (reminderLeadHours: string, cancellationNoticeHours: string) =>
      reminderAfterNotice({ ...rulesToValues(rules), reminderLeadHours, cancellationNoticeHours });
    expect(typed('24', '24')).toMatch(/^Reminders go out once online cancellation has closed/);
    expect(typed('12', '24')).not.toBeNull();
    expect(typed('48', '24')).toBeNull();
    // Patients may cancel until the visit starts: every reminder comes before that.
    expect(typed('24', '0')).toBeNull();
    expect(typed('', '24')).toBeNull();
  });
});
