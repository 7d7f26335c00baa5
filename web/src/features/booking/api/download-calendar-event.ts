import { downloadApiFile } from '../../../lib/download-file';

/**
 * `GET /api/booking/{id}/calendar.ics`: the booking's calendar event (the confirmation mail's),
 * saved as a file the patient's calendar opens.
 */
export const downloadCalendarEvent = (bookingId: string): Promise<string> =>
  downloadApiFile(`/booking/${encodeURIComponent(bookingId)}/calendar.ics`, 'appointment.ics');
