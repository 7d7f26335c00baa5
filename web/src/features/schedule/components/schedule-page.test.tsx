import {
  addDays,
  formatMediumDate,
  type IsoDate,
  type ScheduleEntry,
  scheduleSchema,
  scheduleSearchSchema,
} from '@doctors-portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiStub, failure } from '../../../test/fetch-stub';
import { booking, catalogueTreatment, dayFromToday, stubAdminApi } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { SchedulePage } from './schedule-page';

/** The day the schedule shows, which its answers also give as the clinic's today. */
const DAY = dayFromToday(40);
const dayAfter = addDays(DAY, 1);

/** A day's heading as the schedule writes it: the weekday, then the date in the medium format. */
function heading(day: IsoDate): RegExp {
  const weekday = new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'long',
    timeZone: 'UTC',
  });
  return new RegExp(`${weekday}, ${formatMediumDate(day)}`);
}

/** A booking on the schedule: the fixture booking, with the schedule's own fields. */
function entry(overrides: Partial<ScheduleEntry> = {}): ScheduleEntry {
  const { cancellable: _, ...base } = booking({
    _id: 'b-1',
    patientName: 'Jane Doe',
    patientMail: 'jane@mail.com',
    date: DAY,
    slot: '10:00 AM - 10:30 AM',
  });
  return {
    ...base,
    patientId: 'user-9',
    noShows: 0,
    cancelledAt: null,
    cancelledBy: null,
    ...overrides,
  };
}

const onTheWire = (bookings: ScheduleEntry[], today: IsoDate = DAY) =>
  scheduleSchema.encode({ from: DAY, to: DAY, today, bookings });

let api: ApiStub;
beforeEach(() => {
  api = stubAdminApi({
    'GET /api/treatments': {
      body: [
        catalogueTreatment(),
        catalogueTreatment({ _id: 'cavity-filling', name: 'Cavity Filling' }),
        catalogueTreatment({
          _id: 'oral-surgery',
          name: 'Oral Surgery',
          retired: true,
          retiredAt: '2030-12-01T10:00:00.000Z',
        }),
      ],
    },
  });
});

const showSchedule = (at = `/dashboard/schedule?date=${DAY}`) =>
  renderInPortal(<SchedulePage />, { at, path: '/dashboard/schedule' });

const rowOf = (text: string) => {
  const row = screen.getAllByRole('row').find((candidate) => candidate.textContent?.includes(text));
  if (!row) throw new Error(`no row with ${text}`);
  return row;
};

