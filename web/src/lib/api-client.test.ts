import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './api-client';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A 200 answer whose body fails as it is read. */
function answerFailingWith(error: Error) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      const response = new Response('[]', { status: 200 });
      vi.spyOn(response, 'json').mockRejectedValue(error);
      return response;
    }),
  );
}

describe('reading an answer', () => {
  it('stays cancelled when the call is cancelled while its body arrives', async () => {
    answerFailingWith(new DOMException('The operation was aborted.', 'AbortError'));
    await expect(api('/available', { anonymous: true })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('reads a body that is not JSON as no data', async () => {
    answerFailingWith(new SyntaxError('Unexpected token'));
    await expect(api('/available', { anonymous: true })).resolves.toBeNull();
  });
});
