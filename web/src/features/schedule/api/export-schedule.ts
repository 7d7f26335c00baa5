import type { IsoDate } from '@doctors-portal/contract';
import { downloadApiFile } from '../../../lib/download-file';
import { scheduleCsvPath } from '../schedule';

/**
 * `GET /api/schedule.csv` (administrators): the range's bookings as a CSV file, fetched with the
 * access token and saved under the name the server gives it.
 */
export const downloadScheduleCsv = (query: {
  from: IsoDate;
  to: IsoDate;
  treatmentId?: string;
  q?: string;
}): Promise<string> =>
  downloadApiFile(scheduleCsvPath(query), `schedule-${query.from}-to-${query.to}.csv`);