describe('the schedule', () => {
  it('lists the day’s bookings by start time with what the front desk needs', async () => {
    api.on('GET /api/schedule', {
      body: onTheWire([
        entry({ _id: 'b-3', slot: '1:00 PM - 2:00 PM', patientName: 'Omar Haddad', noShows: 2 }),
        entry({
          _id: 'b-2',
          slot: '12:00 PM - 12:30 PM',
          patientName: 'Ann Lee',
          paid: true,
          transactionId: 'pi_1',
          status: 'arrived',
        }),
        entry(),
      ]),
    });
    showSchedule();
    expect(await screen.findByRole('heading', { name: heading(DAY) })).toBeVisible();
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      '10:00 AM - 10:30 AM',
      '12:00 PM - 12:30 PM',
      '1:00 PM - 2:00 PM',
    ]);
    expect(rows[0]).toHaveTextContent('Jane Doe');
    expect(rows[0]).toHaveTextContent('+1 555 010 2222');
    expect(rows[0]).toHaveTextContent('34');
    expect(rows[0]).toHaveTextContent('Unpaid');
    expect(rows[0]).toHaveTextContent('Booked');
    expect(rows[1]).toHaveTextContent('Paid');
    expect(rows[1]).toHaveTextContent('Arrived');
    expect(rows[2]).toHaveTextContent('2 no-shows');
    const call = api.callsTo('GET /api/schedule')[0];
    expect(call?.url.searchParams.get('from')).toBe(DAY);
    expect(call?.url.searchParams.get('to')).toBe(DAY);
    // Each status offers its next steps.
    expect(
      within(rows[0] as HTMLElement)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Mark arrived', 'Mark no-show', 'Cancel booking']);
    // Each is named by its text, then the patient and time it acts on.
    for (const button of within(rows[0] as HTMLElement).getAllByRole('button')) {
      expect(button.getAttribute('aria-label')).toMatch(
        new RegExp(`^${button.textContent}, [^,]+, \\d{1,2}:\\d{2} [AP]M - `),
      );
    }
    expect(
      within(rows[1] as HTMLElement)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Mark completed']);
  });

  it('marks a visit arrived and reads the schedule again', async () => {
    api.on('GET /api/schedule', { body: onTheWire([entry()]) });
    api.on('PATCH /api/booking/:id/status', (call) => {
      api.on('GET /api/schedule', { body: onTheWire([entry({ status: 'arrived' })]) });
      return {
        body: {
          changed: true,
          booking: {
            ...onTheWire([entry()]).bookings[0],
            status: (call.body as { status: string }).status,
            cancellable: false,
          },
        },
      };
    });
    const { user } = showSchedule();
    await user.click(await screen.findByRole('button', { name: /^Mark arrived/ }));
    expect(await screen.findByText('Jane Doe (10:00 AM - 10:30 AM): Arrived.')).toBeVisible();
    expect(api.callsTo('PATCH /api/booking/:id/status')[0]?.body).toEqual({ status: 'arrived' });
    // The next step takes the focus.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /^Mark completed/ })).toHaveFocus(),
    );
  });

  it('cancels with a reason, by keyboard alone', async () => {
    api.on('GET /api/schedule', {
      body: onTheWire([entry({ paid: true, transactionId: 'pi_1' })]),
    });
    api.on('POST /api/booking/:id/cancel', () => {
      api.on('GET /api/schedule', { body: onTheWire([]) });
      return {
        body: {
          booking: {
            ...onTheWire([entry()]).bookings[0],
            status: 'cancelled',
            paid: true,
            cancellable: false,
            refund: { id: 're_demo_1' },
          },
        },
      };
    });
    const { user } = showSchedule();
    const cancel = await screen.findByRole('button', { name: /^Cancel booking/ });
    cancel.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: /Cancel Jane Doe’s Teeth Cleaning/ });
    expect(dialog).toHaveTextContent('refunded in full');
    const reason = within(dialog).getByLabelText('Reason for the patient');
    expect(reason).toHaveFocus();
    // No reason: the dialog says so and sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    expect(within(dialog).getByText('Please give a reason for the cancellation.')).toBeVisible();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST /api/booking/:id/cancel')).toHaveLength(0);

    await user.type(reason, 'The dentist is ill.');
    await user.tab();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Cancel booking' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(
      await screen.findByText(
        `Cancelled Jane Doe’s Teeth Cleaning on ${formatMediumDate(DAY)} at 10:00 AM - 10:30 AM. The payment was refunded (refund id re_demo_1).`,
      ),
    ).toBeVisible();
    expect(api.callsTo('POST /api/booking/:id/cancel')[0]?.body).toEqual({
      reason: 'The dentist is ill.',
    });
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Schedule' })).toHaveFocus());
  });

  it('keeps the dialog open with the reason a refund was refused, and Escape closes it', async () => {
    api.on('GET /api/schedule', {
      body: onTheWire([entry({ paid: true, transactionId: 'pi_1' })]),
    });
    api.on(
      'POST /api/booking/:id/cancel',
      failure(409, 'The payment provider refused to refund this booking’s payment.'),
    );
    const { user } = showSchedule();
    const opener = await screen.findByRole('button', { name: /^Cancel booking/ });
    await user.click(opener);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Reason for the patient'), 'Closed');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The payment provider refused to refund',
    );
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
    expect(rowOf('Jane Doe')).toHaveTextContent('Booked');
  });

  it('moves by day and week, and narrows to a treatment, all in the address', async () => {
    // The week of the day after: from its Sunday to its Saturday.
    const weekStart = addDays(dayAfter, -new Date(`${dayAfter}T12:00:00Z`).getUTCDay());
    api.on('GET /api/schedule', (call) => ({
      body: {
        ...onTheWire([]),
        from: call.url.searchParams.get('from'),
        to: call.url.searchParams.get('to'),
      },
    }));
    const { user } = showSchedule();
    await user.click(await screen.findByRole('button', { name: 'Next day' }));
    await screen.findByRole('heading', { name: heading(dayAfter) });
    await user.click(screen.getByRole('button', { name: 'Week' }));
    await screen.findByText(
      `Week of ${formatMediumDate(weekStart)} to ${formatMediumDate(addDays(weekStart, 6))}`,
    );
    expect(screen.getAllByRole('heading', { level: 2 }).length).toBeGreaterThanOrEqual(7);
    await user.selectOptions(screen.getByLabelText('Treatment'), 'cavity-filling');
    await waitFor(() =>
      expect(api.callsTo('GET /api/schedule').at(-1)?.url.searchParams.get('treatmentId')).toBe(
        'cavity-filling',
      ),
    );
    const last = api.callsTo('GET /api/schedule').at(-1)?.url.searchParams;
    expect([last?.get('from'), last?.get('to')]).toEqual([weekStart, addDays(weekStart, 6)]);
  });

  describe('by doctor', () => {
    const ana = { _id: 'doctor-a', name: 'Dr. Ana Ruiz' };
    const ben = { _id: 'doctor-b', name: 'Dr. Ben Okafor' };
    const day = [
      entry({ _id: 'b-1', patientName: 'Jane Doe', doctor: ben }),
      entry({ _id: 'b-2', slot: '11:00 AM - 11:30 AM', patientName: 'Omar Haddad', doctor: ana }),
      entry({ _id: 'b-3', slot: '9:00 AM - 9:30 AM', patientName: 'Ann Lee', doctor: null }),
      entry({ _id: 'b-4', slot: '12:00 PM - 12:30 PM', patientName: 'Sam Park', doctor: ben }),
    ];
    beforeEach(() => {
      api.on('GET /api/doctor', {
        body: [ana, ben].map((doctor) => ({
          ...doctor,
          email: `${doctor._id}@clinic.test`,
          specialty: 'Teeth Cleaning',
          image: `/api/image/${doctor._id}.png`,
          treatmentIds: ['teeth-cleaning'],
          workDays: [0, 1, 2, 3, 4, 5, 6],
          daysOff: [],
        })),
      });
      api.on('GET /api/schedule', { body: onTheWire(day) });
    });

    it('groups the day’s bookings under each doctor, then No doctor', async () => {
      showSchedule();
      const anaTable = await screen.findByRole('region', { name: /^Dr\. Ana Ruiz/ });
      const benTable = screen.getByRole('region', { name: /^Dr\. Ben Okafor/ });
      const noneTable = screen.getByRole('region', { name: /^No doctor/ });
      const headings = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
      expect(headings).toEqual([
        'Dr. Ana Ruiz1 booking',
        'Dr. Ben Okafor2 bookings',
        'No doctor1 booking',
      ]);
      expect(within(anaTable).getByText('Omar Haddad')).toBeInTheDocument();
      const benRows = within(benTable).getAllByRole('row').slice(1);
      expect(benRows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
        '10:00 AM - 10:30 AM',
        '12:00 PM - 12:30 PM',
      ]);
      expect(within(noneTable).getByText('Ann Lee')).toBeInTheDocument();
    });

    it('keeps one doctor’s bookings, or those with no doctor, in the address', async () => {
      const { user } = showSchedule();
      await screen.findByRole('region', { name: /^Dr\. Ana Ruiz/ });
      const filter = screen.getByLabelText('Doctor');
      await waitFor(() =>
        expect(within(filter).getByRole('option', { name: 'Dr. Ben Okafor' })).toBeInTheDocument(),
      );
      await user.selectOptions(filter, 'doctor-b');
      // The screen's rows, the printed sheet aside.
      const patients = () =>
        screen.getAllByRole('row').flatMap((row) => {
          const name = row.querySelector('td[data-label="Patient"] span span')?.textContent;
          return name ? [name] : [];
        });
      await waitFor(() => expect(patients()).toEqual(['Jane Doe', 'Sam Park']));
      expect(screen.getAllByText(/ · Dr\. Ben Okafor$/).length).toBeGreaterThan(0);
      await user.selectOptions(filter, 'No doctor');
      await waitFor(() => expect(patients()).toEqual(['Ann Lee']));
    });

    it('shows the doctor on each row of the week', async () => {
      showSchedule(`/dashboard/schedule?date=${DAY}&view=week`);
      await screen.findAllByText('Jane Doe');
      expect(screen.queryAllByRole('heading', { level: 3 })).toHaveLength(0);
      const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
      expect(headers).toContain('Doctor');
      expect(rowOf('Omar Haddad')).toHaveTextContent('Dr. Ana Ruiz');
      expect(rowOf('Ann Lee')).toHaveTextContent('No doctor');
    });
  });

  it('gives every day of the week the Doctor column when any booking shown has a doctor', async () => {
    // Another day of DAY's week (Sunday to Saturday).
    const sameWeek = addDays(DAY, new Date(`${DAY}T12:00:00Z`).getUTCDay() === 6 ? -1 : 1);
    api.on('GET /api/schedule', {
      body: onTheWire([
        entry({
          _id: 'b-1',
          patientName: 'Jane Doe',
          doctor: { _id: 'doctor-a', name: 'Dr. Ana Ruiz' },
        }),
        entry({ _id: 'b-2', date: sameWeek, patientName: 'Omar Haddad', doctor: null }),
      ]),
    });
    showSchedule(`/dashboard/schedule?date=${DAY}&view=week`);
    await screen.findAllByText('Omar Haddad');
    const tables = screen.getAllByRole('table');
    expect(tables.length).toBeGreaterThanOrEqual(2);
    for (const table of tables) {
      expect(within(table).getByRole('columnheader', { name: 'Doctor' })).toBeInTheDocument();
    }
    expect(rowOf('Omar Haddad')).toHaveTextContent('No doctor');
  });

  it('offers retired treatments too, apart, since their bookings stay on the schedule', async () => {
    api.on('GET /api/schedule', { body: onTheWire([]) });
    showSchedule(`/dashboard/schedule?date=${DAY}&treatment=oral-surgery`);
    const filter = await screen.findByLabelText('Treatment');
    const retired = await within(filter).findByRole('group', { name: 'Retired' });
    expect(within(retired).getByRole('option', { name: 'Oral Surgery' })).toBeTruthy();
    await waitFor(() => expect(filter).toHaveValue('oral-surgery'));
    expect(
      within(filter)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All treatments', 'Teeth Cleaning', 'Cavity Filling', 'Oral Surgery']);
  });

  it('downloads the range as CSV with the access token', async () => {
    api.on('GET /api/schedule', { body: onTheWire([]) });
    api.on('GET /api/schedule.csv', {
      body: 'Date\r\n',
      headers: {
        'content-type': 'text/csv',
        'content-disposition': `attachment; filename="schedule-${DAY}.csv"`,
      },
    });
    const created = vi.fn(() => 'blob:schedule');
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }),
    );
    const { user } = showSchedule();
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText(`Downloaded schedule-${DAY}.csv.`)).toBeVisible();
    const call = api.callsTo('GET /api/schedule.csv')[0];
    expect(call?.url.search).toBe(`?from=${DAY}&to=${DAY}`);
    expect(call?.headers.get('authorization')).toBe('Bearer token-1');
    expect(created).toHaveBeenCalled();

    // More than 31 days: said on the spot, nothing asked.
    const to = screen.getByLabelText('To');
    await user.clear(to);
    await user.type(to, addDays(DAY, 87));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText(/at most 31 days/)).toBeVisible();
    expect(api.callsTo('GET /api/schedule.csv')).toHaveLength(1);
  });

  describe('the search across all dates', () => {
    const found = (q: string, bookings: ScheduleEntry[], more = false) =>
      scheduleSearchSchema.encode({ q, bookings, more });

    it('shows every date’s matches by day, upcoming first, with the day’s actions, and clearing it returns to the day', async () => {
      const [later, past] = [addDays(DAY, 62), addDays(DAY, -43)];
      api.on('GET /api/schedule', { body: onTheWire([entry({ patientName: 'Omar Haddad' })]) });
      api.on('GET /api/schedule/search', (call) => ({
        body: found(call.url.searchParams.get('q') ?? '', [
          entry({ _id: 'b-today' }),
          entry({ _id: 'b-later', date: later, slot: '9:00 AM - 9:30 AM' }),
          entry({ _id: 'b-gone', date: addDays(DAY, 30), status: 'cancelled' }),
          entry({ _id: 'b-past', date: past, status: 'completed' }),
        ]),
      }));
      const { user } = showSchedule();
      await screen.findAllByText('Omar Haddad');
      const box = screen.getByLabelText('Search patients, all dates');
      await user.type(box, ' JANE ');
      expect(await screen.findByText('3 bookings for “JANE”')).toBeVisible();
      expect(api.callsTo('GET /api/schedule/search').at(-1)?.url.searchParams.get('q')).toBe(
        'JANE',
      );
      // Only the search's answer is on screen: no day of the day view, nobody else.
      expect(screen.queryAllByText('Omar Haddad')).toEqual([]);
      expect(
        screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent),
      ).toEqual([
        expect.stringMatching(heading(DAY)),
        expect.stringMatching(heading(later)),
        expect.stringMatching(heading(past)),
        'Export as CSV',
      ]);
      expect(screen.getByText('1 cancelled booking is not shown.')).toBeVisible();
      expect(
        within(rowOf('10:00 AM - 10:30 AM'))
          .getAllByRole('button')
          .map((button) => button.textContent),
      ).toEqual(['Mark arrived', 'Mark no-show', 'Cancel booking']);
      expect(
        api.callsTo('GET /api/schedule').every((call) => !call.url.searchParams.has('q')),
      ).toBe(true);

      await user.click(screen.getByLabelText('Show cancelled'));
      expect(await screen.findByText('4 bookings for “JANE”')).toBeVisible();
      // The day whose only match is cancelled says so, rather than '0 bookings' over its row.
      const cancelledDay = screen
        .getAllByRole('heading', { level: 2 })
        .find((shown) => heading(addDays(DAY, 30)).test(shown.textContent ?? ''));
      expect(cancelledDay).toHaveTextContent(/0 bookings · 1 cancelled$/);

      // Clearing the search, by keyboard, returns to the day.
      screen.getByRole('button', { name: 'Clear search' }).focus();
      await user.keyboard('{Enter}');
      expect((await screen.findAllByText('Omar Haddad'))[0]).toBeVisible();
      expect(box).toHaveValue('');
      expect(screen.getByText(heading(DAY), { selector: 'p' })).toBeVisible();
    });

    it('says when nobody matches, asks for 2 characters, and says when there are more', async () => {
      api.on('GET /api/schedule', { body: onTheWire([]) });
      api.on('GET /api/schedule/search', (call) => {
        const q = call.url.searchParams.get('q') ?? '';
        return { body: q === 'zz' ? found(q, []) : found(q, [entry()], true) };
      });
      const { user } = showSchedule(`/dashboard/schedule?date=${DAY}&q=z`);
      expect(
        await screen.findByText(
          'Type at least 2 characters of a patient’s name or email to search every date.',
        ),
      ).toBeVisible();
      expect(api.callsTo('GET /api/schedule/search')).toHaveLength(0);

      const box = screen.getByLabelText('Search patients, all dates');
      await user.type(box, 'z{Enter}');
      expect(await screen.findByText('No bookings for “zz”')).toBeVisible();
      expect(
        screen.getByText('Nobody whose name or email contains “zz” has a booking on any date.'),
      ).toBeVisible();

      await user.clear(box);
      await user.type(box, 'jane{Enter}');
      expect(
        await screen.findByText('1 booking for “jane”, of the 100 most relevant'),
      ).toBeVisible();
      expect(screen.getByText(/Showing the 100 most relevant matches/)).toBeVisible();

      // Going to another day leaves the search.
      await user.click(screen.getByRole('button', { name: 'Next day' }));
      await screen.findByRole('heading', { name: heading(dayAfter) });
      expect(box).toHaveValue('');
    });
  });
});
