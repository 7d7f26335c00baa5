import { todayIn } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useClinicTimeZone } from '../../../api/clinic';
import { clinicCalendarQuery } from '../../../api/clinic-calendar';
import { PageHeading } from '../../../components/page-heading';
import { QueryState } from '../../../components/query-state';
import { Spinner } from '../../../components/spinner';
import { rulesQuery } from '../api/get-rules';
import { ClosuresSection } from './closures-section';
import { OpeningDaysForm } from './opening-days-form';
import { RulesForm } from './rules-form';

const loading = (label: string) => (
  <div className="flex justify-center rounded-box border border-base-300 bg-base-100 py-10">
    <Spinner label={label} />
  </div>
);

/**
 * /dashboard/clinic (admin): when the clinic opens and how patients book. The weekly opening
 * days, the closures (holidays) with the bookings still on them and 'Cancel and notify', and
 * the booking rules.
 */
export function ClinicPage() {
  const today = todayIn(useClinicTimeZone());
  const calendar = useQuery(clinicCalendarQuery(today, today));
  const rules = useQuery(rulesQuery);
  return (
    <div className="flex flex-col gap-5">
      <PageHeading eyebrow="Administration" title="Clinic calendar and rules" />
      <p className="max-w-2xl text-muted">
        When the clinic opens and how patients book. Changes show on the booking page at once.
      </p>
      <QueryState
        query={calendar}
        loading={loading('Loading the opening days…')}
        what="The opening days"
      >
        {(data) => <OpeningDaysForm key={data.openingDays.join()} openingDays={data.openingDays} />}
      </QueryState>
      <ClosuresSection today={today} />
      <QueryState
        query={rules}
        loading={loading('Loading the booking rules…')}
        what="The booking rules"
      >
        {(data) => <RulesForm key={JSON.stringify(data)} current={data} />}
      </QueryState>
    </div>
  );
}
