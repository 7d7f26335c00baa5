import {
  addDays,
  formatMediumDate,
  type IsoDate,
  messages,
  todayIn,
} from '@doctors-portal/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiStub, stubApi } from '../../../test/fetch-stub';
import { clinic, patient, signIn, treatment } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { BookingSection } from './booking-section';

const day: IsoDate = addDays(todayIn(clinic.timeZone), 10);
const medium = formatMediumDate(day);

/** Shows the address, to read what the page wrote into it. */
function Address() {
  const { search } = useLocation();
  return <output aria-label="Address">{search}</output>;
}

let api: ApiStub;
beforeEach(() => {
  api = stubApi({
    'GET /api/clinic': { body: clinic },
    'GET /api/available': { body: [treatment] },
  });
  signIn(api, patient);
});

describe('the booking page', () => {
  // The runner's own zone stands for the browser's; on a machine in the clinic's zone, no note.
  it.skipIf(Intl.DateTimeFormat().resolvedOptions().timeZone === clinic.timeZone)(
    "notes the clinic's time zone when the browser's is another",
    async () => {
      renderInPortal(<BookingSection level={1} />, { at: `/appointment?date=${day}` });
      expect(
        await screen.findByText('All times are the clinic’s local time (America/New York).'),
      ).toBeInTheDocument();
    },
  );

  it("reads the day from the address (?date=YYYY-MM-DD), asks for it in the medium format and shows it as 'Available Appointments on {date}'", async () => {
    renderInPortal(<BookingSection level={1} />, { at: `/appointment?date=${day}` });
    expect(
      await screen.findByRole('heading', { name: `Available Appointments on ${medium}` }),
    ).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Teeth Cleaning' });
    const [request] = api.callsTo('GET /api/available');
    expect(request?.url.searchParams.get('date')).toBe(medium);
  });

  it.each([
    [
      'beyond-horizon',
      'This day is further ahead than the clinic takes bookings. Please pick an earlier date on the calendar.',
    ],
    ['past', 'This day can no longer be booked. Please pick a later date on the calendar.'],
  ] as const)(
    'says why a %s day reached by its address takes no bookings, and offers no waitlist there',
    async (status, reason) => {
      api.on('GET /api/available', { body: [{ ...treatment, slots: [] }] });
      api.on('GET /api/available/month', {
        body: { month: day.slice(0, 7), days: [{ date: day, status }] },
      });
      renderInPortal(<BookingSection level={1} />, { at: `/appointment?date=${day}` });
      expect(await screen.findByText(reason)).toBeInTheDocument();
      await screen.findByRole('heading', { name: 'Teeth Cleaning' });
      expect(screen.queryByText(/Every slot is taken/)).toBeNull();
      expect(screen.queryByRole('button', { name: /waitlist/i })).toBeNull();
    },
  );

  describe('a day that takes no bookings', () => {
    // The 5th of a month ahead, and the days after it in that month.
    const fifth = `${addDays(todayIn(clinic.timeZone), 40).slice(0, 8)}05` as IsoDate;
    const later = (days: number) => addDays(fifth, days);
    const month = (status: 'past' | 'full') => ({
      month: fifth.slice(0, 7),
      days: [
        { date: addDays(fifth, -1), status: 'open' },
        { date: fifth, status },
        { date: later(1), status: 'full' },
        { date: later(2), status: 'closed', label: 'Closed on Sundays' },
        { date: later(3), status: 'open' },
        { date: later(4), status: 'open' },
      ],
    });

    it.each(['past', 'full'] as const)(
      'offers a %s day’s next day with free slots, and goes there',
      async (status) => {
        api.on('GET /api/available', { body: [{ ...treatment, slots: [] }] });
        api.on('GET /api/available/month', { body: month(status) });
        const { user } = renderInPortal(
          <>
            <BookingSection level={1} />
            <Address />
          </>,
          { at: `/appointment?date=${fifth}` },
        );
        const next = formatMediumDate(later(3));
        const go = await screen.findByRole('button', {
          name: `See ${next}, the next day with free slots`,
        });
        api.on('GET /api/available', { body: [treatment] });
        await user.click(go);
        const heading = await screen.findByRole('heading', {
          name: `Available Appointments on ${next}`,
        });
        expect(heading).toHaveFocus();
        expect(screen.getByRole('status', { name: 'Address' })).toHaveTextContent(
          `?date=${later(3)}`,
        );
        expect(api.callsTo('GET /api/available').at(-1)?.url.searchParams.get('date')).toBe(next);
        expect(screen.queryByRole('button', { name: /the next day with free slots/ })).toBeNull();
      },
    );

    it('offers no next day when none of its month’s later days takes bookings', async () => {
      api.on('GET /api/available', { body: [{ ...treatment, slots: [] }] });
      api.on('GET /api/available/month', {
        body: { month: fifth.slice(0, 7), days: [{ date: fifth, status: 'past' }] },
      });
      renderInPortal(<BookingSection level={1} />, { at: `/appointment?date=${fifth}` });
      expect(await screen.findByText(/can no longer be booked/)).toBeInTheDocument();
      await screen.findByRole('heading', { name: 'Teeth Cleaning' });
      expect(screen.queryByRole('button', { name: /the next day with free slots/ })).toBeNull();
    });
  });

  it('offers the waitlist on a full day', async () => {
    api.on('GET /api/available', { body: [{ ...treatment, slots: [] }] });
    api.on('GET /api/available/month', {
      body: { month: day.slice(0, 7), days: [{ date: day, status: 'full' }] },
    });
    renderInPortal(<BookingSection level={1} />, { at: `/appointment?date=${day}` });
    expect(await screen.findByText(/Every slot is taken on this day/)).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /waitlist/i })).toBeInTheDocument();
  });

  it('asks for the day’s slots again after a booking attempt, even a refused one', async () => {
    api.on('POST /api/booking', {
      status: 409,
      body: { success: false, reason: 'slot', message: messages.slotTaken },
    });
    const { user } = renderInPortal(<BookingSection level={1} />, {
      at: `/appointment?date=${day}`,
    });
    const card = (await screen.findByRole('heading', { name: 'Teeth Cleaning' })).closest('li');
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'Book Appointment, Teeth Cleaning' }),
      ).toBeEnabled(),
    );
    await user.click(
      within(card as HTMLElement).getByRole('button', { name: 'Book Appointment, Teeth Cleaning' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Teeth Cleaning' });
    expect(within(dialog).getByLabelText('Date')).toHaveValue(medium);
    await user.selectOptions(within(dialog).getByLabelText('Time slot'), treatment.slots[0] ?? '');
    await user.type(within(dialog).getByLabelText('Phone number'), '+1 555 010 2222');
    await user.type(within(dialog).getByLabelText('Age'), '34');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    expect(await screen.findByText(messages.slotTaken)).toBeInTheDocument();
    expect(api.callsTo('POST /api/booking')[0]?.body).toMatchObject({ date: medium });
    await waitFor(() => expect(api.callsTo('GET /api/available')).toHaveLength(2));
  });

  it('writes the picked calendar day into the address as YYYY-MM-DD, and shows and asks for that day', async () => {
    const { user } = renderInPortal(
      <>
        <BookingSection level={1} />
        <Address />
      </>,
      { at: `/appointment?date=${day}` },
    );
    // A day next to the chosen one, in the month the calendar shows.
    const picked = addDays(day, Number(day.slice(8)) < 28 ? 1 : -1);
    const [year, month, date] = picked.split('-').map(Number) as [number, number, number];
    const monthName = new Date(year, month - 1, 1).toLocaleString('en-US', { month: 'long' });
    await user.click(
      await screen.findByRole('button', { name: new RegExp(`^${date} ${monthName} ${year},`) }),
    );
    expect(screen.getByRole('status', { name: 'Address' })).toHaveTextContent(`?date=${picked}`);
    expect(
      await screen.findByRole('heading', {
        name: `Available Appointments on ${formatMediumDate(picked)}`,
      }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(
        api.callsTo('GET /api/available').map((call) => call.url.searchParams.get('date')),
      ).toEqual([medium, formatMediumDate(picked)]),
    );
  });

  it('states the cancellation policy in the booking modal, from the calendar it already asked for', async () => {
    api.on('GET /api/clinic/calendar', {
      body: {
        from: day,
        to: day,
        openingDays: [0, 1, 2, 3, 4, 5, 6],
        closed: [],
        cancellationNoticeHours: 24,
      },
    });
    const { user } = renderInPortal(<BookingSection level={1} />, {
      at: `/appointment?date=${day}`,
    });
    await screen.findByRole('heading', { name: 'Teeth Cleaning' });
    await waitFor(() => expect(api.callsTo('GET /api/clinic/calendar')).toHaveLength(1));
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'Book Appointment, Teeth Cleaning' }),
      ).toBeEnabled(),
    );
    await user.click(screen.getByRole('button', { name: 'Book Appointment, Teeth Cleaning' }));
    const dialog = await screen.findByRole('dialog', { name: 'Teeth Cleaning' });
    expect(
      await within(dialog).findByText(
        `You can cancel free of charge until 24 hours before your visit; a paid visit cancelled by then is refunded to your card. After that, please call the clinic on ${clinic.phone}.`,
      ),
    ).toBeInTheDocument();
    expect(api.callsTo('GET /api/clinic/calendar')).toHaveLength(1);
  });

  it.each([
    [[1, 2, 3, 4, 5, 6], 'Closed on Sundays'],
    [[0, 1, 2, 3, 4, 5, 6], null],
  ])(
    'gives the weekly closed days beside the opening hours (open %j)',
    async (openingDays, line) => {
      api.on('GET /api/clinic/calendar', {
        body: { from: day, to: day, openingDays, closed: [], cancellationNoticeHours: 24 },
      });
      renderInPortal(<BookingSection level={1} />, { at: `/appointment?date=${day}` });
      await waitFor(() => expect(api.callsTo('GET /api/clinic/calendar')).toHaveLength(1));
      await screen.findByRole('heading', { name: 'Teeth Cleaning' });
      const hours = screen.getByText('Opening hours').parentElement as HTMLElement;
      await waitFor(() =>
        expect(hours).toHaveTextContent(`Sat - Fri, 10:00 AM to 10:00 PM${line ?? ''}`),
      );
      if (!line) expect(hours.textContent).not.toMatch(/Closed/);
    },
  );
});

