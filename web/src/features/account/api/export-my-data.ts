import { downloadApiFile } from '../../../lib/download-file';

/**
 * `GET /api/account/export`: everything the portal holds about the signed-in patient, as a JSON
 * file fetched with the access token and saved under the name the server gives it.
 */
export const downloadMyData = (): Promise<string> =>
  downloadApiFile('/account/export', 'doctors-portal-my-data.json');
