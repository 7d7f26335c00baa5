import type { BookingStatus, IsoDate } from '@doctors-portal/contract';
import { describe, expect, it } from 'vitest';
import {
  actionsFor,
  byDay,
  byDoctor,
  daysFound,
  daysOf,
  inSlotOrder,
  NO_DOCTOR,
  paramsFrom,
  rangeOf,
  scheduleCsvPath,
  searchable,
  searchOf,
  step,
  withDoctor,
} from './schedule';

const day = (text: string) => text as IsoDate;
const TODAY = day('2031-01-02'); // a Thursday

describe('the schedule’s order', () => {
  it('sorts by the slot’s start time, not as text', () => {
    // '9:30 AM' and a label of the released portal, '02:00 PM', both sort wrongly as text.
    const slots = [
      '02:00 PM - 03:00 PM',
      '10:00 AM - 10:30 AM',
      '9:30 AM - 10:00 AM',
      '1:00 PM - 2:00 PM',
      '12:00 PM - 12:30 PM',
    ];
    const sorted = inSlotOrder(slots.map((slot) => ({ date: TODAY, slot })));
    expect(sorted.map((entry) => entry.slot)).toEqual([
      '9:30 AM - 10:00 AM',
      '10:00 AM - 10:30 AM',
      '12:00 PM - 12:30 PM',
      '1:00 PM - 2:00 PM',
      '02:00 PM - 03:00 PM',
    ]);
    expect(slots.toSorted()).toEqual([
      '02:00 PM - 03:00 PM',
      '10:00 AM - 10:30 AM',
      '12:00 PM - 12:30 PM',
      '1:00 PM - 2:00 PM',
      '9:30 AM - 10:00 AM',
    ]);
  });

  it('sorts by date first, and puts a label without a time last', () => {
    const sorted = inSlotOrder([
      { date: day('2031-01-03'), slot: '10:00 AM - 10:30 AM' },
      { date: TODAY, slot: 'Walk-in' },
      { date: TODAY, slot: '5:00 PM - 5:30 PM' },
    ]);
    expect(sorted.map((entry) => `${entry.date} ${entry.slot}`)).toEqual([
      '2031-01-02 5:00 PM - 5:30 PM',
      '2031-01-02 Walk-in',
      '2031-01-03 10:00 AM - 10:30 AM',
    ]);
  });

  it('groups each day of the range, empty days included, cancelled ones only when asked', () => {
    const bookings = [
      { date: TODAY, slot: '11:00 AM - 11:30 AM', status: 'booked' as const },
      { date: TODAY, slot: '10:00 AM - 10:30 AM', status: 'cancelled' as const },
      { date: day('2031-01-04'), slot: '10:00 AM - 10:30 AM', status: 'arrived' as const },
    ];
    const days = daysOf(TODAY, day('2031-01-04'));
    expect(days).toEqual(['2031-01-02', '2031-01-03', '2031-01-04']);
    expect(byDay(bookings, days, false).map((entry) => entry.bookings.length)).toEqual([1, 0, 1]);
    const withCancelled = byDay(bookings, days, true);
    expect(withCancelled[0]?.bookings.map((entry) => entry.status)).toEqual([
      'cancelled',
      'booked',
    ]);
  });
});

describe('what staff may do to a booking', () => {
  const offered = (status: BookingStatus, date: IsoDate = TODAY) =>
    actionsFor({ status, date }, TODAY);

  it('offers each status the next steps of a visit, on or after its day', () => {
    expect(offered('booked')).toEqual({ visit: ['arrived', 'no_show'], cancel: true });
    expect(offered('confirmed')).toEqual({ visit: ['arrived', 'no_show'], cancel: true });
    expect(offered('arrived')).toEqual({ visit: ['completed'], cancel: false });
    expect(offered('no_show')).toEqual({ visit: ['arrived'], cancel: false });
    expect(offered('completed')).toEqual({ visit: [], cancel: false });
    expect(offered('cancelled')).toEqual({ visit: [], cancel: false });
  });

  it('offers only Cancel for a later day, and no Cancel for an earlier one', () => {
    expect(offered('booked', day('2031-01-09'))).toEqual({ visit: [], cancel: true });
    expect(offered('booked', day('2030-12-30'))).toEqual({
      visit: ['arrived', 'no_show'],
      cancel: false,
    });
  });
});

describe('the CSV export’s address', () => {
  it('names the range, and the treatment and search when given', () => {
    expect(scheduleCsvPath({ from: TODAY, to: day('2031-01-08') })).toBe(
      '/schedule.csv?from=2031-01-02&to=2031-01-08',
    );
    expect(
      scheduleCsvPath({ from: TODAY, to: TODAY, treatmentId: 'teeth-cleaning', q: ' Anna & Co ' }),
    ).toBe('/schedule.csv?from=2031-01-02&to=2031-01-02&treatmentId=teeth-cleaning&q=Anna+%26+Co');
    expect(scheduleCsvPath({ from: TODAY, to: TODAY, treatmentId: '', q: '  ' })).toBe(
      '/schedule.csv?from=2031-01-02&to=2031-01-02',
    );
  });
});

