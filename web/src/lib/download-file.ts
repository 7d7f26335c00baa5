import { apiFile } from './api-client';

/**
 * Fetches `path` of the API with the access token and has the browser save it under the name
 * the server gives it (`fallbackName` when it gives none). Answers the name it was saved under.
 */
export async function downloadApiFile(path: string, fallbackName: string): Promise<string> {
  const { blob, filename } = await apiFile(path);
  const name = filename ?? fallbackName;
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
