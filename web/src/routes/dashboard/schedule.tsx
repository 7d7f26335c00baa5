import { SchedulePage } from '../../features/schedule/components/schedule-page';

/** /dashboard/schedule (admin): the clinic's bookings of a day or a week, and what staff do to them. */
export default function ScheduleRoute() {
  return <SchedulePage />;
}
