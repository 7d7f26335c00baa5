import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, stubApi } from '../test/fetch-stub';
import { ApiError } from './api-client';
import { downloadApiFile } from './download-file';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** Records the links the browser is asked to follow: their target, saved name and page. */
function watchDownloads() {
  const followed: Array<{ href: string; download: string; inPage: boolean }> = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    followed.push({ href: this.href, download: this.download, inPage: this.isConnected });
  });
  const revoke = vi.fn();
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:file-1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(revoke);
  return { followed, revoke };
}

describe('downloadApiFile', () => {
  it('saves the file under the name the server gives, then lets the blob go', async () => {
    vi.useFakeTimers();
    stubApi({
      'GET /api/report': {
        body: { rows: [] },
        headers: { 'content-disposition': 'attachment; filename="report-1.json"' },
      },
    });
    const { followed, revoke } = watchDownloads();
    await expect(downloadApiFile('/report', 'fallback.json')).resolves.toBe('report-1.json');
    expect(followed).toEqual([{ href: 'blob:file-1', download: 'report-1.json', inPage: true }]);
    expect(document.querySelector('a[download]')).toBeNull();
    expect(revoke).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10_000);
    expect(revoke).toHaveBeenCalledWith('blob:file-1');
  });

  it('falls back to the given name when the server names none', async () => {
    stubApi({ 'GET /api/report': { body: { rows: [] } } });
    const { followed } = watchDownloads();
    await expect(downloadApiFile('/report', 'fallback.json')).resolves.toBe('fallback.json');
    expect(followed.map((link) => link.download)).toEqual(['fallback.json']);
  });

  it("saves nothing when the server refuses, and says the server's reason", async () => {
    stubApi({ 'GET /api/report': failure(403, 'Admins only.') });
    const { followed } = watchDownloads();
    const download = downloadApiFile('/report', 'fallback.json');
    await expect(download).rejects.toBeInstanceOf(ApiError);
    await expect(download).rejects.toThrow('Admins only.');
    expect(followed).toEqual([]);
  });
});