describe('the booking section on the home page', () => {
  /** An IntersectionObserver that reports only when the test scrolls the section near. */
  let scrollNear: () => void;
  beforeEach(() => {
    const observers: Array<(entries: Array<{ isIntersecting: boolean }>) => void> = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(report: (entries: Array<{ isIntersecting: boolean }>) => void) {
          observers.push(report);
        }
        observe() {}
        disconnect() {}
      },
    );
    scrollNear = () => {
      for (const report of observers) act(() => report([{ isIntersecting: true }]));
    };
    // As the server serves the page: the clinic's details, its time zone with them, in it.
    const details = document.createElement('script');
    details.type = 'application/json';
    details.id = 'clinic-data';
    details.textContent = JSON.stringify(clinic);
    document.head.append(details);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.getElementById('clinic-data')?.remove();
  });

  const chosenDay = () => screen.getByText('Your chosen day').nextElementSibling?.textContent;

  // The first date formatter of a page loads the browser's time zone data: a long task on a
  // phone, which a visitor who never scrolls down should not wait through.
  it('works today out only once the section comes near the viewport', async () => {
    renderInPortal(<BookingSection />);
    await screen.findByText('Your chosen day');
    expect(chosenDay()).toBe('…');
    expect(api.callsTo('GET /api/available')).toHaveLength(0);

    scrollNear();
    const today = formatMediumDate(todayIn(clinic.timeZone));
    await waitFor(() => expect(chosenDay()).toBe(today));
    await waitFor(() => expect(api.callsTo('GET /api/available')).toHaveLength(1));
  });
});

