import { type Kysely, type Migration, type MigrationResult, Migrator } from 'kysely';
import { StartupError } from '../startup-error.js';
import * as initial from './migrations/0001_initial.js';
import * as payments from './migrations/0002_payments.js';
import * as mailQueue from './migrations/0003_mail_queue.js';
import * as bookingOwnership from './migrations/0004_booking_ownership.js';
import * as auditAndMessages from './migrations/0005_audit_and_messages.js';
import * as schedule from './migrations/0006_schedule.js';
import * as treatmentCatalogue from './migrations/0007_treatment_catalogue.js';
import * as clinicCalendar from './migrations/0008_clinic_calendar.js';
import * as doctorsAsProviders from './migrations/0009_doctors_as_providers.js';
import * as doctorCalendarFeeds from './migrations/0010_doctor_calendar_feeds.js';
import * as bookingSequence from './migrations/0011_booking_sequence.js';
import * as reminders from './migrations/0012_reminders.js';
import * as waitlist from './migrations/0013_waitlist.js';
import * as visitLinks from './migrations/0014_visit_links.js';
import * as accountPhone from './migrations/0015_account_phone.js';
import * as scheduleRevision from './migrations/0016_schedule_revision.js';
import * as accountAge from './migrations/0017_account_age.js';
import * as unpaidCountFromIndex from './migrations/0018_unpaid_count_from_index.js';
import * as scheduleChangeHorizon from './migrations/0019_schedule_change_horizon.js';
import * as bookingMovedLate from './migrations/0020_booking_moved_late.js';
import * as refundFailure from './migrations/0021_refund_failure.js';
import type { Database } from './schema.js';

/** Every migration, in order. Imported statically so that the built server carries them. */
const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_payments': payments,
  '0003_mail_queue': mailQueue,
  '0004_booking_ownership': bookingOwnership,
  '0005_audit_and_messages': auditAndMessages,
  '0006_schedule': schedule,
  '0007_treatment_catalogue': treatmentCatalogue,
  '0008_clinic_calendar': clinicCalendar,
  '0009_doctors_as_providers': doctorsAsProviders,
  '0010_doctor_calendar_feeds': doctorCalendarFeeds,
  '0011_booking_sequence': bookingSequence,
  '0012_reminders': reminders,
  '0013_waitlist': waitlist,
  '0014_visit_links': visitLinks,
  '0015_account_phone': accountPhone,
  '0016_schedule_revision': scheduleRevision,
  '0017_account_age': accountAge,
  '0018_unpaid_count_from_index': unpaidCountFromIndex,
  '0019_schedule_change_horizon': scheduleChangeHorizon,
  '0020_booking_moved_late': bookingMovedLate,
  '0021_refund_failure': refundFailure,
};

export class MigrationError extends StartupError {
  override name = 'MigrationError';
}

/**
 * Applies the migrations not yet applied (up to and including `upTo`, when given: a test's way to
 * make a database as an earlier release left it); returns what ran. Safe to run concurrently.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  upTo?: string,
): Promise<MigrationResult[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results = [] } = upTo
    ? await migrator.migrateTo(upTo)
    : await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new MigrationError(`Migration ${failed} failed: ${(error as Error).message}`);
  }
  return results;
}
