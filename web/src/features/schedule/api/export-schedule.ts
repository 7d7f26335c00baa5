import type { IsoDate } from '@doctors-portal/contract';
import { apiFile } from '../../../lib/api-client';
import { scheduleCsvPath } from '../schedule';

/**
 * `GET /api/schedule.csv` (administrators): the range's bookings as a CSV file, fetched with the
 * access token and saved under the name the server gives it.
 */
export async function downloadScheduleCsv(query: {
  from: IsoDate;
  to: IsoDate;
  treatmentId?: string;
  q?: string;
}): Promise<string> {
  const { blob, filename } = await apiFile(scheduleCsvPath(query));
  const name = filename ?? `schedule-${query.from}-to-${query.to}.csv`;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
