import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useModalForm } from './modal-form-dialog';

describe("a modal form's state", () => {
  it('is sending while the request runs, then shows why it failed', async () => {
    const { result } = renderHook(() => useModalForm({ id: 'b1' }, () => {}));
    expect(result.current.dialog).toMatchObject({ open: true, sending: false, failure: null });

    let answer: (reason: string | null) => void = () => {};
    let sent: Promise<void> = Promise.resolve();
    act(() => {
      sent = result.current.send(() => new Promise((resolve) => (answer = resolve)));
    });
    expect(result.current.dialog.sending).toBe(true);

    await act(async () => {
      answer('This slot has just been taken');
      await sent;
    });
    expect(result.current.dialog).toMatchObject({
      sending: false,
      failure: 'This slot has just been taken',
    });

    await act(() => result.current.send(async () => null));
    expect(result.current.dialog.failure).toBeNull();
  });

  it('is closed while there is nothing to act on', () => {
    const { result } = renderHook(() => useModalForm(null, () => {}));
    expect(result.current.dialog.open).toBe(false);
  });
});
