import { apiFile } from '../../../lib/api-client';

/**
 * `GET /api/account/export`: everything the portal holds about the signed-in patient, as a JSON
 * file fetched with the access token and saved under the name the server gives it.
 */
export async function downloadMyData(): Promise<string> {
  const { blob, filename } = await apiFile('/account/export');
  const name = filename ?? 'doctors-portal-my-data.json';
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