describe('the view in the address', () => {
  it('reads today’s day view by default, and an impossible date as today', () => {
    expect(paramsFrom(new URLSearchParams(''), TODAY)).toEqual({
      date: TODAY,
      view: 'day',
      treatmentId: '',
      doctorId: '',
      q: '',
      showCancelled: false,
    });
    expect(paramsFrom(new URLSearchParams('date=2031-02-30&view=month'), TODAY).date).toBe(TODAY);
    // A day whose week runs past the ISO dates (or before 1970) is not one the schedule shows.
    for (const date of ['9999-12-31', '9999-12-26', '1970-01-01'])
      expect(paramsFrom(new URLSearchParams(`date=${date}`), TODAY).date, date).toBe(TODAY);
    expect(paramsFrom(new URLSearchParams('date=9999-12-25'), TODAY).date).toBe('9999-12-25');
    const params = paramsFrom(
      new URLSearchParams('date=2031-01-09&view=week&treatment=x&doctor=d-1&q=ann&cancelled=1'),
      TODAY,
    );
    expect(params).toEqual({
      date: '2031-01-09',
      view: 'week',
      treatmentId: 'x',
      doctorId: 'd-1',
      q: 'ann',
      showCancelled: true,
    });
    expect(searchOf(params, TODAY)).toEqual({
      date: '2031-01-09',
      view: 'week',
      treatment: 'x',
      doctor: 'd-1',
      q: 'ann',
      cancelled: '1',
    });
    expect(searchOf(paramsFrom(new URLSearchParams(''), TODAY), TODAY)).toEqual({});
  });

  it('covers a day, or its week from Sunday', () => {
    expect(rangeOf({ date: TODAY, view: 'day' })).toEqual({ from: TODAY, to: TODAY });
    expect(rangeOf({ date: TODAY, view: 'week' })).toEqual({
      from: '2030-12-29',
      to: '2031-01-04',
    });
    expect(step({ date: TODAY, view: 'day' }, 1)).toBe('2031-01-03');
    expect(step({ date: TODAY, view: 'week' }, -1)).toBe('2030-12-26');
    // No further than the schedule shows: the buttons are then disabled.
    expect(step({ date: '9999-12-25' as IsoDate, view: 'day' }, 1)).toBeNull();
    expect(step({ date: '9999-12-20' as IsoDate, view: 'week' }, 1)).toBeNull();
    expect(step({ date: '1970-01-04' as IsoDate, view: 'day' }, -1)).toBeNull();
  });
});

describe('a search of every date', () => {
  it('asks the server from 2 characters on, once trimmed', () => {
    expect(searchable('')).toBe(false);
    expect(searchable(' a ')).toBe(false);
    expect(searchable(' an ')).toBe(true);
  });

  it('groups the matches under their days in the server’s order, upcoming then past', () => {
    const found = [
      { date: TODAY, slot: '2:00 PM - 3:00 PM', status: 'booked' as const },
      { date: TODAY, slot: '9:00 AM - 9:30 AM', status: 'booked' as const },
      { date: day('2031-03-01'), slot: '10:00 AM - 10:30 AM', status: 'cancelled' as const },
      { date: day('2030-12-30'), slot: '10:00 AM - 10:30 AM', status: 'completed' as const },
      { date: day('2030-06-01'), slot: '10:00 AM - 10:30 AM', status: 'no_show' as const },
    ];
    const days = daysFound(found);
    expect(days).toEqual(['2031-01-02', '2031-03-01', '2030-12-30', '2030-06-01']);
    expect(
      byDay(found, days, true).map((entry) => [entry.date, entry.bookings.map((b) => b.slot)]),
    ).toEqual([
      ['2031-01-02', ['9:00 AM - 9:30 AM', '2:00 PM - 3:00 PM']],
      ['2031-03-01', ['10:00 AM - 10:30 AM']],
      ['2030-12-30', ['10:00 AM - 10:30 AM']],
      ['2030-06-01', ['10:00 AM - 10:30 AM']],
    ]);
  });
});

describe('the doctors of a day', () => {
  const ana = { _id: 'd-a', name: 'Ana Ruiz' };
  const ben = { _id: 'd-b', name: 'Ben Okafor' };
  const rows = [
    { id: 1, doctor: ben },
    { id: 2, doctor: null },
    { id: 3, doctor: ana },
    { id: 4, doctor: ben },
    { id: 5 },
  ];

  it('group the bookings under each doctor by name, then those with no doctor', () => {
    expect(
      byDoctor(rows).map((group) => [
        group.doctor?.name ?? null,
        group.bookings.map((row) => row.id),
      ]),
    ).toEqual([
      ['Ana Ruiz', [3]],
      ['Ben Okafor', [1, 4]],
      [null, [2, 5]],
    ]);
    expect(byDoctor([{ doctor: ana }]).map((group) => group.doctor)).toEqual([ana]);
  });

  it('are filtered by one doctor, or by none', () => {
    expect(rows.filter((row) => withDoctor(row, '')).length).toBe(5);
    expect(rows.filter((row) => withDoctor(row, 'd-b')).map((row) => row.id)).toEqual([1, 4]);
    expect(rows.filter((row) => withDoctor(row, NO_DOCTOR)).map((row) => row.id)).toEqual([2, 5]);
  });
});
