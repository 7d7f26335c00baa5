import type { IsoDate } from '@doctors-portal/contract';
import type { ColumnType, Insertable, Selectable } from 'kysely';

/**
 * The portal's tables as Kysely sees them. Columns use types both engines store alike:
 * text ids, ISO text dates and timestamps, integer cents, and no booleans (SQLite has none),
 * so one set of migrations and queries serves SQLite and PostgreSQL.
 */
/** The auth library's user table, with the portal's role column. */
export interface UserTable {
  id: string;
  name: string;
  email: string;
  /** 0/1 on SQLite, boolean on PostgreSQL. */
  emailVerified: 0 | 1 | boolean;
  image: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  /** 'admin' for the clinic's administrators; null for patients. */
  role: 'admin' | null;
}

export interface SessionTable {
  id: string;
  expiresAt: Date | string;
  token: string;
  userId: string;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
}

export interface RateLimitTable {
  id: string;
  key: string;
  count: number;
  lastRequest: number | string;
}

export interface TreatmentTable {
  id: string;
  name: string;
  price_cents: number;
  /** JSON array of slot labels in the order they are offered, e.g. '10:00 AM - 10:30 AM'. */
  slots: string;
  sort_order: number;
  /** What the clinic says about it (migrations/0007); '' when nothing. */
  description: ColumnType<string, string | undefined, string>;
  /** When the clinic retired it (ISO time): no longer offered, its bookings stay. */
  retired_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface BookingTable {
  id: string;
  treatment_id: string;
  /** Name and price as they were when booked: a receipt must not change with the price list. */
  treatment_name: string;
  price_cents: number;
  /** The day in the clinic's time zone, stored as 'YYYY-MM-DD'. */
  date: IsoDate;
  slot: string;
  patient_id: string | null;
  patient_email: string;
  patient_name: string;
  phone: string;
  age: number;
  created_at: ColumnType<string, string, never>;
  paid_at: string | null;
  transaction_id: string | null;
  status: ColumnType<BookingStatus, BookingStatus | undefined, BookingStatus>;
  cancelled_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The account that cancelled it; null when the clinic's system did. */
  cancelled_by: ColumnType<string | null, string | null | undefined, string | null>;
  cancel_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** The doctor the visit is with (migrations/0009); null when no doctor performs the treatment. */
  doctor_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The doctor's name as it was when booked. */
  doctor_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** Its calendar event's SEQUENCE (migrations/0011): 0, one more each time it is moved. */
  sequence: ColumnType<number, number | undefined, number>;
  /**
   * When its patient moved it inside the cancellation notice (migrations/0020); null: never.
   * From then on it is cancelled by the clinic only.
   */
  moved_late_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Where a visit stands; a cancelled booking stays as a row and frees its slot. */
export type BookingStatus =
  | 'booked'
  | 'confirmed'
  | 'arrived'
  | 'completed'
  | 'no_show'
  | 'cancelled';

/**
 * A time unit of a day that a live booking holds for its patient (migrations/0004): a unique
 * index over (patient, date, unit) keeps a patient in one chair at a time.
 */
export interface BookingUnitTable {
  booking_id: string;
  patient_id: string | null;
  date: IsoDate;
  unit: number;
}

/**
 * A time unit of a day that a live booking with a doctor holds for the doctor (migrations/0009):
 * a unique index over (date, doctor, unit) keeps a doctor in one place at a time.
 */
export interface DoctorUnitTable {
  booking_id: string;
  doctor_id: string;
  date: IsoDate;
  unit: number;
}

/** The card gateways: the offline demo gateway, or Stripe. */
export type PaymentProviderName = 'demo' | 'stripe';

/** Money given back through the payment provider, with the provider's refund id. */
export interface RefundTable {
  id: string;
  booking_id: string;
  provider: PaymentProviderName;
  intent_id: string;
  amount_cents: number;
  currency: string;
  reason: string;
  created_at: string;
  /** When the provider reported the refund failed (migrations/0021); null while it stands. */
  failed_at: ColumnType<string | null, string | null | undefined, string | null>;
  failure_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A payment the provider confirmed, which settles its booking (one per booking). */
export interface PaymentTable {
  id: string;
  booking_id: string;
  provider: PaymentProviderName;
  transaction_id: string;
  amount_cents: number;
  currency: string;
  created_at: ColumnType<string, string, never>;
}

/** Which provider intent settles a booking (migrations/0002_payments.ts). */
export interface PaymentIntentTable {
  booking_id: string;
  provider: PaymentProviderName;
  intent_id: string;
  amount_cents: number;
  currency: string;
  created_at: string;
}

/** An intent of the offline demo gateway; it never holds a card number or CVC. */
export interface DemoPaymentIntentTable {
  /** 'pi_demo_…'. */
  id: string;
  booking_id: string;
  amount_cents: number;
  currency: string;
  status: 'requires_payment_method' | 'succeeded';
  client_secret: string;
  receipt_email: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  last4: string | null;
  /** The card error of the latest failed attempt, e.g. 'card_declined'. */
  last_error_code: string | null;
  /** Set when the intent was cancelled: it can no longer be paid. */
  canceled_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<string, string, never>;
  updated_at: string;
}

/** A refund the demo gateway made (it moves no money): at most one, in full, per intent. */
export interface DemoRefundTable {
  /** 're_demo_…'. */
  id: string;
  intent_id: string;
  amount_cents: number;
  created_at: string;
}

/** A Stripe webhook event already handled. */
export interface StripeEventTable {
  id: string;
  type: string;
  received_at: string;
}

/** A message waiting to be sent (see mail/queue.ts). */
export interface MailQueueTable {
  id: string;
  kind: string;
  /** What the message says, as JSON: rendered when it is sent. */
  payload: string;
  created_at: ColumnType<string, string, never>;
  /** When it may be tried next (ISO time); null once the sender has given up on it. */
  send_after: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  /** The booking it tells of, for a reminder (migrations/0012): found when the booking changes. */
  booking_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface DoctorTable {
  id: string;
  name: string;
  email: string;
  specialty: string;
  image_url: string;
  created_at: ColumnType<string, string, never>;
  /** JSON array of the weekdays the doctor works (0 = Sunday … 6); every day by default. */
  work_days: ColumnType<string, string | undefined, string>;
}

/** A treatment a doctor performs, in the clinic's order (`position`, the specialty's first). */
export interface DoctorTreatmentTable {
  doctor_id: string;
  treatment_id: string;
  position: number;
}

/** A date a doctor is off ('YYYY-MM-DD'). */
export interface DoctorDayOffTable {
  doctor_id: string;
  date: IsoDate;
}

/**
 * A doctor's calendar feed (migrations/0010): the SHA-256 (base64url) of its URL's secret token;
 * one per doctor, replaced when a new URL is made.
 */
export interface DoctorCalendarFeedTable {
  doctor_id: string;
  token_hash: string;
  /** ISO time. */
  created_at: string;
  /** The administrator's account id. */
  created_by: string | null;
}

/**
 * One change a person (or the server itself) made, written in the change's own transaction
 * (audit/log.ts); the engine refuses to update or delete a row (migrations/0005).
 */
export interface AuditLogTable {
  id: string;
  /** ISO time. */
  at: string;
  actor_kind: 'admin' | 'patient' | 'system';
  /** The acting account, by value: null for the system. */
  actor_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  /** e.g. 'booking.created', 'role.granted'. */
  action: string;
  subject_type: string;
  subject_id: string;
  /** What a person reads for the subject, as it was (a booking's treatment and date, an email). */
  subject_label: string | null;
  /** JSON of the changed fields before and after; null when there was nothing before or after. */
  before: string | null;
  after: string | null;
}

/** A message a visitor sent through the landing page's Contact Us form. */
export interface ContactMessageTable {
  id: string;
  email: string;
  subject: string;
  message: string;
  created_at: ColumnType<string, string, never>;
  /** When somebody at the clinic marked it read; null while unread. */
  read_at: string | null;
}

/**
 * A setting the clinic changed (migrations/0008), its value as JSON: 'opening_days' (an array of
 * weekdays, 0 = Sunday) or 'booking_rules'. Without a row, the setting keeps its default.
 */
export interface ClinicSettingTable {
  name: string;
  value: string;
  /** ISO time. */
  updated_at: string;
  /** The administrator's account id. */
  updated_by: string | null;
}

/** Dates the clinic is closed, `from_date` to `to_date` (ISO dates, both included). */
export interface ClosureTable {
  id: string;
  from_date: string;
  to_date: string;
  label: string;
  created_at: ColumnType<string, string, never>;
  created_by: string | null;
}

export interface Database {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  rateLimit: RateLimitTable;
  treatment: TreatmentTable;
  booking: BookingTable;
  booking_unit: BookingUnitTable;
  refund: RefundTable;
  demo_refund: DemoRefundTable;
  payment: PaymentTable;
  payment_intent: PaymentIntentTable;
  demo_payment_intent: DemoPaymentIntentTable;
  stripe_event: StripeEventTable;
  doctor: DoctorTable;
  doctor_treatment: DoctorTreatmentTable;
  doctor_day_off: DoctorDayOffTable;
  doctor_unit: DoctorUnitTable;
  doctor_calendar_feed: DoctorCalendarFeedTable;
  mail_queue: MailQueueTable;
  audit_log: AuditLogTable;
  contact_message: ContactMessageTable;
  clinic_setting: ClinicSettingTable;
  closure: ClosureTable;
}

export type NewTreatment = Insertable<TreatmentTable>;
export type Booking = Selectable<BookingTable>;
export type Doctor = Selectable<DoctorTable>;

/** A one-tap mail link that was used (migrations/0014): by its random id, once only. */
export interface VisitLinkUseTable {
  id: string;
  booking_id: string;
  action: string;
  /** ISO time. */
  used_at: string;
}

// Merged into `Database` above: the used links' table.
export interface Database {
  visit_link_use: VisitLinkUseTable;
}

/**
 * What tells the schedule that bookings or refunds changed (migrations/0016, decision 026):
 * on SQLite one row whose revision every such write bumps, on PostgreSQL the id of each
 * transaction that made such a write. Written by triggers only.
 */
export interface ScheduleRevisionTable {
  id: number;
  revision: number;
}
export interface ScheduleChangeTable {
  xid: string;
}
/** Where PostgreSQL's record begins, after its prunes (migrations/0019). */
export interface ScheduleChangeHorizonTable {
  id: number;
  xid: string;
}

// Merged into `Database` above: the schedule's change record.
export interface Database {
  schedule_revision: ScheduleRevisionTable;
  schedule_change: ScheduleChangeTable;
  schedule_change_horizon: ScheduleChangeHorizonTable;
}

/** A patient waiting for a slot of a treatment on a date (migrations/0013), in join order. */
export interface WaitlistEntryTable {
  id: string;
  patient_id: string;
  treatment_id: string;
  date: IsoDate;
  /** ISO time joined: the order waiting patients are told of a freed slot. */
  created_at: string;
}
/** Who was told of which freed slot of their entry's day (migrations/0013): once each. */
export interface WaitlistNoticeTable {
  entry_id: string;
  slot: string;
  /** ISO time. */
  told_at: string;
}

// Merged into `Database` above: the waitlist.
export interface Database {
  waitlist_entry: WaitlistEntryTable;
  waitlist_notice: WaitlistNoticeTable;
}

// Merged into `UserTable` above: the phone on the patient's account (migrations/0015).
export interface UserTable {
  /** Optional; Better Auth's additional field `phone`. */
  phone: string | null;
}

// Merged into `UserTable` above: the age on the patient's account (migrations/0017).
export interface UserTable {
  /** Optional, 0 to 120; Better Auth's additional field `age`. */
  age: number | null;
}