describe('the booking calendar’s month and a phone’s scroll', () => {
  /** The media queries that match, as the browser would answer `matchMedia`. */
  const screenWith = (...matching: string[]) => {
    vi.stubGlobal(
      'matchMedia',
      (query: string) => ({ matches: matching.includes(query), media: query }) as MediaQueryList,
    );
  };
  const scrolled = vi.fn();
  beforeEach(() => {
    scrolled.mockClear();
    Element.prototype.scrollIntoView = function (this: Element, options) {
      scrolled(this.textContent, options);
    };
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
  });

  /** Picks the day after `day` on the calendar (or the day before, at a month's end). */
  const pickNextDay = async (user: { click: (element: Element) => Promise<void> }) => {
    const picked = addDays(day, Number(day.slice(8)) < 28 ? 1 : -1);
    const [year, month, date] = picked.split('-').map(Number) as [number, number, number];
    const monthName = new Date(year, month - 1, 1).toLocaleString('en-US', { month: 'long' });
    await user.click(
      await screen.findByRole('button', { name: new RegExp(`^${date} ${monthName} ${year},`) }),
    );
    return picked;
  };

  it('asks for the statuses of the month shown, and disables and marks its days by them', async () => {
    const closedDay = addDays(day, Number(day.slice(8)) < 28 ? 1 : -1);
    api.on('GET /api/available/month', {
      body: {
        month: day.slice(0, 7),
        days: [{ date: closedDay, status: 'closed', label: 'Staff training' }],
      },
    });
    renderInPortal(<BookingSection level={1} />, { at: `/appointment?date=${day}` });
    const [year, month, date] = closedDay.split('-').map(Number) as [number, number, number];
    const monthName = new Date(year, month - 1, 1).toLocaleString('en-US', { month: 'long' });
    expect(
      await screen.findByRole('button', {
        name: new RegExp(`^${date} ${monthName} ${year},.*clinic closed: Staff training$`),
      }),
    ).toBeDisabled();
    expect(api.callsTo('GET /api/available/month')[0]?.url.searchParams.get('month')).toBe(
      day.slice(0, 7),
    );
  });

  it('scrolls the day’s appointments into view when a day is picked on a narrow screen', async () => {
    screenWith('(max-width: 767px)');
    const { user } = renderInPortal(<BookingSection level={1} />, {
      at: `/appointment?date=${day}`,
    });
    await screen.findByRole('heading', { name: `Available Appointments on ${medium}` });
    expect(scrolled).not.toHaveBeenCalled();
    await pickNextDay(user);
    expect(scrolled).toHaveBeenCalledWith(expect.stringMatching(/^Available Appointments on /), {
      behavior: 'smooth',
      block: 'start',
    });
  });

  it('scrolls without animation for a visitor who asked for reduced motion', async () => {
    screenWith('(max-width: 767px)', '(prefers-reduced-motion: reduce)');
    const { user } = renderInPortal(<BookingSection level={1} />, {
      at: `/appointment?date=${day}`,
    });
    await screen.findByRole('heading', { name: `Available Appointments on ${medium}` });
    await pickNextDay(user);
    expect(scrolled).toHaveBeenCalledWith(expect.stringMatching(/^Available Appointments on /), {
      behavior: 'auto',
      block: 'start',
    });
  });

  it('does not scroll on a wide screen, where the appointments show under the calendar', async () => {
    screenWith();
    const { user } = renderInPortal(<BookingSection level={1} />, {
      at: `/appointment?date=${day}`,
    });
    await screen.findByRole('heading', { name: `Available Appointments on ${medium}` });
    const picked = await pickNextDay(user);
    await screen.findByRole('heading', {
      name: `Available Appointments on ${formatMediumDate(picked)}`,
    });
    expect(scrolled).not.toHaveBeenCalled();
  });
});
